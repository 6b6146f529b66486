import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { noContent, nonJson } from '../../http/api-schemas';
import { errors } from '../../http/app-error';
import { currentUser } from '../../http/authenticate';
import { deckIdParams } from '../../http/request-schemas';
import type { App } from '../../http/validation';
import { fileImportResponseSchema, importForm, mediaParams } from './interop.schemas';
import { type InteropService, importKind, importTooLarge, unsupportedImportType } from './interop.service';

// Multipart framing and the deck_name field on top of the file itself.
const maxMultipartOverhead = 64 * 1024;

/** A file name for Content-Disposition: the deck's name, without what a header or a file system would choke on. */
export function exportFileName(deckName: string): { ascii: string; utf8: string } {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
  const safe = deckName.replace(/[\u0000-\u001f\u007f"\\/:*?<>|]+/g, '_').trim() || 'deck';
  return { ascii: `${safe.replace(/[^\u0020-\u007e]/g, '_')}.apkg`, utf8: `${safe}.apkg` };
}

/**
 * Streams the multipart `file` to a temporary file, stopping at IMPORT_MAX_BYTES, so an upload never sits in
 * memory. The caller removes `dir`.
 */
async function receiveUpload(request: FastifyRequest, dir: string, maxBytes: number) {
  if (!request.isMultipart()) throw unsupportedImportType();
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes + maxMultipartOverhead) throw importTooLarge(maxBytes);
  let upload: { filePath: string; filename: string } | null = null;
  let unsupported = false;
  let deckName: string | undefined;
  for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 1 } })) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file' || upload || unsupported) {
        part.file.resume();
        continue;
      }
      const filename = part.filename ?? '';
      if (!importKind(filename)) {
        unsupported = true;
        part.file.resume();
        continue;
      }
      const filePath = path.join(dir, 'upload');
      try {
        await pipeline(part.file, createWriteStream(filePath, { mode: 0o600 }));
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw importTooLarge(maxBytes);
        throw error;
      }
      if (part.file.truncated) throw importTooLarge(maxBytes);
      upload = { filePath, filename };
    } else if (part.fieldname === 'deck_name' && typeof part.value === 'string') {
      deckName = part.value;
    }
  }
  if (unsupported) throw unsupportedImportType();
  if (!upload) {
    throw errors.validationFailed({ message: 'importNoFile', errors: [{ field: 'file', message: 'is required' }] });
  }
  return { ...upload, deckName };
}

/** docs/api.md, "Anki interop". */
export function interopRoutes(app: App, interop: InteropService, options: { maxImportBytes: number }) {
  const tags: ['Anki interop'] = ['Anki interop'];

  app.post(
    '/import',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Import an Anki package or a text/CSV file of cards (costs no generation)',
        tags,
        parts: importForm,
        response: { 201: fileImportResponseSchema },
        errors: [
          'file_too_large',
          'unsupported_file_type',
          'invalid_package',
          'import_in_progress',
          'rate_limited',
          'busy',
          'too_many_decks',
          'too_many_cards',
          'media_quota_exceeded',
        ],
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      await interop.admitImport(user.id);
      const dir = await mkdtemp(path.join(os.tmpdir(), 'flashcards-import-'));
      // A client that leaves stops the reading of its file (the reading process is killed).
      const left = new AbortController();
      const onClose = () => {
        if (!reply.raw.writableFinished) left.abort();
      };
      reply.raw.once('close', onClose);
      try {
        const upload = await receiveUpload(request, dir, options.maxImportBytes);
        return reply.status(201).send(await interop.import(user.id, upload, left.signal));
      } finally {
        reply.raw.off('close', onClose);
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  app.get(
    '/decks/:id/export.apkg',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'A deck as an Anki package',
        tags,
        params: deckIdParams,
        response: {
          200: nonJson('application/octet-stream', 'The .apkg file (Content-Disposition: attachment)', 'binary'),
        },
        errors: ['deck_not_found', 'rate_limited'],
      },
    },
    async (request, reply) => {
      const { deckName, body } = await interop.exportApkg(currentUser(request).id, request.params.id);
      const name = exportFileName(deckName);
      return reply
        .type('application/octet-stream')
        .header('cache-control', 'no-store')
        .header(
          'content-disposition',
          `attachment; filename="${name.ascii}"; filename*=UTF-8''${encodeURIComponent(name.utf8)}`,
        )
        .send(body);
    },
  );

  // Public: the unguessable name is the permission, so an <img> loads it without a token.
  app.get(
    '/media/:name',
    {
      schema: {
        summary: "An imported card's image (no sign-in: the unguessable name is the permission)",
        description:
          'Streamed in chunks. Cached privately for a year (`ETag` is the name; a matching `If-None-Match` answers ' +
          '304). MEDIA_RATE_LIMIT_PER_MINUTE per client address.',
        tags,
        params: mediaParams,
        response: {
          200: nonJson('image/*', 'The image, cached for a year', 'binary'),
          304: noContent('Not modified: the client holds this image'),
        },
        errors: ['media_not_found', 'rate_limited'],
      },
    },
    async (request, reply) => {
      const media = await interop.media(request.params.name, request.ip);
      // A name is a hash of the content, so it never changes: the name is the validator, and a match costs no read.
      const etag = `"${request.params.name}"`;
      reply
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', mediaCacheControl)
        .header('etag', etag)
        .header('content-security-policy', "default-src 'none'; sandbox");
      if (request.headers['if-none-match'] === etag) {
        media.body.destroy();
        return reply.status(304).send();
      }
      return reply.type(media.contentType).header('content-length', media.size).send(media.body);
    },
  );
}

/**
 * Names never change content (immutable), and `private` keeps proxies and shared caches out: once its owner deletes
 * an image, only browsers that already showed it keep a copy.
 */
export const mediaCacheControl = 'private, max-age=31536000, immutable';
