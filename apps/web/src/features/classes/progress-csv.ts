import type { ClassCardProgress, ClassStudentProgress } from '@flashcards/shared/api-types';
import { classMessages } from '@flashcards/shared/class-messages';
import Papa from 'papaparse';

/** A cell a spreadsheet would run as a formula (= + - @, tab, carriage return first) gets the apostrophe convention. */
const formulaStart = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

function safeCell(value: string | number | null): string | number {
  if (value === null) return '';
  return typeof value === 'string' && formulaStart.test(value) ? `'${value}` : value;
}

function toCsv(header: readonly string[], rows: readonly (readonly (string | number | null)[])[]): string {
  return Papa.unparse([header as string[], ...rows.map((row) => row.map(safeCell))], { newline: '\r\n' });
}

/** The students table as CSV: one row a student, retention as a share 0–1, last activity as an ISO time. */
export function studentsCsv(students: readonly ClassStudentProgress[]): string {
  return toCsv(
    [
      classMessages.colStudent,
      classMessages.colEmail,
      classMessages.colCardsStudied,
      classMessages.colReviews7d,
      classMessages.colRetention30d,
      classMessages.colLastActive,
    ],
    students.map((student) => [
      student.name,
      student.email,
      student.cards_studied,
      student.reviews_7d,
      student.retention_30d,
      student.last_active,
    ]),
  );
}

/** The cards table as CSV, hardest first as the server sent it: the "don't know" share as 0–1. */
export function cardsCsv(cards: readonly ClassCardProgress[]): string {
  return toCsv(
    [classMessages.colQuestion, classMessages.colReviews, classMessages.colFailed, classMessages.colFailShare],
    cards.map((card) => [card.question, card.reviews, card.failed, card.fail_rate]),
  );
}

/** A file name from the class name: letters, digits and dashes only. */
export function csvFileName(className: string, table: 'students' | 'cards'): string {
  const base = className
    .normalize('NFKD')
    .replace(/[^\w-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase();
  return `${base || 'class'}-${table}.csv`;
}
