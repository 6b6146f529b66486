import type { AnyMessageKey } from './server-messages';

/**
 * Every error code the API answers with, its HTTP status and the message key of its usual `detail`
 * (docs/api.md, "Errors"). The codes are a closed union: a typo in a code is a type error on both sides.
 *
 * To add a code: add a row here (snake_case, its status, a key of `messages` or `serverMessages`), then use the factory the server
 * derives from it (`errors.yourCode()` in apps/server/src/http/app-error.ts).
 */
export const errorCodes = {
  // 400
  bad_request: { status: 400, message: 'badRequest' },
  invalid_signature: { status: 400, message: 'webhookSignatureInvalid' },
  // 414
  uri_too_long: { status: 414, message: 'urlTooLong' },
  // 401
  not_authenticated: { status: 401, message: 'notAuthenticated' },
  invalid_credentials: { status: 401, message: 'invalidCredentials' },
  invalid_google_token: { status: 401, message: 'googleTokenInvalid' },
  google_email_unverified: { status: 401, message: 'googleEmailUnverified' },
  // 402
  insufficient_quota: { status: 402, message: 'insufficientQuota' },
  // 403
  recent_sign_in_required: { status: 403, message: 'recentGoogleSignInRequired' },
  wrong_password: { status: 403, message: 'wrongPassword' },
  linked_deck_read_only: { status: 403, message: 'linkedDeckReadOnly' },
  // 404
  not_found: { status: 404, message: 'notFound' },
  deck_not_found: { status: 404, message: 'deckNotFound' },
  card_not_found: { status: 404, message: 'cardNotFound' },
  share_not_found: { status: 404, message: 'shareNotFound' },
  checkout_not_found: { status: 404, message: 'checkoutNotFound' },
  no_billing_account: { status: 404, message: 'nothingToManage' },
  media_not_found: { status: 404, message: 'mediaNotFound' },
  note_not_found: { status: 404, message: 'noteNotFound' },
  no_exam_date: { status: 404, message: 'noExamDate' },
  class_not_found: { status: 404, message: 'classNotFound' },
  member_not_found: { status: 404, message: 'memberNotFound' },
  // 409
  email_taken: { status: 409, message: 'emailTaken' },
  google_account_mismatch: { status: 409, message: 'googleAccountMismatch' },
  already_imported: { status: 409, message: 'alreadyImported' },
  review_conflict: { status: 409, message: 'reviewConflict' },
  nothing_to_undo: { status: 409, message: 'nothingToUndo' },
  review_id_taken: { status: 409, message: 'reviewIdTaken' },
  already_member: { status: 409, message: 'alreadyMember' },
  class_full: { status: 409, message: 'classFull' },
  deck_already_assigned: { status: 409, message: 'deckAlreadyAssigned' },
  // 410
  share_expired: { status: 410, message: 'shareExpired' },
  // 413
  payload_too_large: { status: 413, message: 'bodyTooLarge' },
  file_too_large: { status: 413, message: 'fileTooLarge' },
  text_too_long: { status: 413, message: 'textTooLong' },
  // 415
  unsupported_file_type: { status: 415, message: 'invalidFileType' },
  // 422
  validation_failed: { status: 422, message: 'validationFailed' },
  invalid_deck_id: { status: 422, message: 'invalidDeckIdServer' },
  empty_input: { status: 422, message: 'emptyInput' },
  file_unreadable: { status: 422, message: 'fileUnreadable' },
  no_cards_generated: { status: 422, message: 'noCardsGenerated' },
  empty_deck: { status: 422, message: 'quizEmpty' },
  no_quiz_cards: { status: 422, message: 'quizEmpty' },
  not_enough_cards: { status: 422, message: 'notEnoughCards' },
  invalid_time_zone: { status: 422, message: 'invalidTimeZone' },
  not_enough_reviews: { status: 422, message: 'notEnoughReviews' },
  invalid_package: { status: 422, message: 'invalidPackage' },
  too_many_decks: { status: 422, message: 'tooManyDecks' },
  too_many_cards: { status: 422, message: 'tooManyCardsInAccount' },
  too_many_classes: { status: 422, message: 'tooManyClasses' },
  media_quota_exceeded: { status: 422, message: 'mediaQuotaExceeded' },
  edit_note_instead: { status: 422, message: 'editNoteInstead' },
  review_in_future: { status: 422, message: 'reviewInFuture' },
  review_too_old: { status: 422, message: 'reviewTooOld' },
  exam_date_in_past: { status: 422, message: 'examDateInPast' },
  invalid_language_tag: { status: 422, message: 'ttsLanguageInvalid' },
  // 429
  rate_limited: { status: 429, message: 'rateLimited' },
  generation_in_progress: { status: 429, message: 'generationInProgress' },
  import_in_progress: { status: 429, message: 'importInProgress' },
  optimize_in_progress: { status: 429, message: 'optimizeInProgress' },
  // 5xx
  internal_error: { status: 500, message: 'internalError' },
  google_login_unavailable: { status: 501, message: 'googleLoginUnavailable' },
  ai_unavailable: { status: 502, message: 'aiUnavailable' },
  payment_unavailable: { status: 502, message: 'paymentProviderUnavailable' },
  unavailable: { status: 503, message: 'serviceUnavailable' },
  busy: { status: 503, message: 'serverBusy' },
  optimize_busy: { status: 503, message: 'optimizeBusy' },
  optimize_timeout: { status: 503, message: 'optimizeTimeout' },
  optimize_failed: { status: 503, message: 'optimizeFailed' },
  ai_timeout: { status: 504, message: 'generationTimeout' },
} as const satisfies Record<string, { status: number; message: AnyMessageKey }>;

/** A code the API may answer with. */
export type ErrorCode = keyof typeof errorCodes;

/** The codes `POST /reviews/sync` rejects one answer with; the web app shows their texts, so they are in messages.ts. */
export const syncRejectionCodes = [
  'card_not_found',
  'review_id_taken',
  'review_conflict',
  'review_in_future',
  'review_too_old',
] as const satisfies readonly ErrorCode[];

export type SyncRejectionCode = (typeof syncRejectionCodes)[number];

/** Whether a string from the wire is one of our codes. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorCodes, value);
}
