import { type MessageKey, messages } from './messages';

/**
 * The texts only the server sends (input rules, error details, notices), apart from messages.ts because that module
 * is part of /login's JavaScript and the web app shows these only as the `detail` the server answered with. Fill
 * placeholders with `fillMessage` from messages.ts. A text the web app shows itself belongs in messages.ts.
 */
export const serverMessages = {
  // Accounts (server)
  invalidEmail: 'Please enter a valid email address.',
  passwordTooShort: 'Password must be at least 8 characters.',
  passwordTooLong: 'Password must be at most 1024 characters.',
  nameTooLong: 'Name must be at most 100 characters.',
  emailTaken: 'An account with this email already exists.',
  invalidCredentials: 'Incorrect email or password.',
  wrongPassword: 'That password is not right. Please try again; you are still signed in.',
  notAuthenticated: 'Not authenticated.',
  googleLoginUnavailable: 'Google sign-in is not configured on this server.',
  googleTokenInvalid: 'Google sign-in could not be verified. Please try again.',
  googleEmailUnverified: 'Your Google account email address is not verified.',
  googleAccountMismatch:
    'This email address belongs to an account that is linked to a different Google account. Sign in with that Google account or with your password.',
  googleLinkedPasswordRemoved:
    'Your Google account is now linked. The password this account had was removed, because nobody had confirmed this email address when it was set; set a new one on the Account page if you want to sign in with a password too.',
  recentGoogleSignInRequired: 'Please sign in with Google again, then delete the account within 10 minutes.',
  passwordRequired: 'Please enter your password to confirm.',
  // Input the server refuses whatever the route (server)
  nulCharacter: 'Text must not contain the NUL character (U+0000).',
  badUrl: 'This address is not valid.',
  urlTooLong: 'This address is too long.',
  malformedMultipart: 'The form data could not be read (it is malformed or incomplete).',
  tooManyDecks: 'You have reached the limit of {max} decks. Delete a deck to make room.',
  tooManyCardsInAccount: 'You have reached the limit of {max} cards in your account. Delete some cards to make room.',
  // Decks and cards (server)
  deckNameTooLong: 'Deck name must be at most 200 characters.',
  cardSideTooLong: 'Question and answer must be at most 20000 characters each.',
  tooManyCards: 'At most 1000 cards can be saved at once.',
  dailyLimitInvalid: 'Daily new card limit must be a whole number from 0 to 9999.',
  deckNotFound: 'Deck not found.',
  // Notes and card types (server and web app)
  noteNotFound: 'Note not found.',
  occlusionMediaRequired: 'Name the image to suggest masks for: the name POST /media gave it.',
  reviewResultInvalid: 'Result must be "pass" or "fail".',
  nothingToUndo: 'There is no review of this card to undo.',
  // POST /reviews/sync: the whole batch, then one answer's rejection
  syncReviewsMissing: 'Send the answers as "reviews", a list of at most 500.',
  syncTooManyReviews: 'Send at most 500 answers at a time.',
  syncReviewIdInvalid: 'Each answer needs an "id" that is a UUID.',
  reviewIdInvalid: '"review_id" must be a UUID.',
  syncReviewedAtInvalid: 'Each answer needs "reviewed_at", a date and time (ISO 8601).',
  syncTypedInvalid: 'The typed answer must be 1 to 1,000 characters.',
  syncVerdictInvalid: 'The verdict must be "correct", "close" or "wrong".',
  invalidPackage: 'This file could not be read as an Anki package or a text file of cards.',
  // Card management (server): paging, search, undo
  cardsPageLimitInvalid: 'Limit must be a whole number from 1 to 500.',
  cursorInvalid: 'This page cursor is not valid. Start again from the first page.',
  cursorWithoutLimit: 'A page cursor needs a limit.',
  searchQueryInvalid: 'Search text must be 1 to 200 characters.',
  searchLimitInvalid: 'Limit must be a whole number from 1 to 100.',
  // Sharing (server; the web app shows the 404 and 410 texts too)
  alreadyImported: 'You have already imported this deck.',
  ownDeckImport: 'This deck is already yours.',
  anonymousOwner: 'Anonymous',
  // Classes (server; the web app shows these texts too)
  ownClassJoin: 'You teach this class.',
  classFull: 'This class is full ({max} students).',
  tooManyClasses: 'You have reached the limit of {max} classes. Leave or delete a class to make room.',
  deckAlreadyAssigned: 'This deck is already assigned to the class.',
  classNameTooLong: 'Class name must be at most 100 characters.',
  memberNotFound: 'This student is not in the class.',
  // Feedback (server and web app)
  feedbackEmpty: 'Please enter your feedback.',
  feedbackTooLong: 'Feedback must be at most 5000 characters.',
  // HTTP
  badRequest: 'The request could not be understood.',
  malformedJson: 'The request body is not valid JSON.',
  unsupportedContentType: 'This content type is not accepted here.',
  bodyTooLarge: 'The request body is too large.',
  notFound: 'Not found.',
  rateLimited: 'Too many requests. Please wait a moment and try again.',
  internalError: 'Something went wrong on our side. Please try again.',
  serviceUnavailable: 'The service is starting or shutting down. Please try again in a moment.',
  validationFailed: 'Some fields are not valid.',
  // Billing
  unknownPlan: 'Please choose one of the available plans.',
  verifyFailed: 'Error verifying {plan} subscription/purchase',
  packPurchased: '{generations} generations were added to your account.',
  subscriptionActive: 'Your Monthly subscription is active: {generations} premium generations a month.',
  nothingToManage: 'There is no subscription or purchase to manage yet.',
  webhookSignatureInvalid: 'The webhook signature could not be verified.',
  paymentProviderUnavailable: 'The payment provider could not be reached. Please try again.',
  testModeNotice: 'Test mode: no real payment is made and nothing is charged.',
  checkoutNotFound: 'This checkout does not exist or has expired.',
  // Card generation
  fileUnreadable: 'Could not read this file. It may be damaged, protected by a password, or too large once unpacked.',
  noTextInFile: 'Could not read this file: no text was found in it.',
  serverBusy: 'The server is busy reading other files. Please try again in a minute.',
  generationInProgress: 'Your previous file is still being turned into cards. Please wait for it to finish.',
  aiUnavailable: 'The AI service could not generate flashcards right now. Please try again in a moment.',
  noCardsGenerated: 'No flashcards could be made from this content. Please try with more or clearer text.',
  // Quiz
  invalidDeckIdServer: 'Invalid deck ID format. Must be a valid MongoDB ObjectId.',
  quizModeInvalid: 'Mode must be one of flip, multiple_choice, true_false, matching or written.',
  quizAnswersInvalid: 'Send 1 to 500 answers, each with a card ID and whether it was answered correctly.',
  quizSendMissedInvalid: 'send_missed_to_review must be true or false.',
  /** A true-or-false statement: a card's question with an answer, its own or another card's. */
  quizStatement: '{question} — {answer}',
  // Typed answers
  typedAnswerInvalid: 'Type an answer of 1 to 1,000 characters.',
  verdictInvalid: 'Verdict must be "correct", "close" or "wrong".',
  // Exam date and read aloud (deck settings)
  examDateInvalid: 'Exam date must be a date written YYYY-MM-DD, or null to clear it.',
  examDateInPast: 'The exam date cannot be in the past. Choose today or a later day.',
  noExamDate: 'This deck has no exam date. Set one in the deck settings first.',
  ttsLanguageInvalid: 'Language must be a language tag such as "en", "fr-CA" or "zh-Hans", or null to detect it.',
  ttsAutoInvalid: 'Automatic reading must be true or false.',
  ttsInvalid: 'Read-aloud settings must be an object with question_lang, answer_lang and auto.',
  // Create page
  cardStyleInvalid: 'Card style must be basic, cloze or mixed.',
  // Time zone, statistics and personal scheduling (server; issue 12)
  invalidTimeZone: 'Unknown time zone. Use an IANA time zone name such as Europe/Paris.',
  statsDaysInvalid: 'Days must be a whole number from 1 to 366.',
  desiredRetentionInvalid: 'Desired retention must be a number from 0.70 to 0.97.',
  notEnoughReviews: 'At least {min} reviews are needed to personalize scheduling (you have {n}).',
  optimizeKeptDefaults:
    'Your reviews do not yet span enough days to fit personal parameters, so the default parameters are kept.',
  optimizeNotBetter:
    'Parameters fitted to your reviews predicted them no better than the defaults, so the defaults are kept.',
  optimizeTimeout: 'Personalizing scheduling took too long. Please try again later.',
  optimizeFailed: 'Personalizing scheduling failed. Your scheduling is unchanged; please try again later.',
  optimizeInProgress: 'Your scheduling is already being personalized. Please wait for it to finish.',
  optimizeBusy: 'Many learners are personalizing their scheduling right now. Please try again in a few minutes.',
  // Anki interop (docs/api.md)
  importInProgress: 'An import is already running for your account. Please wait for it to finish.',
  mediaQuotaExceeded: 'This import would store {size} of images, more than the {max} your account has left for images.',
  importUnexpectedSchema:
    'This Anki package holds database objects Anki never writes (views, triggers or unknown tables), so it was not read.',
  importTooSlow: 'Reading this file took too long, so it was not imported.',
  importTooMuchMemory: 'Reading this file needed too much memory, so it was not imported.',
  importTemplateTooComplex: 'A card template or cloze in this package is too deeply nested or too large to show.',
  importImagesTooLarge: '{count} images were larger than {max} (or over {pixels} pixels) and were left out.',
  importFileTooLarge: 'File is too large. Maximum import size is {size}.',
  importUnsupportedType:
    'Unsupported file type. Please upload an Anki package (.apkg, .colpkg) or a .txt, .csv or .tsv file.',
  importNoFile: 'Please choose a file to import.',
  mediaNotFound: 'Image not found.',
  importSoundsDropped: '{count} sounds or videos were left out: only images are kept.',
  importImagesMissing: '{count} images were not in the package (or were not images) and were left out.',
  importCardsTooLong: '{count} cards were longer than {max} characters on a side and were skipped.',
  importOcclusionPolygons:
    '{count} polygon masks of Image Occlusion notes were imported as the rectangles around them.',
  importOcclusionSkipped:
    '{count} Image Occlusion notes were skipped: no image in the package, no readable mask, or more than {max} masks.',
  importLineSkipped: 'Line {line} skipped: {reason}',
  importLinesSkippedMore: '{count} more lines were skipped.',
  importLineEmptyFront: 'the front is empty.',
  importLineEmptyBack: 'the back is empty.',
  importLineRepeated: 'it repeats an earlier line.',
  importLineGuidTooLong: 'its guid is longer than Anki writes.',
  importLineTooLong: 'a card would be longer than {max} characters on a side.',
  // Images on cards and media (issue 34).
  invalidImageType: 'Invalid file type. Please upload a JPG, PNG, WebP or GIF image.',
  imageUnreadable:
    'Could not read this image. It may be damaged, too large in pixels, have too many frames, or claim a rotation that does not exist.',
  imageNoFile: 'Please choose an image to upload.',
  imageTooLarge: 'Image is too large. Maximum image size is {size}.',
  mediaUploadQuotaExceeded: 'This image would store {size}, more than the {max} your account has left for images.',
  cardImagesTooMany: 'A card can show at most {max} images.',
  cardImageNotYours: 'An image of this card was not found among your images.',
  cardImageInvalid: 'Each image must be the address of an image you uploaded (/media/…).',
  // Offline review (installable app, answer queue, sync)
  syncBaseInvalid: 'The base must be a date and time (ISO 8601) or null.',
  // Sources and duplicates of AI cards (issue 36).
  cardSourceInvalid:
    'A card source is { document?, page?, slide?, quote }: a quote of 1 to 2,000 characters, a page or slide from 1.',
} as const;

export type ServerMessageKey = keyof typeof serverMessages;

/** A key of either table: the error codes (errors.ts) and the server's error factories name texts of both. */
export type AnyMessageKey = MessageKey | ServerMessageKey;

/** The text of a key of messages.ts or of this module: the one lookup by key. */
export function messageText(key: AnyMessageKey): string {
  return Object.hasOwn(serverMessages, key) ? serverMessages[key as ServerMessageKey] : messages[key as MessageKey];
}
