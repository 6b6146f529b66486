import type { GenerationStreamError } from '@flashcards/shared/api-types';
import { limits } from '@flashcards/shared/limits';
import { serverMessages } from '@flashcards/shared/server-messages';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { UploadDir } from '../../adapters/uploads/upload-dir';
import { generateResponseSchema } from '../../http/api-schemas';
import { AppError, errors } from '../../http/app-error';
import { currentUser } from '../../http/authenticate';
import { type EventStream, openEventStream, wantsEventStream } from '../../http/event-stream';
import { readFormFields } from '../../http/form-fields';
import type { App } from '../../http/validation';
import { cardStyleOf, generationForm } from './generation.schemas';
import type { GenerationInput, GenerationService } from './generation.service';
import { GenerationCancelledError } from './generation-pipeline';

// Multipart framing and the text field on top of the file itself.
const maxMultipartOverhead = 2 * 1024 * 1024;

/** The form as read, its card style not yet checked. */
type RawGenerationInput = Omit<GenerationInput, 'cardStyle'> & { cardStyle: unknown };

/**
 * Reads `text`, `card_style` and `file` from a multipart form (a JSON or url-encoded body may carry `text` alone). The file is
 * streamed to a temporary file (the caller removes it) and reading stops at the size limit: nothing beyond it is
 * ever written.
 */
async function readGenerationInput(request: FastifyRequest, uploads: UploadDir): Promise<RawGenerationInput> {
  if (!request.isMultipart()) {
    const fields = await readFormFields(request);
    // Read as sent, so that a card_style of the wrong type (a number, a list) is refused rather than ignored.
    const sent = request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {};
    return { text: fields.text ?? '', file: null, cardStyle: sent.card_style, ...deckIdOf(sent.deck_id) };
  }
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.maxFileBytes + maxMultipartOverhead) {
    throw errors.fileTooLarge();
  }
  let text = '';
  let cardStyle: string | undefined;
  let deckId: unknown;
  let saved: { path: string; filename: string } | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || saved) {
          part.file.resume();
          continue;
        }
        const upload = await uploads.save(part.file).catch((error: unknown) => {
          throw (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE' ? errors.fileTooLarge() : error;
        });
        // A browser sends an empty part for an empty file input: that is no file.
        if (upload.size === 0) {
          await uploads.remove(upload.path);
          continue;
        }
        saved = { path: upload.path, filename: part.filename ?? '' };
        if (part.file.truncated || upload.size > limits.maxFileBytes) throw errors.fileTooLarge();
      } else if (part.fieldname === 'text') {
        if (part.valueTruncated) throw errors.textTooLong();
        text = typeof part.value === 'string' ? part.value : '';
      } else if (part.fieldname === 'card_style') {
        cardStyle = typeof part.value === 'string' ? part.value : '';
      } else if (part.fieldname === 'deck_id') {
        deckId = part.value;
      }
    }
  } catch (error) {
    if (saved) await uploads.remove(saved.path);
    throw error;
  }
  return {
    text,
    file: saved ? { source: { path: saved.path }, filename: saved.filename } : null,
    cardStyle,
    ...deckIdOf(deckId),
  };
}

/** `deck_id` as sent: absent or empty is no deck; anything else is checked as the user's deck (404 otherwise). */
function deckIdOf(value: unknown): { deckId?: string } {
  if (value === undefined || value === null || value === '') return {};
  return { deckId: typeof value === 'string' ? value : '' };
}

/** What the `error` event says: the JSON reply's detail and code, with its status; internals never leave. */
function streamError(error: unknown, log: FastifyBaseLogger): GenerationStreamError {
  if (error instanceof AppError) {
    if (error.statusCode >= 500) log.error({ err: error }, error.detail);
    return { detail: error.detail, code: error.code, status: error.statusCode };
  }
  log.error({ err: error }, 'unhandled error');
  return { detail: serverMessages.internalError, code: 'internal_error', status: 500 };
}

export interface GenerationRouteOptions {
  /** Idle time before a `: keep-alive` comment (docs/api.md, "Streaming generation": at most 15 s). */
  keepAliveMs: number;
  /** Where uploads wait while they are parsed. */
  uploads: UploadDir;
}

/**
 * POST /create. With `Accept: text/event-stream` it streams `progress`, `card`, then `done` or `error` (checks that
 * fail before any work still answer JSON); otherwise one JSON reply. Either way a client that disconnects aborts
 * its work. docs/api.md, "Card generation".
 */
export function generationRoutes(app: App, generation: GenerationService, options: GenerationRouteOptions): void {
  app.post(
    '/create',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Generate cards from text or a file (costs 1, 3 or 5 generations, refunded on failure)',
        description:
          'With `Accept: text/event-stream` the answer streams: `progress`, `card` (as soon as each is known), then ' +
          '`done` (the JSON body) or `error` (`{ detail, code, status }`). Checks that fail before any work answer ' +
          'as JSON errors either way.',
        tags: ['Generation'],
        parts: generationForm,
        response: { 200: generateResponseSchema },
        errors: [
          'empty_input',
          'text_too_long',
          'file_too_large',
          'unsupported_file_type',
          'file_unreadable',
          'no_cards_generated',
          'deck_not_found',
          'insufficient_quota',
          'rate_limited',
          'busy',
          'generation_in_progress',
          'ai_unavailable',
          'ai_timeout',
        ],
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const raw = await readGenerationInput(request, options.uploads);
      const upload = raw.file && 'path' in raw.file.source ? raw.file.source.path : null;
      try {
        const cardStyle = cardStyleOf(raw.cardStyle);
        return await answer(request, reply, user.id, {
          text: raw.text,
          file: raw.file,
          cardStyle,
          ...(raw.deckId !== undefined ? { deckId: raw.deckId } : {}),
        });
      } finally {
        if (upload) await options.uploads.remove(upload);
      }
    },
  );

  async function answer(request: FastifyRequest, reply: FastifyReply, userId: string, input: GenerationInput) {
    const left = new AbortController();
    const onClose = () => {
      if (!reply.raw.writableFinished) left.abort();
    };
    reply.raw.once('close', onClose);
    if (!wantsEventStream(request)) {
      try {
        return await generation.generate(userId, input, request.log, { signal: left.signal });
      } catch (error) {
        if (!(error instanceof GenerationCancelledError)) throw error;
        // Nobody to answer: the connection is gone.
        reply.hijack();
        reply.raw.destroy();
        return undefined;
      } finally {
        reply.raw.off('close', onClose);
      }
    }

    let stream: EventStream | null = null;
    try {
      const result = await generation.generate(userId, input, request.log, {
        signal: left.signal,
        onStart: () => {
          stream = openEventStream(request, reply, options);
        },
        onProgress: (progress) => stream?.send('progress', progress),
        onCard: (card) => stream?.send('card', card),
      });
      // TypeScript cannot see that onStart ran: the stream is open whenever the work started.
      const open = stream as EventStream | null;
      open?.send('done', result);
      open?.end();
    } catch (error) {
      const open = stream as EventStream | null;
      if (!open) throw error;
      if (!(error instanceof GenerationCancelledError)) open.send('error', streamError(error, request.log));
      open.end();
    } finally {
      reply.raw.off('close', onClose);
    }
    return undefined;
  }
}
