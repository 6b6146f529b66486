import type { FastifyInstance } from 'fastify';
import { appError } from './app-error';

/** Walks a parsed body, query or params object (bounded depth) looking for a string that holds U+0000. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 64 || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return false;
  if (Array.isArray(value)) return value.some((item) => containsNul(item, depth + 1));
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000') || containsNul(item, depth + 1)) return true;
  }
  return false;
}

/**
 * Input no route can store the same way on both databases is refused up front: PostgreSQL text cannot hold U+0000
 * (SQLite can), so a NUL anywhere in a JSON or form body, the query string or a path parameter is a 422 on both.
 * Form fields read from a multipart body are checked by the route's schema (validation.ts).
 */
export function registerInputGuards(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    if (containsNul(request.params) || containsNul(request.query) || containsNul(request.body)) {
      done(appError('validation_failed', { message: 'nulCharacter' }));
      return;
    }
    done();
  });
}
