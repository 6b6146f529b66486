import type { ClassDeck, ClassStudentProgress, ClassSummary } from '@flashcards/shared/api-types';
import { classMessages } from '@flashcards/shared/class-messages';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ConfirmModal } from '../../components/confirm-modal';
import { Notice } from '../../components/notice';
import { errorDetail } from '../../lib/api-client';
import { classesPagePath, useClasses } from '../../lib/classes-api';
import type { StudyDeckState } from '../../lib/navigation';
import { appName, useDocumentTitle } from '../../lib/use-document-title';
import { AssignDeckForm } from './assign-deck';
import { ClassInvite } from './class-invite';
import { useClassProgress, useLeaveClass, useRemoveStudent } from './classes-api';
import { ProgressTables } from './progress-tables';
import './classes.css';

/**
 * /classes/{id}: for the teacher, the invite, the assigned decks with Assign deck, and the students' and cards'
 * progress; for a student, the class, its teacher and its decks (their linked copies), and Leave class.
 */
export function ClassScreen({ classId }: { classId: string }) {
  const classes = useClasses();
  const found = classes.data?.find((item) => item._id === classId);
  useDocumentTitle(`${found?.name ?? classMessages.pageTitle} | ${appName}`);

  let body: React.ReactNode;
  if (classes.isError) body = <Notice tone="error">{classMessages.classLoadFailed}</Notice>;
  else if (!classes.data) body = <p role="status">{messages.loading}</p>;
  else if (!found) body = <Notice tone="error">{classMessages.classNotFound}</Notice>;
  else body = found.role === 'teacher' ? <TeacherView item={found} /> : <StudentView item={found} />;

  return (
    <>
      <p className="class-back">
        <Link to={classesPagePath}>{classMessages.backToClasses}</Link>
      </p>
      <h1>{found?.name ?? classMessages.pageTitle}</h1>
      {body}
    </>
  );
}

function TeacherView({ item }: { item: ClassSummary }) {
  const progress = useClassProgress(item._id);
  const [removing, setRemoving] = useState<ClassStudentProgress | null>(null);
  return (
    <>
      <p className="class-role-line">
        <span className="class-role class-role--teacher">{classMessages.roleTeacher}</span>
      </p>
      {item.join_code && (
        <section className="classes-section" aria-labelledby="class-invite-heading">
          <h2 id="class-invite-heading">{classMessages.inviteHeading}</h2>
          <ClassInvite joinCode={item.join_code} />
        </section>
      )}
      <section className="classes-section" aria-labelledby="class-decks-heading">
        <h2 id="class-decks-heading">{classMessages.decksHeading}</h2>
        <DeckRows decks={item.decks} />
        <h3 className="class-subheading">{classMessages.assignHeading}</h3>
        <AssignDeckForm classId={item._id} className={item.name} />
      </section>
      <ProgressTables className={item.name} progress={progress.data} failed={progress.isError} onRemove={setRemoving} />
      {removing && <RemoveStudentModal item={item} student={removing} onClose={() => setRemoving(null)} />}
    </>
  );
}

function StudentView({ item }: { item: ClassSummary }) {
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);
  return (
    <>
      <p className="class-role-line">
        <span className="class-role class-role--student">{classMessages.roleStudent}</span>{' '}
        <span>{fillMessage(classMessages.taughtBy, { name: item.teacher_name })}</span>
      </p>
      <section className="classes-section" aria-labelledby="class-decks-heading">
        <h2 id="class-decks-heading">{classMessages.decksHeading}</h2>
        <DeckRows
          decks={item.decks}
          onStudy={(deck) => {
            const state: StudyDeckState = { studyDeck: { deckId: deck.copy_deck_id ?? deck._id, name: deck.name } };
            navigate('/review', { state });
          }}
        />
      </section>
      <section className="classes-section">
        <button type="button" className="button button--danger-outline" onClick={() => setLeaving(true)}>
          {classMessages.leaveButton}
        </button>
      </section>
      {leaving && <LeaveClassModal item={item} onClose={() => setLeaving(false)} />}
    </>
  );
}

function DeckRows({ decks, onStudy }: { decks: readonly ClassDeck[]; onStudy?: (deck: ClassDeck) => void }) {
  if (decks.length === 0) return <p className="muted">{classMessages.decksEmpty}</p>;
  return (
    <ul className="class-decks">
      {decks.map((deck) => (
        <li key={deck._id} className="class-decks__item">
          <span className="class-decks__name">{deck.name}</span>
          <span className="muted">{fillMessage(classMessages.deckCards, { count: deck.card_count })}</span>
          {onStudy && (
            <button
              type="button"
              className="button button--small"
              aria-label={`${classMessages.studyDeck}: ${deck.name}`}
              onClick={() => onStudy(deck)}
            >
              {classMessages.studyDeck}
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

function LeaveClassModal({ item, onClose }: { item: ClassSummary; onClose: () => void }) {
  const leave = useLeaveClass();
  const navigate = useNavigate();
  return (
    <ConfirmModal
      title={classMessages.leaveTitle}
      message={fillMessage(classMessages.leaveConfirm, { name: item.name })}
      confirmLabel={classMessages.leaveButton}
      pending={leave.isPending}
      pendingLabel={classMessages.leaving}
      error={leave.isError ? errorDetail(leave.error, classMessages.leaveFailed) : null}
      onConfirm={() => leave.mutate(item._id, { onSuccess: () => navigate(classesPagePath) })}
      onClose={onClose}
    />
  );
}

function RemoveStudentModal({
  item,
  student,
  onClose,
}: {
  item: ClassSummary;
  student: ClassStudentProgress;
  onClose: () => void;
}) {
  const remove = useRemoveStudent();
  return (
    <ConfirmModal
      title={classMessages.removeStudentTitle}
      message={fillMessage(classMessages.removeStudentConfirm, { name: student.name, class: item.name })}
      confirmLabel={classMessages.removeStudent}
      pending={remove.isPending}
      pendingLabel={classMessages.removing}
      error={remove.isError ? errorDetail(remove.error, classMessages.removeFailed) : null}
      onConfirm={() => remove.mutate({ classId: item._id, userId: student.user_id }, { onSuccess: onClose })}
      onClose={onClose}
    />
  );
}
