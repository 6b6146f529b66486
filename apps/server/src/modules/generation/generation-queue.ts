import type { CardStyle, GeneratedCard, GenerationProgress, GenerationStreamError } from '@flashcards/shared/api-types';
import { type ErrorCode, errorCodes } from '@flashcards/shared/errors';
import { type Job, Queue, QueueEvents } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { FileKind } from '../../adapters/extract/extracted';
import { readFileSource } from '../../adapters/extract/extracted';
import { AppError, errors } from '../../http/app-error';
import {
  GenerationCancelledError,
  type GenerationEvents,
  type GenerationJob,
  type GenerationRunner,
} from './generation-pipeline';

/**
 * Generation on a BullMQ queue in Redis: the API server that took the request adds a job, relays the worker's
 * progress and cards (Redis pub/sub) to its caller, and waits for the result (BullMQ's completion events). Workers
 * (`npm run worker`, generation-worker.ts) run the same pipeline as the in-process runner.
 */

/** What a job carries: the text and the uploaded bytes (base64), and when it must be finished. */
export interface GenerationJobData {
  text: string;
  /** Absent in jobs queued by a server from before card styles: basic. */
  cardStyle?: CardStyle;
  file: { kind: FileKind; base64: string } | null;
  /** Epoch ms: past it the job is dropped (not started) or stopped, and the request ends with ai_timeout. */
  deadlineAt: number;
}

/** A worker's answer: the final list, the error the JSON reply would give, or: the client left. */
export type GenerationJobResult =
  | { ok: true; cards: GeneratedCard[] }
  | { ok: false; error: GenerationStreamError }
  | { ok: false; cancelled: true };

/** Published by the worker on the job's channel as the work advances. */
export type GenerationJobMessage =
  | { type: 'progress'; data: GenerationProgress }
  | { type: 'card'; data: GeneratedCard };

/** How the queue is tuned, shared by both sides. */
export const queueTuning = {
  /** A worker holding a job renews its lock every half of this; a SIGKILLed worker's job is stalled after it. */
  lockDurationMs: 6_000,
  /** How often workers look for stalled jobs (and put them back in the queue for another worker). */
  stalledIntervalMs: 3_000,
  /** A job whose worker died twice fails: the request ends with an `error` event and a refund. */
  maxStalledCount: 1,
  /** The API server waits this long past a job's deadline for the worker's own timeout answer. */
  graceMs: 5_000,
} as const;

export const channels = {
  events: (queueName: string, jobId: string) => `${queueName}:generation-events:${jobId}`,
  cancel: (queueName: string) => `${queueName}:generation-cancel`,
};

/** A BullMQ connection: blocking commands must wait as long as they need. */
export function queueConnection(redisUrl: string): Redis {
  return new Redis(redisUrl, { maxRetriesPerRequest: null, enableOfflineQueue: true });
}

export interface QueueRunnerOptions {
  redisUrl: string;
  queueName: string;
  /** Time allowed for reading a file and for the AI part: a job's deadline is their sum from when it is queued. */
  extractTimeoutMs: number;
  aiTimeoutMs: number;
  now?: () => number;
}

function cardKey(card: GeneratedCard): string {
  return `${card.question}\u0000${card.answer}`;
}

/** The API server's side of the queue: a GenerationRunner that queues the job and relays what its worker says. */
export function createQueueRunner(options: QueueRunnerOptions): GenerationRunner & { close(): Promise<void> } {
  const now = options.now ?? Date.now;
  const connection = queueConnection(options.redisUrl);
  const subscriber = queueConnection(options.redisUrl);
  const queue = new Queue<GenerationJobData, GenerationJobResult>(options.queueName, { connection });
  const eventsConnection = queueConnection(options.redisUrl);
  const queueEvents = new QueueEvents(options.queueName, { connection: eventsConnection });
  const listeners = new Map<string, (message: GenerationJobMessage) => void>();
  subscriber.on('message', (channel: string, raw: string) => {
    const listener = listeners.get(channel);
    if (!listener) return;
    try {
      listener(JSON.parse(raw) as GenerationJobMessage);
    } catch {
      // a malformed message is dropped
    }
  });
  const ready = queueEvents.waitUntilReady();

  return {
    async run(job: GenerationJob, log: FastifyBaseLogger, events: GenerationEvents = {}) {
      await ready;
      const deadlineAt = now() + (job.file ? options.extractTimeoutMs : 0) + options.aiTimeoutMs;
      const jobId = crypto.randomUUID();
      const channel = channels.events(options.queueName, jobId);
      // Cards already relayed: a job retried after its worker died writes them again, and they are not repeated.
      const relayed = new Set<string>();
      listeners.set(channel, (message) => {
        if (message.type === 'progress') events.onProgress?.(message.data);
        else if (message.type === 'card' && !relayed.has(cardKey(message.data))) {
          relayed.add(cardKey(message.data));
          events.onCard?.(message.data);
        }
      });
      await subscriber.subscribe(channel);
      let queued: Job<GenerationJobData, GenerationJobResult> | undefined;
      const cancel = () => {
        void connection.publish(channels.cancel(options.queueName), jobId).catch(() => {});
        void queued?.remove().catch(() => {});
      };
      events.signal?.addEventListener('abort', cancel, { once: true });
      try {
        queued = await queue.add(
          'generate',
          {
            text: job.text,
            cardStyle: job.cardStyle,
            file: job.file
              ? { kind: job.file.kind, base64: (await readFileSource(job.file.source)).toString('base64') }
              : null,
            deadlineAt,
          },
          { jobId, attempts: 1, removeOnComplete: { age: 300 }, removeOnFail: { age: 3600 } },
        );
        log.info({ jobId, queue: options.queueName }, 'generation queued');
        const waited = deadlineAt - now() + queueTuning.graceMs;
        const cancelled = new Promise<never>((_, reject) => {
          if (events.signal?.aborted) reject(new GenerationCancelledError('the client left'));
          events.signal?.addEventListener('abort', () => reject(new GenerationCancelledError('the client left')), {
            once: true,
          });
        });
        let result: GenerationJobResult;
        try {
          result = await Promise.race([queued.waitUntilFinished(queueEvents, waited), cancelled]);
        } catch (error) {
          if (error instanceof GenerationCancelledError) throw error;
          const reason = error instanceof Error ? error.message : String(error);
          if (/timed out|ttl/i.test(reason)) {
            cancel();
            log.warn({ jobId }, 'generation job passed its deadline');
            throw errors.aiTimeout();
          }
          // The job failed outside the pipeline: its worker died more often than allowed (stalled), or crashed.
          log.error({ jobId, reason }, 'generation job failed');
          throw errors.aiUnavailable();
        }
        if (result.ok) return result.cards;
        if ('cancelled' in result) throw new GenerationCancelledError('the client left');
        // Codes from a worker of another version are checked against this server's table.
        const code: ErrorCode = result.error.code in errorCodes ? result.error.code : 'internal_error';
        throw new AppError(code, result.error.detail);
      } finally {
        events.signal?.removeEventListener('abort', cancel);
        // Its answer is read: the job (and the upload in its data) leaves Redis now, not when a later job completes.
        // A job still running (cancelled, past its deadline) cannot be removed; its worker drops the upload at its end.
        await queued?.remove().catch(() => {});
        listeners.delete(channel);
        await subscriber.unsubscribe(channel).catch(() => {});
      }
    },
    async close() {
      await queueEvents.close();
      await queue.close();
      for (const redis of [subscriber, connection, eventsConnection]) redis.disconnect();
    },
  };
}
