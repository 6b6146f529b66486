import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import { createAiProvider } from './adapters/ai/create-provider';
import { systemClock } from './adapters/clock';
import { defaultFigureLimits } from './adapters/extract/figures';
import { createIsolatedExtractor } from './adapters/extract/isolated-extractor';
import { loadConfigOrExit } from './config';
import { createGenerationPipeline } from './modules/generation/generation-pipeline';
import { startGenerationWorker } from './modules/generation/generation-worker';

/**
 * `npm run worker`: a generation worker for GENERATION_QUEUE=redis. It needs REDIS_URL and the AI and extraction
 * settings, not the database: the API server that took the request keeps the quota. Run as many as needed, on
 * this machine or others.
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  if (!config.redisUrl) {
    process.stderr.write('REDIS_URL must be set for a generation worker.\n');
    process.exit(1);
  }
  const log = pino({ level: config.logLevel });
  // The same isolated, bounded parser processes and AI provider as the API server's in-process mode.
  const extractor = createIsolatedExtractor({
    ...config.extraction,
    onKill: (reason) => log.warn({ reason }, 'parser process killed'),
  });
  extractor.warm();
  const provider = createAiProvider(config.ai);
  const pipeline = createGenerationPipeline({
    provider,
    extractor,
    clock: systemClock,
    ai: config.ai,
    figures: defaultFigureLimits,
  });
  const worker = startGenerationWorker({
    redisUrl: config.redisUrl,
    queueName: config.generationQueue.name,
    concurrency: config.generationQueue.workerConcurrency,
    pipeline,
    log,
  });
  await worker.worker.waitUntilReady();

  // On SIGTERM/SIGINT: take no new jobs, finish the running ones (up to the generation deadline), then exit.
  closeWithGrace({ delay: config.ai.timeoutMs + config.extraction.timeoutMs }, async ({ signal, err }) => {
    if (err) log.error({ err }, 'worker shutting down after an uncaught error');
    else log.info({ signal }, 'worker shutting down');
    await worker.close();
    await extractor.close();
    await provider.close?.();
  });
  log.info(
    { pid: process.pid, queue: config.generationQueue.name, concurrency: config.generationQueue.workerConcurrency },
    'generation worker ready',
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
