import type { CardType, CreatableNoteContent, NoteFields, NoteType, OcclusionView } from './notes';
/** The API's shapes (docs/api.md; GET /api/openapi.json), shared by the server (responses) and the web app (requests). */

import type { ErrorCode, SyncRejectionCode } from './errors';

/** Every 4xx/5xx body. */
export interface ApiError {
  detail: string;
  code: ErrorCode;
  errors?: { field: string; message: string }[];
}

export interface User {
  _id: string;
  email: string;
  name: string;
  created_at: string;
  /** IANA time zone of the learner's study day (default "UTC"). */
  time_zone: string;
}

/** PUT /users/me/settings: request and response. */
export interface UserSettings {
  time_zone: string;
}

/** GET /stats/history. */
export interface HistoryDay {
  date: string;
  reviews: number;
  passed: number;
  new_cards: number;
}

export interface HistoryResponse {
  time_zone: string;
  days: HistoryDay[];
  streak_days: number;
  retention_30d: number | null;
  reviews_30d: number;
}

/** GET /stats/forecast. */
export interface ForecastResponse {
  time_zone: string;
  days: { date: string; due: number }[];
}

/** GET /scheduling. */
export interface SchedulingInfo {
  personalized: boolean;
  parameters: number[];
  optimized_at: string | null;
  reviews_used: number;
  reviews_since: number;
  min_reviews: number;
}

/** POST /scheduling/optimize. `detail` says why the defaults were kept, when they were. */
export interface OptimizeResponse {
  parameters: number[];
  reviews_used: number;
  log_loss_default: number;
  log_loss_personal: number;
  detail?: string;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  /** Something the user should be told about this sign-in (e.g. a password removed when Google was linked). */
  notice?: string;
}

/** GET /api/config: what this server offers the web app. No secrets. */
export interface ClientConfig {
  google_client_id: string | null;
  /** "offline" for the built-in generator, otherwise the model name. */
  ai_provider: string;
  payment_mode: 'test' | 'live';
}

export interface HealthResponse {
  status: 'ok';
}

/** POST /signup */
export interface SignupRequest {
  email: string;
  password: string;
  name: string;
}

/** A card's place in spaced repetition: FSRS New, Learning, Relearning, or Review ("due"). */
export type CardStatus = 'new' | 'learning' | 'relearning' | 'due';

export interface Card {
  _id: string;
  deck_id: string;
  question: string;
  answer: string;
  status: CardStatus;
  /** ISO time the card is next due; a "due" card is reviewable once this has passed. */
  due_date: string;
  created_at: string;
  reps: number;
  lapses: number;
  /** The note the card belongs to; a card made before notes is a basic note of one card. */
  note_id: string;
  /** Which card of its note it is: `basic` (ord 0), `reverse` (ord 1), `cloze` (ord = cloze number − 1). */
  card_type: CardType;
  ord: number;
  /** An occlusion card's image and masks: cover the target masks (every mask in `hide_all`) on the question. */
  occlusion?: OcclusionView;
  /**
   * The card's images (`/media/{name}` URLs, at most 2, shown on the answer side): present on the Cards tab's
   * lists, the review queue and POST /save-cards' answer.
   */
  images?: string[];
  /** Where an AI card came from; null for cards made by hand or imported, or whose source the learner deleted. */
  source: CardSource | null;
}

/** A note (POST /notes, GET /notes/{id}): what the learner wrote; its cards are what review shows. */
export interface Note {
  _id: string;
  deck_id: string;
  type: NoteType;
  fields: NoteFields;
  /** Its cards, in ord order. */
  card_ids: string[];
  created_at: string;
  updated_at: string;
}

/** POST /notes and PUT /notes/{id}: the note and its cards. */
export interface NoteWithCards {
  note: Note;
  cards: Card[];
}

/** A card of GET /cards/due: when it would next be due (ISO times) after a pass and after a fail. */
export interface DueCard extends Card {
  next_due: { pass: string; fail: string };
  /** When the card was last answered (ISO), null for a new card: an offline answer sends it back as its `base`. */
  last_review: string | null;
  /** The card's FSRS memory (reps and lapses are the card's): the review page schedules from it with no network. */
  memory: CardMemory;
}

export interface CardMemory {
  stability: number;
  difficulty: number;
  scheduled_days: number;
  learning_steps: number;
}

export interface Deck {
  _id: string;
  name: string;
  daily_new_card_limit: number;
  card_count: number;
  created_at: string;
  /** FSRS desired retention, 0.70 to 0.97. */
  desired_retention: number;
  /** The exam day, "YYYY-MM-DD" in the user's time zone, or null: no studied card is scheduled past it. */
  exam_date: string | null;
  /** Read aloud: each side's language and automatic reading. */
  tts: DeckTts;
  /** A class deck's copy: the class it came from (null for an ordinary deck or once unlinked). */
  class_id: string | null;
  /** A class deck's copy kept in step with the teacher's deck: its cards and notes are read-only. */
  linked: boolean;
}

/** A deck's read-aloud settings: BCP-47 language tags (null: detected from the cards) and automatic reading. */
export interface DeckTts {
  question_lang: string | null;
  answer_lang: string | null;
  auto: boolean;
}

/** GET /decks/{id}/exam-forecast: how much of the deck the learner would recall at 04:00 of the exam day. */
export interface ExamForecast {
  exam_date: string;
  /** Days from today (the user's zone) to the exam day: 0 on the day itself. */
  days_left: number;
  /** Mean FSRS retrievability over every card of the deck at 04:00 of the exam day, unstudied cards counting 0. */
  predicted_recall: number;
  cards_total: number;
  cards_unstudied: number;
  /** Studied cards whose retrievability then is below the deck's desired retention. */
  cards_at_risk: number;
  /** New cards a day to introduce every unstudied card before the exam day. */
  new_per_day: number;
}

/** What a session of a deck would show now (GET /decks). */
export interface DeckCounts {
  /** New cards within what is left of today's daily new-card limit. */
  new: number;
  /** Learning and relearning cards due now. */
  learning: number;
  /** Long-term cards due now. */
  due: number;
}

/** GET /decks: each deck with its counts. */
export interface DeckSummary extends Deck {
  counts: DeckCounts;
}

/** GET /decks/{id}. */
export interface DeckWithCards extends Deck {
  /** The deck's first cards in creation order, at most 2000 (the rest: GET /decks/{id}/cards). */
  flashcards: Card[];
  /** True when the deck has more cards than `flashcards` holds. */
  flashcards_truncated: boolean;
}

/** PUT /decks/{id}/settings: response (the request may send either field or both). */
export interface DeckSettings {
  daily_new_card_limit: number;
  desired_retention: number;
  exam_date: string | null;
  tts: DeckTts;
}

/** PUT /decks/{id}/settings: any of the settings (any of `tts`'s fields), and the deck's new name. */
export type DeckSettingsUpdate = Partial<Omit<DeckSettings, 'tts'>> & { name?: string; tts?: Partial<DeckTts> };

export interface DeckStats {
  total_cards: number;
  new_cards: number;
  /** Learning and relearning. */
  learning_cards: number;
  /** Status "due" with due_date reached. */
  due_cards: number;
  cards_reviewed_today: number;
  /** The earliest future due date (ISO), or null. */
  next_due_time: string | null;
}

/** POST /save-cards request. */
export interface SaveCardsRequest {
  deck_id: string;
  cards: SaveCardItem[];
}

/** One item of POST /save-cards: a basic card's two sides, or a note with its type and fields (notes.ts). */
export type SaveCardItem =
  | { question: string; answer: string; source?: CardSource; images?: string[] }
  | (CreatableNoteContent & { source?: CardSource; images?: string[] });

export interface SaveCardsResponse {
  saved: number;
  cards: Card[];
  /** Items left out: their question and answer equal a card already in the deck (case, space and punctuation aside). */
  skipped_duplicates: number;
}

export type ReviewResult = 'pass' | 'fail';

/** POST /cards/review request. */
export interface ReviewRequest {
  card_id: string;
  result: ReviewResult;
}

export interface ReviewResponse {
  card: Card;
}

/** POST /cards/review: the card rescheduled, with when its next answer would bring it back. */
export interface AnswerResponse {
  card: DueCard;
}

/** POST /reviews/sync: one answer given offline, with the client's own UUID and the time it was given. */
export interface SyncReview {
  id: string;
  card_id: string;
  result: ReviewResult;
  reviewed_at: string;
  typed?: string;
  verdict?: 'correct' | 'close' | 'wrong';
  /** The card's `last_review` as the device saw it when answering, null for a new card (docs/api.md). */
  base?: string | null;
}

export type SyncStatus = 'applied' | 'duplicate' | 'superseded' | 'rejected';

/** What became of one synced answer: `code` for a rejection, `card` as it is now for applied and superseded. */
export interface SyncResult {
  id: string;
  status: SyncStatus;
  code?: SyncRejectionCode;
  card?: DueCard;
}

export interface SyncResponse {
  results: SyncResult[];
}

/** GET /decks/{id}/cards with `limit`: one page in creation order; `next_cursor` is null on the last page. */
export interface CardPage {
  cards: Card[];
  next_cursor: string | null;
}

/** A search result: the card and the name of its deck. */
export interface CardSearchResult extends Card {
  deck_name: string;
}

/** GET /cards/search: best matches first. */
export interface CardSearchResponse {
  cards: CardSearchResult[];
  next_cursor: string | null;
}

/** POST /decks/{id}/share. The link is origin + "/share/" + share_code. */
export interface ShareResponse {
  share_code: string;
  expires_at: string;
}

/** GET /shared/{code}. */
export interface SharedDeckInfo {
  deck_name: string;
  owner_name: string;
  card_count: number;
  shared_at: string;
  expires_at: string;
  /** The deck's first cards (at most 20, creation order), shown to anyone with the link. */
  preview: { question: string; answer: string }[];
}

/** POST /shared/{code}/import: the caller's new copy. */
export interface ImportResponse {
  _id: string;
  name: string;
}

/** POST /import: the decks that received cards, with their card counts afterwards. */
export interface FileImportResponse {
  decks: { _id: string; name: string; card_count: number }[];
  cards_imported: number;
  skipped: number;
  warnings: string[];
}

/** POST /send-feedback request. */
export interface FeedbackRequest {
  email?: string;
  feedback: string;
}

export interface FeedbackResponse {
  ok: true;
}

/** Where a generated card's material came from in an uploaded file. */
/** Where an AI card came from: the document, its page or slide, and the passage it was made from. */
export interface CardSource {
  /** The uploaded file's name. */
  document?: string;
  page?: number;
  slide?: number;
  /** The passage of the material the card was made from. */
  quote: string;
  /** The paragraph the quote was found in, what "regenerate from this passage" sends (absent when not found). */
  paragraph?: string;
}

/** The card of the chosen deck that a generated card repeats. */
export interface DuplicateOf {
  card_id: string;
  question: string;
}

/** POST /create's optional `card_style`: plain questions, cloze notes, or the model's choice per card. */
export type CardStyle = 'basic' | 'cloze' | 'mixed';

export const cardStyles: readonly CardStyle[] = ['basic', 'cloze', 'mixed'];

/** A generated basic card: a question and its answer. */
export interface GeneratedBasicCard {
  question: string;
  answer: string;
  source: CardSource;
  /** The quote was found in the material (whitespace, case and punctuation aside, within 10 % edits). */
  verified: boolean;
  /** Present when a card of the deck sent as `deck_id` already states the same fact. */
  duplicate_of?: DuplicateOf;
  /** The figures of the card's page or slide (`/media/{name}` URLs, at most 2), stored as the user's media. */
  images?: string[];
}

/**
 * A generated cloze note: `fields.text` holds its `{{cN::…}}` deletions; `question` and `answer` are its first
 * card as review shows it, so a client that knows only basic cards can show it.
 */
export interface GeneratedClozeCard extends GeneratedBasicCard {
  type: 'cloze';
  fields: { text: string };
}

export type GeneratedCard = GeneratedBasicCard | GeneratedClozeCard;

/** POST /create */
export interface GenerateResponse {
  cards: GeneratedCard[];
  cost: number;
  remaining: number;
}

/** A `progress` event of POST /create's event stream: pages or slides read, then cards written so far. */
export interface GenerationProgress {
  stage: 'extracting' | 'generating';
  done: number;
  total: number;
}

/** An `error` event of POST /create's event stream: what the JSON reply would have said, and its status. */
export interface GenerationStreamError {
  detail: string;
  code: ErrorCode;
  status: number;
}

/** POST /api/quiz/generate in `flip` mode (the default): reworded cards; `cards` repeats `questions` for older clients. */
export interface QuizResponse {
  mode: 'flip';
  questions: { question: string; answer: string }[];
  cards: { question: string; answer: string }[];
}

export type QuizMode = 'flip' | 'multiple_choice' | 'true_false' | 'matching' | 'written';

/** Four distinct options, `answer_index` the card's own answer. */
export interface MultipleChoiceQuestion {
  card_id: string;
  question: string;
  options: string[];
  answer_index: number;
}

export interface TrueFalseQuestion {
  card_id: string;
  statement: string;
  is_true: boolean;
}

/** Up to six pairs, each left (a question) with its right (its answer); the client shuffles the right sides. */
export interface MatchingQuestion {
  pairs: { card_id: string; left: string; right: string }[];
}

/** Answered by typing, checked with POST /cards/{id}/check. */
export interface WrittenQuestion {
  card_id: string;
  question: string;
}

/** POST /api/quiz/generate, by mode. */
export type StudyQuiz =
  | QuizResponse
  | { mode: 'multiple_choice'; questions: MultipleChoiceQuestion[] }
  | { mode: 'true_false'; questions: TrueFalseQuestion[] }
  | { mode: 'matching'; questions: MatchingQuestion[] }
  | { mode: 'written'; questions: WrittenQuestion[] };

/** POST /api/quiz/results */
export interface QuizResults {
  score: number;
  total: number;
  missed_card_ids: string[];
}

export type AnswerVerdict = 'correct' | 'close' | 'wrong';

/** POST /cards/{id}/check */
export interface AnswerCheck {
  verdict: AnswerVerdict;
  suggested_result: ReviewResult;
  expected: string;
  typed: string;
  /** From the expected answer to the typed one: `delete` expected and not typed, `insert` typed and not expected. */
  diff: { op: 'equal' | 'insert' | 'delete'; text: string }[];
  /** The model's one line on a `close` answer, when a model judged it. */
  explanation?: string;
}

/** GET /api/subscription-status */
export interface SubscriptionStatus {
  has_access: boolean;
  plan_type: string | null;
  premium_quota: number;
  premium_requests_used: number;
  purchased_generations: number;
  subscription_end_date: string | null;
  /** The monthly plan was cancelled: access lasts until subscription_end_date, and it does not renew. */
  cancel_at_period_end: boolean;
  free_quota: number;
  free_used: number;
  /** What the next generation may draw on. */
  remaining: number;
}

/** POST /api/create-subscription */
export interface CreateSubscriptionRequest {
  plan_type: string;
  base_url: string;
}
export interface CreateSubscriptionResponse {
  checkout_url: string;
}

/** POST /api/verify-subscription */
export interface VerifySubscriptionRequest {
  plan_type: string;
  customer_email: string;
  customer_name: string;
  session_id?: string;
}
export interface VerifySubscriptionResponse {
  success: boolean;
  message: string;
}

/** GET /api/payments: the signed-in user's payments, newest first. */
export interface PaymentView {
  _id: string;
  plan_type: string;
  kind: 'checkout' | 'renewal';
  /** In currency units (6.99), not cents. */
  amount: number;
  currency: string;
  status: string;
  generations_granted: number;
  created_at: string;
}

/** POST /api/billing-portal */
export interface BillingPortalResponse {
  url: string;
}

/** POST /occlusion/suggest: the image's size in pixels and one box per text label, in fractions 0–1. */
export interface OcclusionSuggestion {
  width: number;
  height: number;
  boxes: { x: number; y: number; w: number; h: number; text: string }[];
}

/** POST /media: an uploaded image, its `url` what a card's `images` holds. */
export interface UploadedMedia {
  name: string;
  url: string;
  width: number;
  height: number;
  content_type: 'image/jpeg' | 'image/png' | 'image/webp' | 'image/gif';
}

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
  role: 'teacher' | 'student';
  created_at: string;
  teacher_name: string;
  /** The teacher's only; null for a student. */
  join_code: string | null;
  /** The teacher's only; null for a student. */
  student_count: number | null;
  decks: ClassDeck[];
}

/** A student of a class as the teacher sees them. */
export interface ClassStudent {
  user_id: string;
  name: string;
  email: string;
  joined_at: string;
}

/** GET /classes/{id}: the class, and for the teacher its students (null for a student). */
export interface ClassDetail extends ClassSummary {
  students: ClassStudent[] | null;
}

export interface ClassStudentProgress {
  user_id: string;
  name: string;
  email: string;
  /** Cards of the assigned decks the student has answered at least once. */
  cards_studied: number;
  reviews_7d: number;
  /** Share of "know" answers over the last 30 days, 0 to 1; null without reviews. */
  retention_30d: number | null;
  last_active: string | null;
}

export interface ClassCardProgress {
  /** The teacher's card. */
  card_id: string;
  question: string;
  reviews: number;
  /** "Don't know" answers by the class. */
  failed: number;
  /** failed / reviews, 0 to 1 (0 without reviews). */
  fail_rate: number;
}

/** GET /classes/{id}/progress: current members on assigned decks only; cards hardest first. */
export interface ClassProgress {
  students: ClassStudentProgress[];
  cards: ClassCardProgress[];
}
