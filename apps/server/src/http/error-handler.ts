import type { ApiError } from '@flashcards/shared/api-types';
import { type ErrorCode, errorCodes } from '@flashcards/shared/errors';
import { messageText, serverMessages } from '@flashcards/shared/server-messages';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from './app-error';

/**
 * One place that turns every error into the API's `{ detail, code }` (docs/api.md): our AppErrors, Fastify's own
 * (validation, malformed JSON, body too large, wrong content type) and anything unexpected, which is logged
 * and answered with a generic 500 that reveals nothing inside.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) {
      if (error.extra.retryAfterSeconds !== undefined)
        reply.header('retry-after', String(error.extra.retryAfterSeconds));
      // 501: a feature this server is not configured for (Google sign-in): the caller's business, not an error here.
      if (error.statusCode >= 500 && error.statusCode !== 501) request.log.error({ err: error }, error.detail);
      return send(reply, error.code, {
        detail: error.detail,
        code: error.code,
        ...(error.extra.errors ? { errors: error.extra.errors } : {}),
      });
    }

    const fastifyError = error as FastifyError;
    if (fastifyError.validation) {
      const errors = fastifyError.validation.map((issue) => ({
        field:
          issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || String(issue.params?.missingProperty ?? ''),
        message: issue.message ?? 'is not valid',
      }));
      return send(reply, 'validation_failed', {
        detail: serverMessages.validationFailed,
        code: 'validation_failed',
        errors,
      });
    }

    switch (fastifyError.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendCode(reply, 'payload_too_large');
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return sendCode(reply, 'bad_request', serverMessages.malformedJson);
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return sendCode(reply, 'bad_request', serverMessages.unsupportedContentType);
    }

    const status = fastifyError.statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      // Fastify's and its plugins' client errors (empty JSON body, bad multipart…) carry safe messages.
      if (status === 429) return sendCode(reply, 'rate_limited');
      return reply
        .status(status)
        .type(jsonType)
        .send({ detail: fastifyError.message || serverMessages.badRequest, code: 'bad_request' } satisfies ApiError);
    }

    // busboy's and dicer's complaints about a broken multipart body (no boundary, no closing boundary): the client's.
    // The header, not request.isMultipart(): that exists only in the multipart plugin's scope (app.ts).
    if (isMultipartType(request.headers['content-type']) && isMalformedMultipart(error)) {
      return sendCode(reply, 'bad_request', serverMessages.malformedMultipart);
    }

    request.log.error({ err: error }, 'unhandled error');
    return sendCode(reply, 'internal_error');
  });
}

const malformedMultipartPattern =
  /^(Multipart: Boundary not found|Unexpected end of (multipart data|form)|\w+ terminated early due to unexpected end of multipart data|Malformed part header|Malformed urlencoded form)/;

function isMultipartType(contentType: string | undefined): boolean {
  return contentType !== undefined && /^multipart\//i.test(contentType);
}

function isMalformedMultipart(error: Error): boolean {
  return malformedMultipartPattern.test(error.message ?? '');
}

const jsonType = 'application/json; charset=utf-8';

function send(reply: FastifyReply, code: ErrorCode, body: ApiError): FastifyReply {
  return reply.status(errorCodes[code].status).type(jsonType).send(body);
}

/** A code with its usual message, or another detail. */
function sendCode(
  reply: FastifyReply,
  code: ErrorCode,
  detail: string = messageText(errorCodes[code].message),
): FastifyReply {
  return send(reply, code, { detail, code });
}
