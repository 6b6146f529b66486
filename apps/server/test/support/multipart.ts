import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

export interface FormPart {
  name: string;
  value: string | Buffer;
  /** Makes the part a file. */
  filename?: string;
  contentType?: string;
}

/** A multipart/form-data body as a browser's FormData would send it, for app.inject. */
export function multipartBody(parts: FormPart[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----form${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      part.filename === undefined
        ? `form-data; name="${part.name}"`
        : `form-data; name="${part.name}"; filename="${part.filename}"`;
    const type =
      part.filename === undefined ? '' : `Content-Type: ${part.contentType ?? 'application/octet-stream'}\r\n`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`));
    chunks.push(typeof part.value === 'string' ? Buffer.from(part.value) : part.value);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** POSTs a multipart form through `app.inject`, as the web app's uploads send it. The answer is the caller's to check. */
export function postMultipart(app: FastifyInstance, url: string, headers: Record<string, string>, parts: FormPart[]) {
  const body = multipartBody(parts);
  return app.inject({ method: 'POST', url, headers: { ...headers, ...body.headers }, payload: body.payload });
}
