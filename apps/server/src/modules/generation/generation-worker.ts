import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { Worker } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../http/app-error';
import { toAppError } from '../../http/to-app-error';
import { GenerationCancelledError, type GenerationRunner } from './generation-pipeline';
import {
  channels,
  type GenerationJobData,
  type GenerationJobMessage,
  type GenerationJobResult,
  queueConnection,
  queueTuning,
} from './generation-queue';

export interface GenerationWorkerOptions {
  redisUrl: string;
  queueName: string;
  /** Jobs this process runs at the same time. */
  concurrency: number;
  /** The same pipeline the API server runs in process: isolated parsers, then the AI provider. */
  pipeline: GenerationRunner;
  log: FastifyBaseLogger;
  now?: () => number;
}

/**
 * A queue worker (`npm run worker`): takes generation jobs from the queue, runs them through the pipeline, and
 * publishes progress and cards on the job's channel as they come. A job is stopped when its request's client
 * leaves (a cancel message) or its deadline passes. Pipeline failures are answers (`ok: false`), not job
 * failures: only a worker that dies mid-job (its lock lapses) makes BullMQ put the job back for another worker.
 */
export function startGenerationWorker(options: GenerationWorkerOptions) {
  const now = options.now ?? Date.now;
  const { log } = options;
  const publisher = queueConnection(options.redisUrl);
  const subscriber = queueConnection(options.redisUrl);
  const workerConnection = queueConnection(options.redisUrl);
  const running = new Map<string, AbortController>();
  void subscriber.subscribe(channels.cancel(options.queueName));
  subscriber.on('message', (_channel: string, jobId: string) => running.get(jobId)?.abort());

  const worker = new Worker<GenerationJobData, GenerationJobResult>(
    options.queueName,
    async (job): Promise<GenerationJobResult> => {
      const jobId = job.id ?? '';
      const channel = channels.events(options.queueName, jobId);
      const publish = (message: GenerationJobMessage) => {
        void publisher.publish(channel, JSON.stringify(message)).catch(() => {});
      };
      const { deadlineAt } = job.data;
      if (now() >= deadlineAt) {
        return { ok: false, error: { status: 504, code: 'ai_timeout', detail: messages.generationTimeout } };
      }
      log.info({ jobId, pid: process.pid, attempt: job.attemptsStarted }, 'generation job started');
      const cancel = new AbortController();
      running.set(jobId, cancel);
      const deadline = AbortSignal.timeout(deadlineAt - now());
      try {
        const cards = await options.pipeline.run(
          {
            text: job.data.text,
            cardStyle: job.data.cardStyle ?? 'basic',
            file: job.data.file
              ? { kind: job.data.file.kind, source: Buffer.from(job.data.file.base64, 'base64') }
              : null,
          },
          log,
          {
            signal: AbortSignal.any([cancel.signal, deadline]),
            onProgress: (data) => publish({ type: 'progress', data }),
            onCard: (data) => publish({ type: 'card', data }),
          },
        );
        return { ok: true, cards };
      } catch (error) {
        if (error instanceof GenerationCancelledError) {
          if (deadline.aborted) {
            return { ok: false, error: { status: 504, code: 'ai_timeout', detail: messages.generationTimeout } };
          }
          log.info({ jobId }, 'generation job cancelled: the client left');
          return { ok: false, cancelled: true };
        }
        const mapped = toAppError(error, log);
        if (mapped instanceof AppError) {
          return { ok: false, error: { status: mapped.statusCode, code: mapped.code, detail: mapped.detail } };
        }
        log.error({ err: error, jobId }, 'generation job failed');
        return { ok: false, error: { status: 500, code: 'internal_error', detail: serverMessages.internalError } };
      } finally {
        running.delete(jobId);
        // The upload (base64, up to 14 MB) is not kept in Redis past its job, whatever BullMQ keeps of the job.
        if (job.data.file) await job.updateData({ ...job.data, file: null }).catch(() => {});
      }
    },
    {
      connection: workerConnection,
      concurrency: options.concurrency,
      lockDuration: queueTuning.lockDurationMs,
      stalledInterval: queueTuning.stalledIntervalMs,
      maxStalledCount: queueTuning.maxStalledCount,
    },
  );
  worker.on('error', (error) => log.error({ err: error }, 'generation worker error'));
  worker.on('stalled', (jobId) => log.warn({ jobId }, 'generation job stalled: its worker stopped; queued again'));

  return {
    worker,
    /** Stops taking jobs and lets the running ones finish. */
    async close() {
      await worker.close();
      for (const redis of [publisher, subscriber, workerConnection]) redis.disconnect();
    },
  };
}
