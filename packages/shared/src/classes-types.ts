/**
 * The API's class shapes (api-contract.md, "Classes"), shared by the server (responses) and the web app. Kept apart
 * from api-types.ts so that the class work of the server and of the web app meet in one small file.
 */

/** What the signed-in user is in a class. */
export type ClassRole = 'teacher' | 'student';

/**
 * A class as POST /classes (201), each row of GET /classes and POST /classes/join answer it. `join_code` is always
 * there for the teacher; `teacher_name` always for a student (and may be there for the teacher).
 */
export interface ClassSummary {
  _id: string;
  name: string;
  role: ClassRole;
  created_at: string;
  join_code?: string;
  teacher_name?: string;
}

/** POST /classes */
export interface CreateClassRequest {
  name: string;
}

/** POST /classes/join */
export interface JoinClassRequest {
  join_code: string;
}

/** POST /classes/{id}/decks */
export interface AssignDeckRequest {
  deck_id: string;
}

/**
 * A deck assigned to a class, as GET /classes/{id} lists it: for the teacher `_id` is the teacher's own deck, for a
 * student it is the student's linked copy.
 */
export interface ClassDeck {
  _id: string;
  name: string;
  card_count: number;
}

/** GET /classes/{id}: the class and its assigned decks (a student sees no other student). */
export interface ClassDetail extends ClassSummary {
  decks: ClassDeck[];
}

/** One student of GET /classes/{id}/progress: only assigned decks count. `retention_30d` is a share 0–1. */
export interface ClassStudentProgress {
  user_id: string;
  name: string;
  email: string;
  cards_studied: number;
  reviews_7d: number;
  retention_30d: number | null;
  last_active: string | null;
}

/** One card of GET /classes/{id}/progress (the teacher's card): `failed` is the class's "don't know" answers, `fail_rate` their share 0–1. */
export interface ClassCardProgress {
  card_id: string;
  question: string;
  reviews: number;
  failed: number;
  fail_rate: number;
}

/** GET /classes/{id}/progress (teacher only): cards hardest first. */
export interface ClassProgress {
  students: ClassStudentProgress[];
  cards: ClassCardProgress[];
}
