import type { CardType, NoteType } from '@flashcards/shared/notes';
import type { Generated } from 'kysely';

/**
 * Table types for Kysely. Conventions (docs/ARCHITECTURE.md): ids are 24-hex text, times are integer
 * epoch milliseconds, booleans are 0/1 integers, so the same rows work on SQLite and PostgreSQL.
 */

export interface UsersTable {
  id: string;
  /** Trimmed and lower-cased; unique. */
  email: string;
  name: string;
  /** argon2id PHC string; null for accounts that only sign in with Google. */
  password_hash: string | null;
  /** Google's stable subject id, once the account has signed in with Google. */
  google_sub: string | null;
  created_at: number;
  updated_at: number;
  /** The UTC month ("2026-11") that free_used counts; another month means nothing used yet. */
  quota_period: Generated<string>;
  free_used: Generated<number>;
  /** Monthly premium generations granted by billing, and how many of them are used. */
  premium_quota: Generated<number>;
  premium_used: Generated<number>;
  /** Generations bought in packs, left to use. */
  purchased_generations: Generated<number>;
  /** How the latest reservation was split (written and returned by the same UPDATE). */
  last_draw_premium: Generated<number>;
  last_draw_free: Generated<number>;
  last_draw_purchased: Generated<number>;
  /** 'monthly' once subscribed, else the last pack bought, else null. */
  plan_type: string | null;
  subscription_id: string | null;
  /** The payment provider's customer id (Stripe), for the billing portal. */
  billing_customer_id: string | null;
  /** End of the paid subscription period (epoch ms); premium access lasts until then. */
  subscription_end_date: number | null;
  subscription_cancel_at_period_end: Generated<number>;
  /** Tokens carry the version they were issued under; bumping it (sign out everywhere) ends them all. */
  token_version: Generated<number>;
  /** Epoch ms of the latest Google sign-in (deleting a Google-only account needs a recent one). */
  google_signed_in_at: number | null;
  /** IANA time zone (migration 0007); the study day runs 04:00 to 04:00 there. */
  time_zone: Generated<string>;
  /** FSRS parameters fitted to this user's review log (JSON number array), null for the defaults. */
  fsrs_parameters: string | null;
  fsrs_optimized_at: number | null;
  fsrs_reviews_used: Generated<number>;
  fsrs_log_loss_default: number | null;
  fsrs_log_loss_personal: number | null;
  /** Secret in the names of the user's media (migration 0008); made on the first import. */
  media_secret: Generated<string | null>;
  /** Classes the user has joined and not left (migration 0020); may overcount, never undercount. */
  class_memberships: Generated<number>;
}

/** ts-fsrs State: 0 New, 1 Learning, 2 Review (api status "due"), 3 Relearning. */
export type FsrsState = 0 | 1 | 2 | 3;

export interface DecksTable {
  id: string;
  user_id: string;
  name: string;
  daily_new_card_limit: number;
  created_at: number;
  updated_at: number;
  /**
   * Counts of the deck's cards by kind (migration 0003): state 0; states 1 and 3; state 2. Kept by cards.repo in the
   * transaction of every card insert, delete and review; the statistics and card counts read them.
   */
  new_cards: Generated<number>;
  learning_cards: Generated<number>;
  review_cards: Generated<number>;
  /** FSRS desired retention for this deck's reviews, 0.70 to 0.97 (migration 0007). */
  desired_retention: Generated<number>;
  /** The exam day, "YYYY-MM-DD" in the owner's time zone, or null (migration 0015). */
  exam_date: string | null;
  /** Read aloud: each side's BCP-47 language (null: detected from the cards) and automatic reading, 0/1. */
  tts_question_lang: string | null;
  tts_answer_lang: string | null;
  tts_auto: Generated<number>;
  /** Counts edits of the deck's notes and cards (migration 0020): a linked copy behind it syncs lazily. */
  content_version: Generated<number>;
  /** A linked copy: the source's content_version it last synced (null before its first sync). */
  synced_version: Generated<number | null>;
  /** A linked copy: the class it came from. */
  class_id: Generated<string | null>;
  /** A linked copy: the teacher's deck; null for an ordinary deck (or once unlinked). */
  source_deck_id: Generated<string | null>;
}

export interface CardsTable {
  id: string;
  user_id: string;
  deck_id: string;
  question: string;
  answer: string;
  state: FsrsState;
  /** Epoch ms when the card is next due (for a new card: its creation time). */
  due: number;
  stability: number;
  difficulty: number;
  scheduled_days: number;
  learning_steps: number;
  reps: number;
  lapses: number;
  last_review: number | null;
  /** When the card was first reviewed (left "new"); the daily new-card limit counts these per day. */
  first_reviewed_at: number | null;
  created_at: number;
  updated_at: number;
  /** The note the card belongs to (migration 0012); a card made before notes is a basic note with its own id. */
  note_id: string;
  /** Which card of its note: `basic` (ord 0), `reverse` (ord 1), `cloze` (ord = number − 1), `occlusion`. */
  card_type: Generated<CardType>;
  ord: Generated<number>;
  /** Epoch ms until which the card stays out of the queue: a sibling of it was answered this study day. */
  buried_until: number | null;
  /** An occlusion card's image and masks (migration 0019): JSON of the API's `occlusion`; null for other cards. */
  occlusion: Generated<string | null>;
  /** JSON of where an AI card came from (migration 0016, CardSource); null for cards made by hand or imported. */
  source: Generated<string | null>;
  /** In a linked copy: the teacher's card this one copies (migration 0020). */
  source_card_id: Generated<string | null>;
}

/** What the learner wrote (migration 0012): the type and its fields as JSON text; its cards are what review shows. */
export interface NotesTable {
  id: string;
  user_id: string;
  deck_id: string;
  type: NoteType;
  /** JSON of the type's fields (packages/shared/src/notes.ts). */
  fields: string;
  created_at: number;
  updated_at: number;
  /** In a linked copy: the teacher's note this one copies (migration 0020). */
  source_note_id: Generated<string | null>;
}

/** Append-only. */
export interface ReviewLogsTable {
  id: string;
  user_id: string;
  deck_id: string;
  card_id: string;
  reviewed_at: number;
  /** ts-fsrs Rating: 1 Again ("fail"), 3 Good ("pass"). */
  rating: number;
  state_before: FsrsState;
  state_after: FsrsState;
  due_before: number;
  due_after: number;
  stability: number;
  difficulty: number;
  scheduled_days: number;
  elapsed_days: number;
  /** When this answer was taken back (POST /cards/{id}/undo-review); counts and statistics skip such rows. */
  undone_at: number | null;
  /** The card's scheduling fields before this review (JSON of CardSnapshot), which undo restores. */
  card_before: string | null;
  /** What the learner typed before the card flipped (POST /cards/review `typed`; migration 0013), or null. */
  typed: string | null;
  /** The grader's verdict on `typed` ("correct", "close" or "wrong"), or null. */
  verdict: 'correct' | 'close' | 'wrong' | null;
}

/** The review log rolled up per user, deck and quarter hour (migration 0007); kept with every review. */
export interface ReviewStatsTable {
  user_id: string;
  deck_id: string;
  /** floor(reviewed_at / 900000). */
  bucket: number;
  reviews: number;
  passed: number;
  new_cards: number;
  mature_reviews: number;
  mature_passed: number;
}

export interface SharesTable {
  id: string;
  /** The owner who shared the deck. */
  user_id: string;
  deck_id: string;
  /** URL-safe, at least 64 bits of randomness. */
  code: string;
  created_at: number;
  expires_at: number;
}

export interface ShareImportsTable {
  id: string;
  /** The user who imported. */
  user_id: string;
  share_id: string;
  /** The importer's copy. */
  deck_id: string;
  created_at: number;
}

export interface FeedbackTable {
  id: string;
  user_id: string | null;
  email: string | null;
  feedback: string;
  created_at: number;
}

export interface PaymentsTable {
  id: string;
  user_id: string;
  provider: 'stripe' | 'test';
  provider_payment_id: string;
  kind: 'checkout' | 'renewal';
  plan_type: string;
  amount_cents: number;
  currency: string;
  status: string;
  generations_granted: number;
  provider_event_id: string | null;
  created_at: number;
}

/** Payment records of deleted accounts, kept as bookkeeping law requires, with nothing that names the person. */
export interface RetainedPaymentsTable {
  id: string;
  provider: string;
  provider_payment_id: string;
  kind: string;
  plan_type: string;
  amount_cents: number;
  currency: string;
  status: string;
  paid_at: number;
  account_deleted_at: number;
}

export interface CheckoutSessionsTable {
  id: string;
  user_id: string;
  provider: 'stripe' | 'test';
  provider_session_id: string;
  plan_type: string;
  created_at: number;
}

export interface TestCheckoutSessionsTable {
  id: string;
  user_id: string;
  plan_type: string;
  amount_cents: number;
  currency: string;
  status: 'open' | 'paid';
  success_url: string;
  cancel_url: string;
  subscription_id: string | null;
  created_at: number;
  paid_at: number | null;
}

export interface TestSubscriptionsTable {
  id: string;
  user_id: string;
  current_period_end: number;
  cancel_at_period_end: number;
  status: 'active' | 'canceled';
  created_at: number;
}

/** An image from an import (migration 0008): one row per user and content. */
export interface MediaTable {
  id: string;
  user_id: string;
  /** Unguessable: a hash of the content and the user's media secret, plus the extension. */
  name: string;
  sha256: string;
  content_type: string;
  size: number;
  data: Buffer;
  created_at: number;
  /** Where the bytes are (migration 0014): media_chunks, or the S3 object named by sha256. */
  store: Generated<'database' | 's3'>;
}

/** An image's bytes, MEDIA_CHUNK_BYTES per row in `seq` order (migration 0011); media.data is empty since. */
export interface MediaChunksTable {
  media_id: string;
  seq: number;
  data: Buffer;
}

/** Which card shows which image; deleting the last row of an image deletes the image (a trigger). */
export interface CardMediaTable {
  card_id: string;
  media_id: string;
  user_id: string;
  /** The image's place in the card's `images` (migration 0014); null for an image its text shows. */
  position: Generated<number | null>;
}

/** Content hashes of deleted S3 images whose objects the media sweep deletes (migration 0014). */
export interface MediaReleasedTable {
  sha256: string;
}

/** Anki note guids a user has imported, with the deck they went into. */
export interface ImportedNotesTable {
  user_id: string;
  guid: string;
  deck_id: string;
  created_at: number;
}

export interface ClassesTable {
  id: string;
  teacher_id: string;
  name: string;
  /** Short, unambiguous letters; unique. */
  join_code: string;
  created_at: number;
}

export interface ClassMembersTable {
  class_id: string;
  user_id: string;
  joined_at: number;
}

export interface ClassDecksTable {
  class_id: string;
  /** The teacher's deck. */
  deck_id: string;
  assigned_at: number;
}

/** Class progress's rollup (migration 0021): a teacher's card's reviews and "don't know" answers in one class. */
export interface ClassCardStatsTable {
  /** The teacher's card. */
  card_id: string;
  class_id: string;
  reviews: number;
  failed: number;
}

export interface Database {
  users: UsersTable;
  decks: DecksTable;
  cards: CardsTable;
  notes: NotesTable;
  review_logs: ReviewLogsTable;
  review_stats: ReviewStatsTable;
  shares: SharesTable;
  share_imports: ShareImportsTable;
  feedback: FeedbackTable;
  payments: PaymentsTable;
  retained_payments: RetainedPaymentsTable;
  checkout_sessions: CheckoutSessionsTable;
  test_checkout_sessions: TestCheckoutSessionsTable;
  test_subscriptions: TestSubscriptionsTable;
  media: MediaTable;
  card_media: CardMediaTable;
  media_chunks: MediaChunksTable;
  media_released: MediaReleasedTable;
  imported_notes: ImportedNotesTable;
  classes: ClassesTable;
  class_members: ClassMembersTable;
  class_decks: ClassDecksTable;
  class_card_stats: ClassCardStatsTable;
}
