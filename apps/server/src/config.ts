import ms from 'ms';
import { z } from 'zod';

/**
 * Every setting the server reads, validated once at start. `loadConfig` either returns a complete, typed config
 * or throws a ConfigError that lists every bad setting by name, so a misconfigured server never half-starts.
 * The README's settings table mirrors this schema.
 */

const emptyAsUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const optionalString = z.preprocess(emptyAsUndefined, z.string().trim().optional());

/** A whole number from `min` (to `max`, if given), every rule with the one message; empty takes the default. */
const wholeNumber = (range: { min: number; max?: number }, message: string) => (fallback: number) => {
  const atLeast = z.coerce.number({ error: message }).int(message).min(range.min, message);
  return z.preprocess(
    emptyAsUndefined,
    (range.max === undefined ? atLeast : atLeast.max(range.max, message)).default(fallback),
  );
};

const port = wholeNumber({ min: 0, max: 65535 }, 'must be a whole number from 0 to 65535')(3000);
const positiveInt = wholeNumber({ min: 1 }, 'must be a positive whole number');
const nonNegativeInt = wholeNumber({ min: 0 }, 'must be a whole number, 0 or more');

const booleanFlag = z.preprocess(
  emptyAsUndefined,
  z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .default('false')
    .transform((value) => value === 'true' || value === '1'),
);

/** A duration such as `7d`, `12h`, `30m` or a number of seconds; parsed to milliseconds. */
const duration = (fallback: string) =>
  z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .default(fallback)
      .transform((value, ctx) => {
        const parsed = /^\d+$/.test(value) ? Number(value) * 1000 : ms(value as ms.StringValue);
        if (typeof parsed !== 'number' || !Number.isFinite(parsed) || parsed <= 0) {
          ctx.addIssue({ code: 'custom', message: 'must be a duration such as 7d, 12h, 30m or a number of seconds' });
          return z.NEVER;
        }
        return parsed;
      }),
  );

const origin = z.string().transform((value, ctx) => {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
    return url.origin;
  } catch {
    ctx.addIssue({
      code: 'custom',
      message: `must be an http(s) origin such as https://cards.example.com (got "${value}")`,
    });
    return z.NEVER;
  }
});

const urlWithScheme = (schemes: string[], example: string) =>
  z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .refine((value) => {
        try {
          return schemes.includes(new URL(value).protocol);
        } catch {
          return false;
        }
      }, `must be a URL such as ${example}`)
      .optional(),
  );

/** `true`/`false`, a number of proxy hops, or a comma-separated list of proxy addresses. */
const trustProxy = z.preprocess(
  emptyAsUndefined,
  z
    .string()
    .default('false')
    .transform((value): boolean | number | string[] => {
      const lowered = value.toLowerCase();
      if (lowered === 'true') return true;
      if (lowered === 'false') return false;
      if (/^\d+$/.test(value)) return Number(value);
      return value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
    }),
);

const schema = z
  .object({
    PORT: port,
    HOST: z.preprocess(emptyAsUndefined, z.string().default('127.0.0.1')),
    DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default('./data')),
    DATABASE_URL: urlWithScheme(['postgres:', 'postgresql:'], 'postgres://user:password@host:5432/db'),
    PUBLIC_URL: z.preprocess(emptyAsUndefined, origin.optional()),
    ALLOWED_ORIGINS: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .optional()
        .transform((value) =>
          (value ?? '')
            .split(',')
            .map((part) => part.trim())
            .filter(Boolean),
        )
        .pipe(z.array(origin)),
    ),
    JWT_SECRET: z.preprocess(
      emptyAsUndefined,
      z.string().min(32, 'must be at least 32 characters (or leave it unset to generate one)').optional(),
    ),
    TOKEN_TTL: duration('7d'),
    GOOGLE_CLIENT_ID: optionalString,
    LOG_LEVEL: z.preprocess(
      emptyAsUndefined,
      z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    ),
    LOG_BUFFER_MAX_BYTES: wholeNumber({ min: 65_536 }, 'must be a whole number, 65536 or more')(16_777_216),
    REDIS_URL: urlWithScheme(['redis:', 'rediss:'], 'redis://127.0.0.1:6379'),
    TRUST_PROXY: trustProxy,
    AUTH_RATE_LIMIT_PER_IP: positiveInt(100),
    AUTH_RATE_LIMIT_PER_EMAIL: positiveInt(10),
    AUTH_RATE_LIMIT_PER_ACCOUNT: z.preprocess(emptyAsUndefined, positiveInt(1).optional()),
    PAYMENTS_MODE: z.preprocess(
      emptyAsUndefined,
      z.enum(['test', 'live'], { error: 'must be test or live' }).optional(),
    ),
    MAX_DECKS_PER_USER: positiveInt(1000),
    MAX_CARDS_PER_USER: positiveInt(200_000),
    CLASS_MAX_STUDENTS: positiveInt(500),
    MAX_CLASSES_PER_USER: positiveInt(50),
    HSTS_INCLUDE_SUBDOMAINS: booleanFlag,
    AUTH_RATE_LIMIT_WINDOW: duration('15m'),
    AI_PROVIDER: z.preprocess(emptyAsUndefined, z.enum(['offline', 'openai']).optional()),
    AI_MODEL: z.preprocess(emptyAsUndefined, z.string().default('gpt-4o-mini')),
    OPENAI_BASE_URL: urlWithScheme(['http:', 'https:'], 'https://api.openai.com/v1'),
    OPENAI_API_KEY: optionalString,
    AI_CONCURRENCY: positiveInt(4),
    OFFLINE_WORKERS: positiveInt(2),
    AI_TIMEOUT: duration('180s'),
    AI_MAX_RETRIES: nonNegativeInt(3),
    AI_CHUNK_CHARS: positiveInt(6000),
    AI_MAX_INPUT_CHARS: positiveInt(120_000),
    MAX_CARDS_PER_GENERATION: positiveInt(40),
    LOG_GENERATION_TEXT: booleanFlag,
    FREE_GENERATIONS_PER_MONTH: nonNegativeInt(10),
    QUIZ_RATE_LIMIT_PER_HOUR: positiveInt(30),
    OCCLUSION_RATE_LIMIT_PER_HOUR: positiveInt(60),
    ANSWER_JUDGE_RATE_LIMIT_PER_HOUR: positiveInt(300),
    ANSWER_JUDGE_TIMEOUT: duration('5s'),
    QUIZ_DISTRACTORS_TIMEOUT: duration('5s'),
    REVIEW_RATE_LIMIT_PER_DAY: positiveInt(20_000),
    EXTRACT_TIMEOUT: duration('60s'),
    EXTRACT_MAX_PDF_PAGES: positiveInt(500),
    EXTRACT_MAX_OCR_PAGES: nonNegativeInt(10),
    EXTRACT_MAX_UNZIPPED_BYTES: positiveInt(104_857_600),
    EXTRACT_MAX_XML_PART_BYTES: positiveInt(25_165_824),
    EXTRACT_MAX_PDF_STREAM_BYTES: positiveInt(67_108_864),
    EXTRACT_MAX_IMAGE_PIXELS: positiveInt(40_000_000),
    EXTRACT_WORKERS: positiveInt(2),
    EXTRACT_QUEUE: nonNegativeInt(16),
    EXTRACT_MEMORY_MB: positiveInt(768),
    CREATE_RATE_LIMIT_PER_HOUR: positiveInt(60),
    REQUEST_TIMEOUT: duration('120s'),
    BODY_TIMEOUT: duration('30s'),
    STRIPE_SECRET_KEY: optionalString,
    STRIPE_WEBHOOK_SECRET: optionalString,
    STRIPE_PRICE_GENERATIONS: optionalString,
    STRIPE_PRICE_GENERATIONS_100: optionalString,
    STRIPE_PRICE_MONTHLY: optionalString,
    SHARE_TTL_DAYS: positiveInt(30),
    IMPORT_MAX_BYTES: positiveInt(104_857_600),
    IMPORT_MAX_UNZIPPED_BYTES: positiveInt(536_870_912),
    IMPORT_TIMEOUT: duration('120s'),
    IMPORT_MEMORY_MB: positiveInt(768),
    IMPORT_RATE_LIMIT_PER_HOUR: positiveInt(30),
    IMPORT_MAX_IMAGE_BYTES: positiveInt(10_485_760),
    IMPORT_MAX_IMAGE_PIXELS: positiveInt(40_000_000),
    MEDIA_QUOTA_BYTES_PER_USER: positiveInt(536_870_912),
    FEEDBACK_RATE_LIMIT_PER_HOUR: positiveInt(10),
    EXPORT_RATE_LIMIT_PER_HOUR: positiveInt(30),
    DECK_DELETE_RATE_LIMIT_PER_HOUR: positiveInt(120),
    SEARCH_RATE_LIMIT_PER_MINUTE: positiveInt(120),
    MEDIA_RATE_LIMIT_PER_MINUTE: positiveInt(600),
    FSRS_MIN_REVIEWS: positiveInt(400),
    FSRS_OPTIMIZE_TIMEOUT: duration('120s'),
    FSRS_OPTIMIZE_RATE_LIMIT_PER_DAY: positiveInt(10),
    FSRS_MEMORY_MB: positiveInt(512),
    GENERATION_QUEUE: z.preprocess(
      emptyAsUndefined,
      z.enum(['in-process', 'redis'], { error: 'must be in-process or redis' }).default('in-process'),
    ),
    GENERATION_QUEUE_NAME: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(/^[\w-]{1,64}$/, 'must be 1 to 64 letters, digits, _ or -')
        .default('generation'),
    ),
    GENERATION_WORKER_CONCURRENCY: positiveInt(2),
    MEDIA_STORE: z.preprocess(
      emptyAsUndefined,
      z.enum(['database', 's3'], { error: 'must be database or s3' }).default('database'),
    ),
    S3_ENDPOINT: optionalString,
    S3_BUCKET: optionalString,
    S3_REGION: z.preprocess(emptyAsUndefined, z.string().trim().default('us-east-1')),
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    S3_FORCE_PATH_STYLE: booleanFlag,
    MEDIA_UPLOAD_MAX_BYTES: positiveInt(10_485_760),
    MEDIA_UPLOAD_RATE_LIMIT_PER_HOUR: positiveInt(300),
    MEDIA_UNUSED_TTL: duration('7d'),
  })
  .superRefine((env, ctx) => {
    if (env.MEDIA_STORE === 's3' && !env.S3_BUCKET) {
      ctx.addIssue({ code: 'custom', path: ['MEDIA_STORE'], message: 'is "s3" but S3_BUCKET is not set' });
    }
    if (env.PAYMENTS_MODE === 'live' && !env.STRIPE_SECRET_KEY) {
      ctx.addIssue({ code: 'custom', path: ['PAYMENTS_MODE'], message: 'is "live" but STRIPE_SECRET_KEY is not set' });
    }
    if (!env.STRIPE_SECRET_KEY && env.PAYMENTS_MODE !== 'test' && !isLocalServer(env.HOST, env.PUBLIC_URL)) {
      ctx.addIssue({
        code: 'custom',
        path: ['STRIPE_SECRET_KEY'],
        message:
          'is not set on a server that is not local (HOST is not a loopback address, or PUBLIC_URL is https): ' +
          'payments would run in test mode and give purchases away. Set STRIPE_SECRET_KEY for real payments, or ' +
          'PAYMENTS_MODE=test to run test mode here on purpose',
      });
    }
    if (env.AI_PROVIDER === 'openai' && !env.OPENAI_BASE_URL && !env.OPENAI_API_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['AI_PROVIDER'],
        message: 'is "openai" but neither OPENAI_BASE_URL nor OPENAI_API_KEY is set',
      });
    }
    if (env.GENERATION_QUEUE === 'redis' && !env.REDIS_URL) {
      ctx.addIssue({ code: 'custom', path: ['GENERATION_QUEUE'], message: 'is "redis" but REDIS_URL is not set' });
    }
  })
  .transform((e) => {
    const publicUrl = e.PUBLIC_URL ?? `http://localhost:${e.PORT}`;
    const aiProvider: 'offline' | 'openai' =
      e.AI_PROVIDER ?? (e.OPENAI_BASE_URL || e.OPENAI_API_KEY ? 'openai' : 'offline');
    return {
      port: e.PORT,
      host: e.HOST,
      dataDir: e.DATA_DIR,
      /** Unset: the embedded SQLite file in dataDir. */
      databaseUrl: e.DATABASE_URL,
      /** The origin users reach, e.g. https://cards.example.com. */
      publicUrl,
      /** Origins a redirect may go back to: publicUrl plus ALLOWED_ORIGINS. */
      allowedOrigins: [...new Set([publicUrl, ...e.ALLOWED_ORIGINS])],
      /** Unset: generated once and kept in dataDir (see resolveJwtSecret). */
      jwtSecret: e.JWT_SECRET,
      tokenTtlMs: e.TOKEN_TTL,
      googleClientId: e.GOOGLE_CLIENT_ID,
      logLevel: e.LOG_LEVEL,
      /** Log lines waiting for stdout beyond this are dropped (and counted) rather than kept in memory. */
      logBufferMaxBytes: e.LOG_BUFFER_MAX_BYTES,
      redisUrl: e.REDIS_URL,
      trustProxy: e.TRUST_PROXY,
      /** perEmail: password checks per email and client address; perAccount: per email from all addresses. */
      authRateLimit: {
        perIp: e.AUTH_RATE_LIMIT_PER_IP,
        perEmail: e.AUTH_RATE_LIMIT_PER_EMAIL,
        perAccount: e.AUTH_RATE_LIMIT_PER_ACCOUNT ?? e.AUTH_RATE_LIMIT_PER_EMAIL * 10,
        windowMs: e.AUTH_RATE_LIMIT_WINDOW,
      },
      ai: {
        provider: aiProvider,
        model: e.AI_MODEL,
        baseUrl: e.OPENAI_BASE_URL,
        apiKey: e.OPENAI_API_KEY,
        /** Chunks generated at the same time for one request. */
        concurrency: e.AI_CONCURRENCY,
        /** Worker processes of the built-in offline generator. */
        offlineWorkers: e.OFFLINE_WORKERS,
        /** The whole AI phase of one generation must finish within this (180 s by default). */
        timeoutMs: e.AI_TIMEOUT,
        /** Retries on 429 and 5xx, with exponential backoff. */
        maxRetries: e.AI_MAX_RETRIES,
        /** Long inputs are split into chunks of about this many characters. */
        chunkChars: e.AI_CHUNK_CHARS,
        /** Extracted text beyond this many characters is not sent to the AI (a 300-page PDF stays affordable). */
        maxInputChars: e.AI_MAX_INPUT_CHARS,
        maxCardsPerGeneration: e.MAX_CARDS_PER_GENERATION,
        /** Log the user's text with each generation (debugging only). */
        logText: e.LOG_GENERATION_TEXT,
      },
      quota: { freeGenerationsPerMonth: e.FREE_GENERATIONS_PER_MONTH },
      quiz: { rateLimitPerHour: e.QUIZ_RATE_LIMIT_PER_HOUR, distractorsTimeoutMs: e.QUIZ_DISTRACTORS_TIMEOUT },
      /** Mask suggestions (POST /occlusion/suggest) one user may ask for per hour: each is an OCR run. */
      occlusion: { rateLimitPerHour: e.OCCLUSION_RATE_LIMIT_PER_HOUR },
      answerJudge: { rateLimitPerHour: e.ANSWER_JUDGE_RATE_LIMIT_PER_HOUR, timeoutMs: e.ANSWER_JUDGE_TIMEOUT },
      /** Answers (POST /cards/review) one account may give per 24 hours: bounds the review log one day can add. */
      review: { rateLimitPerDay: e.REVIEW_RATE_LIMIT_PER_DAY },
      /** POST /import: upload size, what a package may unpack to, and the time to read it. */
      interop: {
        maxImportBytes: e.IMPORT_MAX_BYTES,
        maxUnzippedBytes: e.IMPORT_MAX_UNZIPPED_BYTES,
        timeoutMs: e.IMPORT_TIMEOUT,
        /** Resident memory of one import's reading process. */
        memoryBytes: e.IMPORT_MEMORY_MB * 1024 * 1024,
        /** One imported image's bytes and declared pixels at most, and the images one user may store in all. */
        maxImageBytes: e.IMPORT_MAX_IMAGE_BYTES,
        maxImagePixels: e.IMPORT_MAX_IMAGE_PIXELS,
        mediaQuotaBytes: e.MEDIA_QUOTA_BYTES_PER_USER,
      },
      extraction: {
        timeoutMs: e.EXTRACT_TIMEOUT,
        maxPdfPages: e.EXTRACT_MAX_PDF_PAGES,
        maxOcrPages: e.EXTRACT_MAX_OCR_PAGES,
        maxUnzippedBytes: e.EXTRACT_MAX_UNZIPPED_BYTES,
        maxXmlPartBytes: e.EXTRACT_MAX_XML_PART_BYTES,
        maxPdfStreamBytes: e.EXTRACT_MAX_PDF_STREAM_BYTES,
        maxImagePixels: e.EXTRACT_MAX_IMAGE_PIXELS,
        /** Parser processes running at once, files waiting for one at most, and each process's memory cap. */
        workers: e.EXTRACT_WORKERS,
        queue: e.EXTRACT_QUEUE,
        memoryBytes: e.EXTRACT_MEMORY_MB * 1024 * 1024,
      },
      /** File and text generations a user may start per hour (failed ones count too). */
      createRateLimitPerHour: e.CREATE_RATE_LIMIT_PER_HOUR,
      /** Time to receive a whole request (headers and body, uploads included); past it the socket is closed. */
      requestTimeoutMs: e.REQUEST_TIMEOUT,
      /** Time to receive the body of a request that is not an upload. */
      bodyTimeoutMs: e.BODY_TIMEOUT,
      payments: {
        mode: (e.STRIPE_SECRET_KEY && e.PAYMENTS_MODE !== 'test' ? 'live' : 'test') as 'live' | 'test',
        stripeSecretKey: e.STRIPE_SECRET_KEY,
        stripeWebhookSecret: e.STRIPE_WEBHOOK_SECRET,
        /** Stripe price ids per plan type; a plan without one is charged with inline price data. */
        stripePriceIds: {
          ...(e.STRIPE_PRICE_GENERATIONS ? { generations: e.STRIPE_PRICE_GENERATIONS } : {}),
          ...(e.STRIPE_PRICE_GENERATIONS_100 ? { generations_100: e.STRIPE_PRICE_GENERATIONS_100 } : {}),
          ...(e.STRIPE_PRICE_MONTHLY ? { monthly: e.STRIPE_PRICE_MONTHLY } : {}),
        },
      },
      /** Per-user caps (an import or save beyond them is refused). */
      userLimits: { maxDecks: e.MAX_DECKS_PER_USER, maxCards: e.MAX_CARDS_PER_USER },
      /** Students per class, and classes one user may teach and attend together. */
      classes: { maxStudents: e.CLASS_MAX_STUDENTS, maxPerUser: e.MAX_CLASSES_PER_USER },
      /** Strict-Transport-Security includeSubDomains (off unless asked: it binds every sibling host). */
      hstsIncludeSubDomains: e.HSTS_INCLUDE_SUBDOMAINS,
      /** How long a deck's share link stays valid. */
      shareTtlMs: e.SHARE_TTL_DAYS * 86_400_000,
      /** Feedback submissions accepted per client address per hour. */
      feedbackRateLimitPerHour: e.FEEDBACK_RATE_LIMIT_PER_HOUR,
      /**
       * Heavy or public routes, counted per user (imports, exports, deck deletions, searches) or per client address
       * (GET /media): 429 `rate_limited` with Retry-After past them.
       */
      heavyRateLimits: {
        importsPerHour: e.IMPORT_RATE_LIMIT_PER_HOUR,
        exportsPerHour: e.EXPORT_RATE_LIMIT_PER_HOUR,
        deckDeletesPerHour: e.DECK_DELETE_RATE_LIMIT_PER_HOUR,
        searchesPerMinute: e.SEARCH_RATE_LIMIT_PER_MINUTE,
        mediaPerMinute: e.MEDIA_RATE_LIMIT_PER_MINUTE,
      },
      /** Personal FSRS parameters: the fewest reviews a fit may use, and the time limit of one fit. */
      scheduling: {
        minReviews: e.FSRS_MIN_REVIEWS,
        optimizeTimeoutMs: e.FSRS_OPTIMIZE_TIMEOUT,
        rateLimitPerDay: e.FSRS_OPTIMIZE_RATE_LIMIT_PER_DAY,
        memoryBytes: e.FSRS_MEMORY_MB * 1024 * 1024,
      },
      /**
       * Where generations run: `in-process` (this server) or `redis` (a BullMQ queue on REDIS_URL, worked by
       * `npm run worker` processes); the queue's name, and how many jobs one worker process runs at once.
       */
      generationQueue: {
        mode: e.GENERATION_QUEUE,
        name: e.GENERATION_QUEUE_NAME,
        workerConcurrency: e.GENERATION_WORKER_CONCURRENCY,
      },
      /**
       * Where new images' bytes go (`database` chunks or an S3-compatible bucket), POST /media's size and rate, and
       * how long an image no card uses is kept.
       */
      media: {
        store: e.MEDIA_STORE,
        s3: e.S3_BUCKET
          ? {
              endpoint: e.S3_ENDPOINT,
              bucket: e.S3_BUCKET,
              region: e.S3_REGION,
              accessKeyId: e.S3_ACCESS_KEY_ID,
              secretAccessKey: e.S3_SECRET_ACCESS_KEY,
              forcePathStyle: e.S3_FORCE_PATH_STYLE,
            }
          : undefined,
        maxUploadBytes: e.MEDIA_UPLOAD_MAX_BYTES,
        uploadsPerHour: e.MEDIA_UPLOAD_RATE_LIMIT_PER_HOUR,
        unusedTtlMs: e.MEDIA_UNUSED_TTL,
      },
    };
  });

/** A server only this machine reaches: a loopback HOST and a plain-http PUBLIC_URL (or none). */
export function isLocalServer(host: string, publicUrl: string | undefined): boolean {
  const loopback = host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
  return loopback && (publicUrl === undefined || publicUrl.startsWith('http:'));
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** The server's settings, typed from the schema's output: each setting is written once, in the schema. */
export type Config = z.output<typeof schema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = schema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = issue.path.join('.') || 'configuration';
      const given = typeof issue.path[0] === 'string' ? env[issue.path[0]] : undefined;
      const shown = given === undefined || /SECRET|KEY|PASSWORD|URL/.test(name) ? '' : ` (got "${given}")`;
      return `${name} ${issue.message}${shown}`;
    });
    throw new ConfigError(problems);
  }
  return result.data;
}

/** A process's start (`npm start`, `npm run worker`): the config, or every bad setting on stderr and exit code 1. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\nSee the settings table in README.md.\n`);
      process.exit(1);
    }
    throw error;
  }
}
