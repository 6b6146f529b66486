import type { FastifyRequest } from 'fastify';
import { errors } from './app-error';

/**
 * Reads the plain fields of a form post, whether the client sent it url-encoded (OAuth2 password-form style),
 * as multipart/form-data (a browser's FormData) or as JSON. File parts are refused: these endpoints take none.
 */
export async function readFormFields(request: FastifyRequest): Promise<Record<string, string>> {
  // isMultipart exists only in the multipart plugin's scope (app.ts); elsewhere a multipart body never parses.
  if (typeof request.isMultipart === 'function' && request.isMultipart()) {
    const fields: Record<string, string> = {};
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        part.file.resume();
        throw errors.badRequest();
      }
      if (typeof part.value === 'string') fields[part.fieldname] = part.value;
    }
    return fields;
  }
  const body = request.body;
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw errors.badRequest();
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) {
    if (typeof value === 'string') fields[key] = value;
  }
  return fields;
}
