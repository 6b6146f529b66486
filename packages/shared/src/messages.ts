/**
 * Every message a person can see, in one place. Texts quoted by product-spec.md are copied word for word;
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
  notAuthenticated: 'Not authenticated.',
  googleLoginUnavailable: 'Google sign-in is not configured on this server.',
  googleTokenInvalid: 'Google sign-in could not be verified. Please try again.',
  googleEmailUnverified: 'Your Google account email address is not verified.',

  // Accounts (web app fallbacks, product-spec.md section 8)
  loginFailed: 'Login failed',
  signupFailed: 'Signup failed',
  googleLoginFailed: 'Google login failed',
  googleAuthFailed: 'Google authentication failed. Please try again.',

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

  // Card generation (product-spec.md sections 5 and 8)
  fileTooLarge: 'File is too large. Maximum file size is 10MB.',
  textTooLong: 'Text is too long. Maximum length is 10000 characters.',
  invalidFileType: 'Invalid file type. Please upload PDF, TXT, DOCX, PPTX, JPG, or PNG.',
  invalidFileTypePptx: 'Invalid file type or unknown MIME type...',
  emptyInput: 'Please enter some text or upload a file to generate flashcards',
  fileUnreadable: 'Could not read this file. It may be damaged, protected by a password, or too large once unpacked.',
  noTextInFile: 'Could not read this file: no text was found in it.',
  insufficientQuota: 'Insufficient quota. Please upgrade your plan or purchase more generations.',
  generationTimeout:
    'Request timed out. The input might be too large or the server is busy. Please try with a smaller text or try again later.',
  generationFailed: 'Failed to generate flashcards. Please try again.',
  aiUnavailable: 'The AI service could not generate flashcards right now. Please try again in a moment.',
  noResponse: 'No response from server. Please check your connection and try again.',
  noCardsGenerated: 'No flashcards could be made from this content. Please try with more or clearer text.',

  // Quiz (product-spec.md sections 5 and 8)
  invalidDeckIdServer: 'Invalid deck ID format. Must be a valid MongoDB ObjectId.',
  invalidDeckId: 'Invalid deck ID format. Please select a valid deck.',
  selectDeck: 'Please select a deck.',
  deckNotFound: 'Deck not found.',
  noDecksFound: 'No decks found. Please create a deck first.',
  quizEmpty: "No quiz cards could be generated. The deck might be empty or the AI couldn't process the content.",
  quizFailed: 'Failed to generate quiz. Please try again.',
} as const;

export type MessageKey = keyof typeof messages;
