/**
 * Every message a person can see, in one place. Texts the product specification quotes are kept word for word;
 * the rest are ours. The server sends them as `detail`, the web app shows them.
 */
export const messages = {
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
  currentPasswordRequired: 'Please enter your current password.',
  passwordRequired: 'Please enter your password to confirm.',
  passwordChanged: 'Password changed. You were signed out everywhere else.',
  signedOutEverywhere: 'You were signed out on every device.',
  accountDeleted: 'Your account and all its data were deleted.',
  securityHeading: 'Sign-in and security',
  changePasswordHeading: 'Change password',
  changePasswordFailed: 'The password could not be changed.',
  signOutEverywhereButton: 'Sign out everywhere',
  signOutEverywhereHelp: 'Ends every session of this account, on every device, this one included.',
  signOutEverywhereFailed: 'Could not sign out everywhere. Please try again.',
  deleteAccountHeading: 'Delete account',
  deleteAccountHelp:
    'Deletes your account, decks, cards, review history, shares and uploaded media for good. Payment records are kept, without your name or email, as bookkeeping law requires. Accounts that only use Google: sign in with Google again first, then delete within 10 minutes.',
  deleteAccountConfirm: 'Delete your account and all its data? This cannot be undone.',
  deleteAccountFailed: 'The account could not be deleted.',
  newPasswordsDiffer: 'The two new passwords are not the same.',

  // Input the server refuses whatever the route (server)
  nulCharacter: 'Text must not contain the NUL character (U+0000).',
  badUrl: 'This address is not valid.',
  urlTooLong: 'This address is too long.',
  malformedMultipart: 'The form data could not be read (it is malformed or incomplete).',
  tooManyDecks: 'You have reached the limit of {max} decks. Delete a deck to make room.',
  tooManyCardsInAccount: 'You have reached the limit of {max} cards in your account. Delete some cards to make room.',

  // Accounts (web app fallbacks)
  loginFailed: 'Login failed',
  signupFailed: 'Signup failed',
  googleLoginFailed: 'Google login failed',
  googleAuthFailed: 'Google authentication failed. Please try again.',

  // Web app (quoted texts word for word)
  loading: 'Loading...',
  figurePending: '–',
  loginPageTitle: 'Login to the product | AI-Powered Flashcard Application',
  signupPageTitle: 'Sign Up for the product | Create Flashcards Instantly',
  googleButtonSignIn: 'Continue with Google to sign in',
  googleButtonSignUp: 'Continue with Google to create an account',
  bestFor: 'Best for?',
  pricingHeading: 'Start completely free!',
  pricingSubheading: 'Then pay only when you need more.',
  getStarted: 'Get Started',
  tryFree: 'Try free',
  footerLine: 'Join thousands of students, teachers and language learners...',
  invalidShareLink: 'Invalid share link.',
  sharedDeckLoadFailed: 'Failed to load shared deck information.',
  importFailed: 'Failed to import deck. You might already have this deck or the owner may have deleted it.',
  privacyLastUpdated: '31.03.2025',
  unexpectedError: 'Unexpected Application Error!',
  // Web app texts the spec leaves to us
  shareLoginPrompt: 'Log in or sign up to import the shared deck.',
  importSucceeded: 'Deck "{name}" imported! Taking you to your decks...',
  sharePreviewHeading: 'Cards in this deck',
  sharePreviewMore: 'The first {shown} of {total} cards. Import the deck to study them all.',
  sharePreviewEmpty: 'This deck has no cards yet.',
  shareShowAnswer: 'Show answer',
  shareShowQuestion: 'Show question',
  shareCardPosition: 'Card {n} of {total}',
  chunkLoadFailed: 'This part of the app could not be loaded. Please check your connection and reload the page.',
  cookieBannerText:
    'We use local storage to keep you signed in and to remember your choices. With your consent we also collect anonymous usage statistics to improve the product.',
  cookieBannerLine: 'Allow analytics?',
  cookieBannerLink: 'Details',

  // Decks and cards (server)
  deckNameEmpty: 'Deck name cannot be empty',
  deckNameTooLong: 'Deck name must be at most 200 characters.',
  cardSidesEmpty: 'Question and answer cannot be empty',
  cardSideTooLong: 'Question and answer must be at most 20000 characters each.',
  noCardsSelected: 'Please select at least one card to save',
  tooManyCards: 'At most 1000 cards can be saved at once.',
  noDeckSelected: 'Please select a deck to save cards to',
  dailyLimitInvalid: 'Daily new card limit must be a whole number from 0 to 9999.',
  deckNotFound: 'Deck not found.',
  cardNotFound: 'Card not found.',
  cardIdMissing: 'Card ID is missing',
  reviewResultInvalid: 'Result must be "pass" or "fail".',
  reviewConflict: 'This card was being reviewed at the same time elsewhere. Please try again.',
  nothingToUndo: 'There is no review of this card to undo.',
  invalidPackage: 'This file could not be read as an Anki package or a text file of cards.',

  // Card management (server): paging, search, undo
  cardsPageLimitInvalid: 'Limit must be a whole number from 1 to 500.',
  cursorInvalid: 'This page cursor is not valid. Start again from the first page.',
  cursorWithoutLimit: 'A page cursor needs a limit.',
  searchQueryInvalid: 'Search text must be 1 to 200 characters.',
  searchLimitInvalid: 'Limit must be a whole number from 1 to 100.',

  // Sharing (server; the web app shows the 404 and 410 texts too)
  shareNotFound: 'This shared deck could not be found or may have been deleted.',
  shareExpired: 'This share link has expired.',
  alreadyImported: 'You have already imported this deck.',
  ownDeckImport: 'This deck is already yours.',
  anonymousOwner: 'Anonymous',

  // Feedback (server and web app)
  feedbackEmpty: 'Please enter your feedback.',
  feedbackTooLong: 'Feedback must be at most 5000 characters.',
  feedbackThanks: 'Thank you for your feedback!',
  feedbackFailed: 'There was an error sending your feedback. Please try again.',

  // Next review time (review page: 'No cards to review!' and when the next card is due)
  noCardsToReview: 'No cards to review!',
  reviewCompleted: 'Review completed!',
  nextDueVerySoon: 'very soon',

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
  requestTimeout: 'Request timeout: The server took too long to respond',

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
  fileTooLarge: 'File is too large. Maximum file size is 10MB.',
  textTooLong: 'Text is too long. Maximum length is 10000 characters.',
  invalidFileType: 'Invalid file type. Please upload PDF, TXT, DOCX, PPTX, JPG, or PNG.',
  invalidFileTypePptx: 'Invalid file type or unknown MIME type...',
  emptyInput: 'Please enter some text or upload a file to generate flashcards',
  fileUnreadable: 'Could not read this file. It may be damaged, protected by a password, or too large once unpacked.',
  noTextInFile: 'Could not read this file: no text was found in it.',
  serverBusy: 'The server is busy reading other files. Please try again in a minute.',
  generationInProgress: 'Your previous file is still being turned into cards. Please wait for it to finish.',
  insufficientQuota: 'Insufficient quota. Please upgrade your plan or purchase more generations.',
  generationTimeout:
    'Request timed out. The input might be too large or the server is busy. Please try with a smaller text or try again later.',
  generationFailed: 'Failed to generate flashcards. Please try again.',
  aiUnavailable: 'The AI service could not generate flashcards right now. Please try again in a moment.',
  noResponse: 'No response from server. Please check your connection and try again.',
  noCardsGenerated: 'No flashcards could be made from this content. Please try with more or clearer text.',

  // Quiz
  invalidDeckIdServer: 'Invalid deck ID format. Must be a valid MongoDB ObjectId.',
  invalidDeckId: 'Invalid deck ID format. Please select a valid deck.',
  selectDeck: 'Please select a deck.',
  noDecksFound: 'No decks found. Please create a deck first.',
  quizEmpty: "No quiz cards could be generated. The deck might be empty or the AI couldn't process the content.",
  quizFailed: 'Failed to generate quiz. Please try again.',

  // Quiz and Account screens (web app)
  quizCardAdded: 'Card added successfully!',
  quizSaveNoDeck: 'Cannot save card. No deck selected or no quiz cards available.',
  quizSaveInvalidCard: 'Cannot save card. Invalid card data.',
  quizSaveFailed: 'Failed to save card. Please try again.',
  accountCheckoutFailed: 'Could not start the checkout. Please try again.',
  accountPortalFailed: 'Could not open the subscription management page. Please try again.',
  accountPaymentSuccess: 'Payment successful! Thank you for your purchase.',

  // Create page
  generationServerError: 'Server error: {detail}',
  quotaShort: 'Need {need}, Have {have}.',
  generationNote: 'Generation may take up to 2 minutes...',
  generationStarting: 'Starting…',
  generationReadingPage: 'Reading page {done} of {total}…',
  generationReadingSlide: 'Reading slide {done} of {total}…',
  generationReadingFile: 'Reading your file…',
  generationWritingCards: 'Writing cards… {count} so far',
  generationCancelled: 'Generation cancelled. The cards that arrived are kept.',
  decksLoadFailed: 'Failed to load decks. Please try again later.',
  deckCreateFailed: 'Failed to create deck. Please try again.',
  cardsSaveFailed: 'Failed to save flashcards. Please try again.',
  cardsSaved: '{count} cards saved to "{deck}".',
  cardSaved: '1 card saved to "{deck}".',
  studyTheseCards: 'Study these {count} cards now',
  studyThisCard: 'Study this card now',
  cancelNewDeck: 'Cancel new deck',

  // Review page (quoted texts word for word)
  reviewQueueLoadFailed: 'Failed to load cards for review. Please try again later.',
  reviewUpdateFailed: 'Failed to update card review. Please try again.',
  reviewDeckDeleteFailed: 'Failed to delete deck. Please try again.',
  reviewDeckCardsLoadFailed: 'Failed to load all cards for this deck.',
  reviewDailyLimitSaveFailed: 'Failed to save daily limit. Please try again.',
  reviewCardUpdateFailed: 'Failed to update card. Please try again.',
  reviewCardDeleteFailed: 'Failed to delete card. Please try again.',
  reviewShareFailed: 'Failed to generate share link. Please try again.',
  reviewExportFailed: 'Failed to fetch cards for export. Please try again.',
  reviewCopyFailed: 'Failed to copy link to clipboard.',
  reviewCopied: 'Copied!',
  // Review page texts the spec leaves to us
  reviewNextDue: 'Next cards available {when}.',
  reviewNothingScheduled: 'No cards are scheduled yet. Add cards on the Create page.',
  reviewNoDecks: 'You have no decks yet. Create one above, or generate cards on the Create page.',
  reviewDailyLimitSaved: 'Daily limit saved.',
  reviewGeneratingLink: 'Generating share link...',
  reviewLinkExpires: 'The link works until {date}.',
  reviewDeleteDeckConfirm: 'Delete the deck "{name}" and its {count} cards? This cannot be undone.',
  reviewDeleteCardConfirm: 'Delete this card? This cannot be undone.',
  reviewDeckEmpty: 'This deck has no cards yet.',
  deckCountsLabel: '{new} new, {learning} learning, {due} due',
  deckCountNew: 'New',
  deckCountLearning: 'Learning',
  deckCountDue: 'Due',
  deckNameLabel: 'Deck name',
  deckSettingsSaved: 'Deck settings saved.',
  desiredRetentionPercentInvalid: 'Desired retention must be a whole number from 70 to 97.',
  reviewStatsLoadFailed: 'Failed to load the statistics of this deck.',
  reviewExported: 'Downloaded {file}.',
  // Card management (web app)
  addCard: 'Add Card',
  addCardSaved: 'Card added to "{deck}". Add the next one.',
  addCardFailed: 'Failed to add the card. Please try again.',
  addCardHint: 'Ctrl+Enter saves and keeps this form open for the next card.',
  cardPreviewEmpty: 'The preview shows here as you type.',
  searchCardsPlaceholder: 'Search cards',
  searchAllDecks: 'Search all decks',
  searchNoResults: 'No cards match "{q}".',
  searchFailed: 'Search failed. Please try again.',
  cardsLoadingMore: 'Loading more cards...',
  undoAnswer: 'Undo',
  undoFailed: 'Could not undo the last answer. Please try again.',
  undoNothing: 'There is no answer to undo.',
  discardCardEditConfirm: 'Discard what you typed in this card?',
  keepEditing: 'Keep editing',
  discardChanges: 'Discard changes',
  searchHitPrefix: 'Edit card:',

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
  optimizeBusy: 'Many learners are personalizing their scheduling right now. Please try again in a few minutes.',

  desiredRetentionHint:
    'How many cards you want to still remember when they come back, from 70 to 97. Higher means more reviews.',

  // Statistics page (web app)
  statsTitle: 'Statistics',
  statsLoadFailed: 'Failed to load your statistics. Please try again later.',
  statsAllDecks: 'All decks',
  statsStreak: '{n}-day streak',
  statsStreakSentence: 'You have studied {n} days in a row.',
  statsNoStreak: 'No streak yet: review a card today to start one.',
  statsRetentionNone: 'No long-term reviews in the last 30 days yet.',
  statsRetention: '{percent}% of {n} long-term reviews remembered in the last 30 days.',
  personalizeTitle: 'Personalize scheduling',
  personalizeIntro:
    'Your reviews can teach the scheduler how fast you in particular forget, so that cards come back when you are about to forget them.',
  personalizeCount: 'You have {n} reviews. Personalizing needs at least {min}.',
  personalizeUses: 'Personalizing will use all {n} of your reviews.',
  personalizeActive: 'Your scheduling is personalized (fitted on {n} reviews on {date}); {since} reviews since.',
  personalizeDefault: 'Your scheduling uses the default parameters, fitted on many learners.',
  personalizeRun: 'Personalize now',
  personalizeRunning: 'Fitting to your reviews...',
  personalizeReset: 'Go back to the defaults',
  personalizeResult:
    'Prediction error on your reviews: {before} with the defaults, {after} with your own parameters ({change}).',
  personalizeBetter: '{percent}% better',
  personalizeNotBetter: 'no better, so expect little change',
  personalizeFailed: 'Personalizing failed. Please try again later.',
  // Anki interop (docs/api.md)
  importFileTooLarge: 'File is too large. Maximum import size is {size}.',
  importUnsupportedType:
    'Unsupported file type. Please upload an Anki package (.apkg, .colpkg) or a .txt, .csv or .tsv file.',
  importNoFile: 'Please choose a file to import.',
  mediaNotFound: 'Image not found.',
  importSoundsDropped: '{count} sounds or videos were left out: only images are kept.',
  importImagesMissing: '{count} images were not in the package (or were not images) and were left out.',
  importCardsTooLong: '{count} cards were longer than {max} characters on a side and were skipped.',
  importTitle: 'Import',
  importIntro: 'Bring cards from Anki (.apkg, .colpkg), an Anki text export, a CSV or TSV file, or a Quizlet export.',
  importChooseFile: 'File to import',
  importDeckName: 'Deck name for a text or CSV file (optional)',
  importSubmit: 'Import',
  importRunning: 'Importing...',
  importDone: 'Imported {cards} cards into {decks} decks; {skipped} skipped.',
  importFileFailed: 'Import failed. Please try again.',
  exportApkg: 'Export Anki package (.apkg)',
} as const;

/** Fills `{name}` placeholders of a message. */
export function fillMessage(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

export type MessageKey = keyof typeof messages;
