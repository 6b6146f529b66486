import type { ClassProgress, ClassStudentProgress } from '@flashcards/shared/api-types';
import { classMessages } from '@flashcards/shared/class-messages';
import { messages } from '@flashcards/shared/messages';
import type { ReactNode } from 'react';
import { Notice } from '../../components/notice';
import { downloadTextFile } from '../../lib/download';
import { plainTextOf } from '../../lib/plain-text';
import { cardsCsv, csvFileName, studentsCsv } from './progress-csv';

const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const percentFormat = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 0 });

function percent(share: number | null): string {
  return share === null ? classMessages.none : percentFormat.format(share);
}

function lastActive(at: string | null): ReactNode {
  return at ? <time dateTime={at}>{dateTimeFormat.format(new Date(at))}</time> : classMessages.never;
}

interface ProgressTablesProps {
  className: string;
  progress: ClassProgress | undefined;
  failed: boolean;
  /** The teacher's Remove button of one student's row. */
  onRemove: (student: ClassStudentProgress) => void;
}

/** The teacher's two tables, each with its CSV download: the students, then the cards hardest first. */
export function ProgressTables({ className, progress, failed, onRemove }: ProgressTablesProps) {
  if (failed) return <Notice tone="error">{classMessages.progressLoadFailed}</Notice>;
  if (!progress) return <p role="status">{messages.loading}</p>;
  const csvType = 'text/csv;charset=utf-8';
  return (
    <>
      <section className="classes-section">
        <div className="class-table__head">
          <h2 id="class-students-heading">{classMessages.studentsHeading}</h2>
          {progress.students.length > 0 && (
            <button
              type="button"
              className="button button--secondary button--small"
              aria-label={`${classMessages.downloadCsv}: ${classMessages.studentsHeading}`}
              onClick={() =>
                downloadTextFile(csvFileName(className, 'students'), studentsCsv(progress.students), csvType)
              }
            >
              {classMessages.downloadCsv}
            </button>
          )}
        </div>
        {progress.students.length === 0 ? (
          <p className="muted">{classMessages.studentsEmpty}</p>
        ) : (
          <ScrollTable label={classMessages.studentsHeading}>
            <thead>
              <tr>
                <th scope="col">{classMessages.colStudent}</th>
                <th scope="col">{classMessages.colCardsStudied}</th>
                <th scope="col">{classMessages.colReviews7d}</th>
                <th scope="col">{classMessages.colRetention30d}</th>
                <th scope="col">{classMessages.colLastActive}</th>
                <th scope="col">
                  <span className="visually-hidden">{classMessages.removeStudent}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {progress.students.map((student) => (
                <tr key={student.user_id}>
                  <th scope="row">
                    <span className="class-table__name">{student.name}</span>
                    <span className="muted class-table__email">{student.email}</span>
                  </th>
                  <td>{student.cards_studied}</td>
                  <td>{student.reviews_7d}</td>
                  <td>{percent(student.retention_30d)}</td>
                  <td>{lastActive(student.last_active)}</td>
                  <td>
                    <button
                      type="button"
                      className="button button--danger-outline button--small"
                      aria-label={`${classMessages.removeStudent}: ${student.name}`}
                      onClick={() => onRemove(student)}
                    >
                      {classMessages.removeStudent}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        )}
      </section>
      <section className="classes-section">
        <div className="class-table__head">
          <h2 id="class-cards-heading">{classMessages.cardsHeading}</h2>
          {progress.cards.length > 0 && (
            <button
              type="button"
              className="button button--secondary button--small"
              aria-label={`${classMessages.downloadCsv}: ${classMessages.cardsHeading}`}
              onClick={() => downloadTextFile(csvFileName(className, 'cards'), cardsCsv(progress.cards), csvType)}
            >
              {classMessages.downloadCsv}
            </button>
          )}
        </div>
        {progress.cards.length === 0 ? (
          <p className="muted">{classMessages.cardsEmpty}</p>
        ) : (
          <ScrollTable label={classMessages.cardsHeading}>
            <thead>
              <tr>
                <th scope="col">{classMessages.colQuestion}</th>
                <th scope="col">{classMessages.colReviews}</th>
                <th scope="col">{classMessages.colFailed}</th>
                <th scope="col">{classMessages.colFailShare}</th>
              </tr>
            </thead>
            <tbody>
              {progress.cards.map((card) => (
                <tr key={card.card_id}>
                  <th scope="row" className="class-table__question">
                    {plainTextOf(card.question)}
                  </th>
                  <td>{card.reviews}</td>
                  <td>{card.failed}</td>
                  <td>{percent(card.fail_rate)}</td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        )}
      </section>
    </>
  );
}

/** A wide table scrolls sideways on a phone inside a region the keyboard can reach. */
function ScrollTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus so the keyboard can scroll it.
    <section className="class-table__scroll" aria-label={label} tabIndex={0}>
      <table className="class-table">{children}</table>
    </section>
  );
}
