/**
 * The API's class shapes (api-contract.md, "Classes"), shared by the server (responses) and the web app. Kept apart
 * from api-types.ts so that the class work of the server and of the web app meet in one small file.
 */

/** What the signed-in user is in a class. */
export type ClassRole = 'teacher' | 'student';

/** A deck assigned to a class: the teacher's deck, and for a student the id of their linked copy. */
export interface ClassDeck {
  _id: string;
  name: string;
  card_count: number;
  /** The caller's linked copy (students); null for the teacher. */
  copy_deck_id: string | null;
  assigned_at: string;
}

/** A class as its teacher or one of its students sees it (POST /classes, GET /classes, POST /classes/join). */
export interface ClassSummary {
  _id: string;
  name: string;
  role: ClassRole;
  created_at: string;
  teacher_name: string;
  /** The teacher's only; null for a student. */
  join_code: string | null;
  /** The teacher's only; null for a student. */
  student_count: number | null;
  decks: ClassDeck[];
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
