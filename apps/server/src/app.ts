import { randomUUID } from 'node:crypto';
import compress from '@fastify/compress';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import { limits } from '@flashcards/shared/limits';
import { serverMessages } from '@flashcards/shared/server-messages';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyServerOptions,
  LogController,
  type RouteOptions,
} from 'fastify';
import type { Kysely } from 'kysely';
import type { AiProvider } from './adapters/ai/ai-provider';
import { createAiProvider } from './adapters/ai/create-provider';
import type { Clock } from './adapters/clock';
import { defaultFigureLimits } from './adapters/extract/figures';
import { createIsolatedExtractor } from './adapters/extract/isolated-extractor';
import { createFsrsOptimizer, type FsrsOptimizer } from './adapters/fsrs/fsrs-optimizer';
import type { GoogleIdTokenVerifier } from './adapters/google/id-token-verifier';
import type { IdGenerator } from './adapters/ids';
import { createMediaStore } from './adapters/media/media-store';
import { createIsolatedLabelFinder } from './adapters/occlusion/label-finder';
import { createLocalPaymentProvider, type LocalPaymentProvider } from './adapters/payments/local-payment-provider';
import type { PaymentProvider } from './adapters/payments/payment-provider';
import type { RateLimiterFactory } from './adapters/rate-limit/rate-limiter';
import { createUploadDir } from './adapters/uploads/upload-dir';
import { isOtherWord } from './adapters/word-list';
import type { Config } from './config';
import type { Database } from './db/schema';
import { registerAccessLog } from './http/access-log';
import { registerAuthentication } from './http/authenticate';
import { registerBodyTimeouts } from './http/body-timeout';
import { registerErrorHandler } from './http/error-handler';
import { registerInputGuards } from './http/input-guards';
import { buildOpenApiDocument, collectRoutes, openApiRoutes } from './http/openapi';
import { lazyRequestLogger } from './http/request-logger';
import { registerSecurityHeaders } from './http/security-headers';
import { registerZodCompilers, type ZodTypeProvider } from './http/validation';
import { registerWebApp } from './http/web-app';
import { authRoutes } from './modules/auth/auth.routes';
import { createAuthService } from './modules/auth/auth.service';
import { createTokenService } from './modules/auth/tokens';
import { createUsersRepo } from './modules/auth/users.repo';
import { createBillingRepo } from './modules/billing/billing.repo';
import { billingRoutes } from './modules/billing/billing.routes';
import { createBillingService } from './modules/billing/billing.service';
import { localCheckoutRoutes } from './modules/billing/local-checkout.routes';
import { createCardsRepo } from './modules/cards/cards.repo';
import { cardsRoutes } from './modules/cards/cards.routes';
import { createCardsService } from './modules/cards/cards.service';
import { createClassesRepo } from './modules/classes/classes.repo';
import { classesRoutes } from './modules/classes/classes.routes';
import { createClassesService } from './modules/classes/classes.service';
import { registerLinkedDeckHooks } from './modules/classes/linked-deck-hooks';
import { clientConfigRoutes } from './modules/client-config/client-config.routes';
import { createDecksRepo } from './modules/decks/decks.repo';
import { decksRoutes } from './modules/decks/decks.routes';
import { createDecksService } from './modules/decks/decks.service';
import { createExamForecastRepo } from './modules/exam-forecast/exam-forecast.repo';
import { examForecastRoutes } from './modules/exam-forecast/exam-forecast.routes';
import { createExamForecastService } from './modules/exam-forecast/exam-forecast.service';
import { createFeedbackRepo } from './modules/feedback/feedback.repo';
import { feedbackRoutes } from './modules/feedback/feedback.routes';
import { createFeedbackService } from './modules/feedback/feedback.service';
import { createFsrsFittingRepo } from './modules/fsrs-fitting/fsrs-fitting.repo';
import { fsrsFittingRoutes } from './modules/fsrs-fitting/fsrs-fitting.routes';
import { createFsrsFittingService } from './modules/fsrs-fitting/fsrs-fitting.service';
import { createDeckDuplicates } from './modules/generation/deck-duplicates';
import { createDuplicatesRepo } from './modules/generation/deck-duplicates.repo';
import { generationRoutes } from './modules/generation/generation.routes';
import { createGenerationService } from './modules/generation/generation.service';
import type { createQueueRunner } from './modules/generation/generation-queue';
import { healthRoutes } from './modules/health/health.routes';
import { createIsolatedImportParser, type ImportParser } from './modules/interop/import-runner';
import { createInteropRepo } from './modules/interop/interop.repo';
import { interopRoutes } from './modules/interop/interop.routes';
import { createInteropService } from './modules/interop/interop.service';
import { createMediaRepo } from './modules/media/media.repo';
import { MEDIA_MAX_FRAMES, mediaRoutes } from './modules/media/media.routes';
import { createMediaService } from './modules/media/media.service';
import { createMediaSweep, MEDIA_SWEEP_INTERVAL_MS } from './modules/media/media-sweep';
import { createNotesRepo } from './modules/notes/notes.repo';
import { notesRoutes } from './modules/notes/notes.routes';
import { createNotesService } from './modules/notes/notes.service';
import { createOcclusionRepo } from './modules/occlusion/occlusion.repo';
import { occlusionRoutes } from './modules/occlusion/occlusion.routes';
import { createOcclusionService } from './modules/occlusion/occlusion.service';
import { createQuizRepo } from './modules/quiz/quiz.repo';
import { quizRoutes } from './modules/quiz/quiz.routes';
import { createQuizService } from './modules/quiz/quiz.service';
import { createQuotaRepo } from './modules/quota/quota.repo';
import { quotaRoutes } from './modules/quota/quota.routes';
import { createQuotaService } from './modules/quota/quota.service';
import { createDeckStatsRepo } from './modules/review/deck-stats.repo';
import { createDueQueueRepo } from './modules/review/due-queue.repo';
import { reviewRoutes } from './modules/review/review.routes';
import { createReviewService } from './modules/review/review.service';
import { createReviewAnswersRepo } from './modules/review/review-answers.repo';
import { createReviewSyncService } from './modules/review/review-sync.service';
import type { RandomSource } from './modules/review/scheduler';
import { createSharingRepo } from './modules/sharing/sharing.repo';
import { sharingRoutes } from './modules/sharing/sharing.routes';
import { createSharingService, randomShareCode } from './modules/sharing/sharing.service';
import { createStatsRepo } from './modules/stats/stats.repo';
import { statsRoutes } from './modules/stats/stats.routes';
import { createStatsService } from './modules/stats/stats.service';
import { createLinkedDecks } from './modules/study-core/linked-decks';
import { createUserLimits } from './modules/study-core/user-limits';
import { createAnswerCheckRepo } from './modules/study-modes/answer-check.repo';
import { answerCheckRoutes } from './modules/study-modes/answer-check.routes';
import { createAnswerCheckService } from './modules/study-modes/answer-check.service';
import { userSettingsRoutes } from './modules/user-settings/user-settings.routes';
import { createUserSettingsService } from './modules/user-settings/user-settings.service';

/** Everything the app needs from the outside world; server.ts wires the real ones, tests their own. */
export interface AppDeps {
  config: Config;
  db: Kysely<Database>;
  jwtSecret: string;
  clock: Clock;
  newId: IdGenerator;
  google: GoogleIdTokenVerifier | null;
  rateLimiters: RateLimiterFactory;
  /** Defaults to Stripe when STRIPE_SECRET_KEY is set, else the local test mode. */
  payments?: PaymentProvider;
  /** Randomness for the scheduler's interval fuzz; Math.random unless a test fixes it. */
  random?: RandomSource;
  /** Makes share-link codes; 128 random bits unless a test fixes them. */
  newShareCode?: () => string;
  /** The built web app (apps/web/dist); without an index.html there, only the API is served. */
  webDistDir?: string | undefined;
  logger?: FastifyServerOptions['logger'];
  /** Defaults to the provider config.ai names (offline or openai). */
  aiProvider?: AiProvider;
  /** Told about every route as it is added (the route fuzzer lists the app's routes with it). */
  onRoute?: (route: RouteOptions) => void;
  /** Defaults to the FSRS optimizer (fsrs-rs) in a child process per fit. */
  fsrsOptimizer?: FsrsOptimizer;
  /** Reads imported files; defaults to a child process per import. */
  importParser?: ImportParser;
  /** Idle time before a `: keep-alive` comment on POST /create's event stream; 15 s unless a test shortens it. */
  /** Where the folder of uploads waiting to be parsed is made (the system's temporary folder by default). */
  uploadsParentDir?: string;
  keepAliveMs?: number;
}

/**
 * GENERATION_QUEUE=redis: generations run on the Redis queue's worker processes; otherwise in this process.
 * BullMQ is loaded only in that mode.
 */
async function createQueueRunnerFor(config: Config): Promise<ReturnType<typeof createQueueRunner> | undefined> {
  if (config.generationQueue.mode !== 'redis' || !config.redisUrl) return undefined;
  const { createQueueRunner } = await import('./modules/generation/generation-queue');
  return createQueueRunner({
    redisUrl: config.redisUrl,
    queueName: config.generationQueue.name,
    extractTimeoutMs: config.extraction.timeoutMs,
    aiTimeoutMs: config.ai.timeoutMs,
  });
}

async function createPaymentProvider(deps: AppDeps): Promise<PaymentProvider> {
  const { payments } = deps.config;
  if (payments.mode === 'live' && payments.stripeSecretKey) {
    // Loaded only in live mode: the Stripe SDK is large, and a server in test mode never needs it.
    const { createStripeProvider } = await import('./adapters/payments/stripe-provider');
    return createStripeProvider({
      secretKey: payments.stripeSecretKey,
      webhookSecret: payments.stripeWebhookSecret,
      priceIds: payments.stripePriceIds,
    });
  }
  return createLocalPaymentProvider({ db: deps.db, clock: deps.clock, publicUrl: deps.config.publicUrl });
}

/** A hop count becomes "trust the nearest N proxies"; booleans and address lists pass through. */
function toTrustProxy(value: Config['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : value;
}

const requestIdPattern = /^[\w.-]{1,64}$/;

function isApiResponse(contentType: unknown): boolean {
  return typeof contentType === 'string' && /^(application\/json|text\/event-stream)/.test(contentType);
}

/** Builds the Fastify app without listening: server.ts listens, tests use app.inject or listen on port 0. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger: deps.logger ?? { level: config.logLevel },
    trustProxy: toTrustProxy(config.trustProxy),
    // One log line per request, written when it is answered (below), rather than Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyRequestLogger,
    bodyLimit: 1_048_576,
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && requestIdPattern.test(incoming) ? incoming : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // A URL the router cannot decode (`/decks/%ZZ`) answers in our format, without echoing the URL.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      void reply
        .code(tooLong ? 414 : 400)
        .type('application/json; charset=utf-8')
        .send(
          tooLong
            ? { detail: serverMessages.urlTooLong, code: 'uri_too_long' }
            : { detail: serverMessages.badUrl, code: 'bad_request' },
        );
    },
    // Node's whole-request deadline (registerBodyTimeouts below is what ends a slow body; this covers the rest).
    requestTimeout: config.requestTimeoutMs,
    // A socket silent this long is closed; it must outlast the slowest answer (parsing, then the AI).
    connectionTimeout: config.requestTimeoutMs + config.extraction.timeoutMs + config.ai.timeoutMs,
  }).withTypeProvider<ZodTypeProvider>();
  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);
  registerBodyTimeouts(app, { uploadMs: config.requestTimeoutMs, otherMs: config.bodyTimeoutMs });

  registerZodCompilers(app);
  collectRoutes(app);
  if (config.trustProxy === true) {
    app.log.warn(
      'TRUST_PROXY=true trusts every X-Forwarded-For entry, so any client can choose the address its rate limits ' +
        'count against. Set the number of proxy hops (e.g. 1) or the proxy addresses instead.',
    );
  }

  // Hooks on every request take a callback, not a promise: one promise fewer per hook per request.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    // API answers carry user data: no browser or proxy keeps them. Pages and assets set their own caching.
    if (!reply.hasHeader('cache-control') && isApiResponse(reply.getHeader('content-type'))) {
      reply.header('cache-control', 'no-store');
    }
    done(null, payload);
  });
  registerInputGuards(app);

  registerErrorHandler(app);
  registerAccessLog(app);
  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        'default-src': ["'self'"],
        // Google Identity Services (the sign-in button) loads its script, styles and iframe from Google.
        'script-src': ["'self'", 'https://accounts.google.com/gsi/client'],
        'style-src': ["'self'", "'unsafe-inline'", 'https://accounts.google.com/gsi/style'],
        'frame-src': ["'self'", 'https://accounts.google.com/gsi/'],
        'connect-src': ["'self'", 'https://accounts.google.com/gsi/'],
        'img-src': ["'self'", 'data:', 'https:'],
        'font-src': ["'self'", 'data:'],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        // Left out: it would break a deployment served over plain HTTP on a LAN address.
        'upgrade-insecure-requests': null,
      },
    },
    // The Google sign-in popup talks back to this window.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    // includeSubDomains binds every sibling host of the domain to HTTPS for a year: only when asked for.
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: config.hstsIncludeSubDomains },
  });
  // gzip/brotli for responses over 1 KiB (the web app's scripts and styles above all); a proxy in front may do it too.
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(formbody, { bodyLimit: 65_536 });

  const users = createUsersRepo(deps.db);
  const tokens = createTokenService({ secret: deps.jwtSecret, ttlMs: config.tokenTtlMs, clock: deps.clock });
  const auth = createAuthService({
    users,
    tokens,
    clock: deps.clock,
    newId: deps.newId,
    google: deps.google,
    rateLimiters: deps.rateLimiters,
    rateLimits: config.authRateLimit,
  });
  registerAuthentication(app, auth.authenticate);

  healthRoutes(app, deps.db);
  clientConfigRoutes(app, config);
  userSettingsRoutes(app, createUserSettingsService({ users, clock: deps.clock }));

  const payments = deps.payments ?? (await createPaymentProvider(deps));
  const billing = createBillingService({
    repo: createBillingRepo(deps.db),
    provider: payments,
    clock: deps.clock,
    newId: deps.newId,
    publicUrl: config.publicUrl,
    allowedOrigins: config.allowedOrigins,
    log: app.log,
  });
  billingRoutes(app, billing);
  if (payments.name === 'test') localCheckoutRoutes(app, payments as LocalPaymentProvider, billing);
  const study = { clock: deps.clock, newId: deps.newId };
  const decksRepo = createDecksRepo(deps.db);
  const cardsRepo = createCardsRepo(deps.db);
  const userLimits = createUserLimits(decksRepo, config.userLimits);
  const dailyLimit = { defaultDailyNewCardLimit: limits.defaultDailyNewCardLimit, userLimits };
  const heavy = config.heavyRateLimits;
  const perHour = (name: string, points: number) => deps.rateLimiters({ name, points, windowMs: 3_600_000 });
  const perMinute = (name: string, points: number) => deps.rateLimiters({ name, points, windowMs: 60_000 });
  const notesRepo = createNotesRepo(deps.db);
  const deckDuplicates = createDeckDuplicates({ repo: createDuplicatesRepo(deps.db), decks: decksRepo });
  cardsRoutes(
    app,
    createCardsService({
      ...study,
      userLimits,
      decks: decksRepo,
      cards: cardsRepo,
      notes: notesRepo,
      existingKeys: (userId, deckId) => deckDuplicates.exactKeys(userId, deckId),
      searchLimiter: perMinute('search', heavy.searchesPerMinute),
    }),
  );
  notesRoutes(app, createNotesService({ ...study, userLimits, decks: decksRepo, notes: notesRepo }));
  const reviewAnswers = createReviewAnswersRepo(deps.db);
  // One count of answers per account for POST /cards/review and POST /reviews/sync.
  const reviewLimiter = deps.rateLimiters({
    name: 'review',
    points: config.review.rateLimitPerDay,
    windowMs: 86_400_000,
  });
  reviewRoutes(
    app,
    createReviewService({
      ...study,
      queueReads: createDueQueueRepo(deps.db),
      answers: reviewAnswers,
      deckStats: createDeckStatsRepo(deps.db),
      decks: decksRepo,
      random: deps.random ?? Math.random,
      maxQueue: limits.maxReviewQueue,
      limiter: reviewLimiter,
    }),
    createReviewSyncService({ answers: reviewAnswers, clock: deps.clock, limiter: reviewLimiter }),
  );
  statsRoutes(app, createStatsService({ stats: createStatsRepo(deps.db), decks: decksRepo, clock: deps.clock }));
  const fsrsOptimizer =
    deps.fsrsOptimizer ??
    createFsrsOptimizer({
      timeoutMs: config.scheduling.optimizeTimeoutMs,
      memoryBytes: config.scheduling.memoryBytes,
      onKill: (reason) => app.log.warn({ reason }, 'FSRS fit process killed'),
    });
  // Closed before the server waits for requests in flight: a fit running then fails at once (503), so SIGTERM does
  // not wait for it.
  if (!deps.fsrsOptimizer && fsrsOptimizer.close) app.addHook('preClose', fsrsOptimizer.close);
  fsrsFittingRoutes(
    app,
    createFsrsFittingService({
      repo: createFsrsFittingRepo(deps.db),
      optimizer: fsrsOptimizer,
      clock: deps.clock,
      minReviews: config.scheduling.minReviews,
      limiter: deps.rateLimiters({
        name: 'optimize',
        points: config.scheduling.rateLimitPerDay,
        windowMs: 86_400_000,
      }),
      lock: deps.rateLimiters({
        name: 'optimize-running',
        points: 1,
        windowMs: config.scheduling.optimizeTimeoutMs * 2,
      }),
    }),
  );
  sharingRoutes(
    app,
    createSharingService({
      ...study,
      ...dailyLimit,
      shares: createSharingRepo(deps.db),
      decks: decksRepo,
      newShareCode: deps.newShareCode ?? randomShareCode,
      shareTtlMs: config.shareTtlMs,
    }),
  );
  // Classes: linked copies sync on the student's reads and refuse edits (hooks on every module's routes).
  const linkedDecks = createLinkedDecks(deps.db, { newId: deps.newId, now: () => deps.clock.now() });
  registerLinkedDeckHooks(app, linkedDecks);
  classesRoutes(
    app,
    createClassesService({
      ...study,
      classes: createClassesRepo(deps.db),
      linked: linkedDecks,
      userLimits,
      limits: config.classes,
    }),
  );
  // Images' bytes: database chunks or an S3-compatible bucket (MEDIA_STORE); read from where each row says.
  const mediaStore = createMediaStore({ kind: config.media.store, s3: config.media.s3 });
  app.addHook('onClose', async () => mediaStore.close());
  // The periodic media sweep: images no card uses past MEDIA_UNUSED_TTL, and S3 objects no row names.
  const mediaSweep = createMediaSweep({
    db: deps.db,
    store: mediaStore,
    clock: deps.clock,
    unusedTtlMs: config.media.unusedTtlMs,
  });
  let sweepTimer: NodeJS.Timeout | undefined;
  app.addHook('onListen', async () => {
    sweepTimer = setInterval(() => {
      mediaSweep.run().then(
        (swept) => app.log.info(swept, 'media swept'),
        (error: unknown) => app.log.error({ err: error }, 'media sweep failed'),
      );
    }, MEDIA_SWEEP_INTERVAL_MS);
    sweepTimer.unref();
  });
  app.addHook('onClose', async () => clearInterval(sweepTimer));
  let importParser = deps.importParser;
  if (!importParser) {
    const isolated = createIsolatedImportParser({
      timeoutMs: config.interop.timeoutMs,
      memoryBytes: config.interop.memoryBytes,
      workers: 2,
      queue: 8,
      onKill: (reason) => app.log.warn({ reason }, 'import process killed'),
    });
    // Before the server waits for requests in flight: an import being read then fails at once (503 busy).
    app.addHook('preClose', isolated.close);
    app.addHook('onListen', async () => isolated.warm());
    importParser = isolated.parse;
  }
  const interop = createInteropService({
    ...study,
    ...dailyLimit,
    repo: createInteropRepo(deps.db, mediaStore),
    parse: importParser,
    maxUnzippedBytes: config.interop.maxUnzippedBytes,
    limits: {
      imports: perHour('import', heavy.importsPerHour),
      exports: perHour('export', heavy.exportsPerHour),
      media: perMinute('media-ip', heavy.mediaPerMinute),
    },
    maxCardsPerUser: config.userLimits.maxCards,
    maxImageBytes: config.interop.maxImageBytes,
    maxImagePixels: config.interop.maxImagePixels,
    mediaQuotaBytes: config.interop.mediaQuotaBytes,
    lock: deps.rateLimiters({ name: 'import-running', points: 1, windowMs: config.interop.timeoutMs * 2 }),
  });
  feedbackRoutes(
    app,
    createFeedbackService({
      ...study,
      feedback: createFeedbackRepo(deps.db),
      rateLimiters: deps.rateLimiters,
      perHour: config.feedbackRateLimitPerHour,
    }),
    auth.authenticate,
  );

  const aiProvider: AiProvider & { close?: () => Promise<void> } = deps.aiProvider ?? createAiProvider(config.ai);
  if (!deps.aiProvider && aiProvider.close) app.addHook('onClose', aiProvider.close);
  const quota = createQuotaService({
    repo: createQuotaRepo(deps.db),
    clock: deps.clock,
    freeGenerationsPerMonth: config.quota.freeGenerationsPerMonth,
  });
  quotaRoutes(app, quota);
  const extractor = createIsolatedExtractor({
    ...config.extraction,
    onKill: (reason) => app.log.warn({ reason }, 'parser process killed'),
  });
  app.addHook('onClose', () => extractor.close());
  const uploads = createUploadDir(deps.uploadsParentDir);
  app.addHook('onClose', async () => uploads.close());
  // A listening server starts the parser broker at once, so that no upload waits for it (tests that only inject
  // start it with their first file).
  app.addHook('onListen', async () => extractor.warm());
  const queueRunner = await createQueueRunnerFor(config);
  if (queueRunner) app.addHook('onClose', () => queueRunner.close());
  // Uploads (POST /media) and the figures of generated cards are stored by the same service.
  const media = createMediaService({
    repo: createMediaRepo(deps.db, mediaStore),
    prober: extractor,
    clock: deps.clock,
    newId: deps.newId,
    uploads: perHour('media-upload', config.media.uploadsPerHour),
    limits: { maxImagePixels: config.extraction.maxImagePixels, maxFrames: MEDIA_MAX_FRAMES },
    mediaQuotaBytes: config.interop.mediaQuotaBytes,
  });
  const generation = createGenerationService({
    provider: aiProvider,
    extractor,
    figures: defaultFigureLimits,
    storeFigure: media.storeFigure,
    limiter: deps.rateLimiters({ name: 'create', points: config.createRateLimitPerHour, windowMs: 3_600_000 }),
    fileLock: deps.rateLimiters({
      name: 'create-file',
      points: 1,
      windowMs: config.extraction.timeoutMs * 2 + config.ai.timeoutMs,
    }),
    quota,
    clock: deps.clock,
    ai: config.ai,
    duplicates: deckDuplicates,
    ...(queueRunner ? { runner: queueRunner } : {}),
  });
  const quiz = createQuizService({
    repo: createQuizRepo(deps.db),
    provider: aiProvider,
    limiter: deps.rateLimiters({ name: 'quiz', points: config.quiz.rateLimitPerHour, windowMs: 3_600_000 }),
    clock: deps.clock,
    random: deps.random ?? Math.random,
    timeoutMs: config.ai.timeoutMs,
    distractorsTimeoutMs: config.quiz.distractorsTimeoutMs,
    maxQuestions: limits.maxQuizQuestions,
    maxCardsIn: limits.maxQuizCardsIn,
  });
  quizRoutes(app, quiz);
  // Image occlusion: labels are read in parser processes of their own broker, with the parsers' caps.
  const labelFinder = createIsolatedLabelFinder({
    workers: config.extraction.workers,
    queue: config.extraction.queue,
    timeoutMs: config.extraction.timeoutMs,
    memoryBytes: config.extraction.memoryBytes,
    maxImagePixels: config.extraction.maxImagePixels,
    onKill: (reason) => app.log.warn({ reason }, 'label process killed'),
  });
  app.addHook('onClose', () => labelFinder.close());
  occlusionRoutes(
    app,
    createOcclusionService({
      repo: createOcclusionRepo(deps.db, mediaStore),
      labels: labelFinder,
      limiter: deps.rateLimiters({
        name: 'occlusion',
        points: config.occlusion.rateLimitPerHour,
        windowMs: 3_600_000,
      }),
    }),
  );
  answerCheckRoutes(
    app,
    createAnswerCheckService({
      repo: createAnswerCheckRepo(deps.db),
      provider: aiProvider,
      judgeLimiter: perHour('answer-judge', config.answerJudge.rateLimitPerHour),
      judgeTimeoutMs: config.answerJudge.timeoutMs,
      isOtherWord,
    }),
  );
  examForecastRoutes(app, createExamForecastService({ repo: createExamForecastRepo(deps.db), clock: deps.clock }));

  // Multipart bodies (a browser's FormData, an uploaded file) are read by these four modules' routes only, so the
  // plugin lives in their scope: it adds two async hooks and a 'close' listener to every request it covers (to clean
  // up saved files, which we never save). Elsewhere a multipart body is an unsupported content type (400).
  await app.register(async (forms) => {
    await forms.register(multipart, {
      limits: { fileSize: limits.maxFileBytes, files: 1, fields: 20, fieldSize: 1_048_576, parts: 25 },
    });
    authRoutes(forms, auth);
    decksRoutes(
      forms,
      createDecksService({
        ...study,
        ...dailyLimit,
        decks: decksRepo,
        cards: cardsRepo,
        deleteLimiter: perHour('deck-delete', heavy.deckDeletesPerHour),
      }),
    );
    interopRoutes(forms, interop, { maxImportBytes: config.interop.maxImportBytes });
    generationRoutes(forms, generation, { keepAliveMs: deps.keepAliveMs ?? 15_000, uploads });
    mediaRoutes(forms, media, { maxUploadBytes: config.media.maxUploadBytes });
  });

  openApiRoutes(app, () => buildOpenApiDocument(app));

  await registerWebApp(app, deps.webDistDir);
  return app;
}
