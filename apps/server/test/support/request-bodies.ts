import type { FastifyInstance } from 'fastify';

/**
 * POST a url-encoded form, as the web app's forms send it: `form` is the encoded body as written, or its fields.
 * Pass `{}` as headers for a request without a login. The answer is the caller's to check.
 */
export function postForm(
  app: FastifyInstance,
  url: string,
  headers: Record<string, string>,
  form: string | Record<string, string>,
) {
  return app.inject({
    method: 'POST',
    url,
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    payload: typeof form === 'string' ? form : new URLSearchParams(form).toString(),
  });
}

/** A body that claims to be JSON and does not parse (`text` as written). The answer is the caller's to check. */
export function sendBrokenJson(
  app: FastifyInstance,
  method: 'POST' | 'PUT',
  url: string,
  headers: Record<string, string>,
  text: string,
) {
  return app.inject({ method, url, headers: { ...headers, 'content-type': 'application/json' }, payload: text });
}
