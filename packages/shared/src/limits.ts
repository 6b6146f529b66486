/** Limits and timings (docs/api.md), shared by the server and the web app. */
export const limits = {
  maxTextLength: 10_000,
  maxFileBytes: 10_485_760,
  minPasswordLength: 8,
  maxPasswordLength: 1024,
  maxNameLength: 100,
  maxEmailLength: 254,
  defaultDailyNewCardLimit: 20,
  maxDailyNewCardLimit: 9999,
  maxDeckNameLength: 200,
  /** Question or answer. */
  maxCardSideLength: 20_000,
  maxCardsPerSave: 1000,
  /** Images on one card (issue 34). */
  maxCardImages: 2,
  /** GET /cards/due answers at most this many cards; the next call continues where a session left off. */
  maxReviewQueue: 200,
  maxFeedbackLength: 5000,
  /** GET /decks/{id}/cards?limit=: 1 to this many cards a page. */
  maxCardsPage: 500,
  /** GET /cards/search: `q` length, results a page (at most, and by default). */
  maxSearchLength: 200,
  maxSearchPage: 100,
  defaultSearchPage: 50,
  /** A typed answer (POST /cards/{id}/check), in characters. */
  maxTypedAnswerLength: 1000,
  /** Answers one POST /api/quiz/results reports at most. */
  maxQuizAnswers: 500,
  /** Questions one quiz asks at most. */
  maxQuizQuestions: 20,
  /** A deck's cards (the first ones, in creation order) a quiz is written from. */
  maxQuizCardsIn: 100,
  /** Desired retention of a deck's reviews (FSRS request_retention). */
  minDesiredRetention: 0.7,
  maxDesiredRetention: 0.97,
  defaultDesiredRetention: 0.9,
  /** GET /stats/history and /stats/forecast: days asked for. */
  maxStatsDays: 366,
  defaultHistoryDays: 365,
  defaultForecastDays: 30,
} as const;

/** Generation cost in units of quota (docs/api.md). Text plus a file costs the file's price. */
export const generationCosts = {
  text: 1,
  file: 3,
  pptx: 5,
} as const;

export const timeouts = {
  defaultRequestMs: 60_000,
  generationRequestMs: 180_000,
  chunkLoadMs: 120_000,
} as const;
