import { fileURLToPath } from 'node:url';
import closeWithGrace from 'close-with-grace';
import { systemClock } from './adapters/clock';
import { createGoogleIdTokenVerifier } from './adapters/google/id-token-verifier';
import { createIdGenerator } from './adapters/ids';
import { createLogDestination } from './adapters/log-destination';
import { memoryRateLimiters, redisRateLimiters } from './adapters/rate-limit/rate-limiter';
import { buildApp } from './app';
import { loadConfigOrExit } from './config';
import { migrateToLatest, openDatabase } from './db/database';
import { resolveJwtSecret } from './modules/auth/jwt-secret';

/** Process concerns only: read the config, open what the app needs, listen, and shut down gracefully. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();

  const database = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrateToLatest(database.db, database.dialect);
  // The Redis client is loaded only when REDIS_URL is set (its default export: see the note in build-server.mjs).
  const redis = config.redisUrl
    ? new (await import('ioredis')).default(config.redisUrl, { enableOfflineQueue: true })
    : undefined;

  const logDestination = createLogDestination(config.logBufferMaxBytes);
  const app = await buildApp({
    config,
    db: database.db,
    jwtSecret: resolveJwtSecret(config.jwtSecret, config.dataDir),
    clock: systemClock,
    newId: createIdGenerator(systemClock),
    google: config.googleClientId ? createGoogleIdTokenVerifier({ clientId: config.googleClientId }) : null,
    rateLimiters: redis ? redisRateLimiters(redis) : memoryRateLimiters(),
    webDistDir: fileURLToPath(new URL('../../web/dist', import.meta.url)),
    logger: { level: config.logLevel, stream: logDestination.stream },
  });
  logDestination.reportDropsTo(app.log);
  app.addHook('onClose', async () => {
    await database.close();
    await redis?.quit();
  });

  // On SIGTERM/SIGINT: stop accepting connections, let in-flight requests finish (up to 10 s), close the database.
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an uncaught error');
    else app.log.info({ signal }, 'shutting down');
    // A connection whose request ends during the shutdown would otherwise stay open for its keep-alive time and hold
    // the close until the 10 s grace runs out: each is closed as soon as it is idle.
    const closeIdle = setInterval(() => app.server.closeIdleConnections(), 100);
    try {
      await app.close();
    } finally {
      clearInterval(closeIdle);
    }
  });

  await app.listen({ port: config.port, host: config.host });
  // Under scripts/supervise.mjs (npm start): from now on, a death of this process is a crash worth a restart.
  process.send?.({ listening: true });
  app.log.info(
    { database: database.dialect, ai: config.ai.provider, payments: config.payments.mode },
    `serving ${config.publicUrl}`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
