import { fillMessage } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import type { FastifyRequest } from 'fastify';
import { errors } from '../../http/app-error';
import { currentUser } from '../../http/authenticate';
import { toAppError } from '../../http/to-app-error';
import type { App } from '../../http/validation';
import { mediaUploadForm, uploadedMediaSchema } from './media.schemas';
import { formatBytes, type MediaService, unsupportedImageType } from './media.service';

// Multipart framing on top of the file itself.
const maxMultipartOverhead = 64 * 1024;

const imageTooLarge = (maxBytes: number) =>
  errors.fileTooLarge({ detail: fillMessage(serverMessages.imageTooLarge, { size: formatBytes(maxBytes) }) });

/** The multipart `file`, read into memory up to `maxBytes` (an image is stored whole anyway). */
async function receiveImage(request: FastifyRequest, maxBytes: number): Promise<Buffer> {
  if (!request.isMultipart()) throw unsupportedImageType();
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes + maxMultipartOverhead) throw imageTooLarge(maxBytes);
  let image: Buffer | undefined;
  for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 1 } })) {
    if (part.type !== 'file') continue;
    if (part.fieldname !== 'file' || image) {
      part.file.resume();
      continue;
    }
    try {
      image = await part.toBuffer();
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw imageTooLarge(maxBytes);
      throw error;
    }
    if (part.file.truncated) throw imageTooLarge(maxBytes);
  }
  if (!image || image.byteLength === 0) {
    throw errors.validationFailed({
      message: 'imageNoFile',
      errors: [{ field: 'file', message: serverMessages.imageNoFile }],
    });
  }
  return image;
}

/** docs/api.md, "Images on cards, image occlusion, media storage". GET /media/{name} is in interop.routes.ts. */
export function mediaRoutes(app: App, media: MediaService, options: { maxUploadBytes: number }) {
  app.post(
    '/media',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Upload an image (JPG, PNG, WebP or GIF) to show on cards',
        description:
          'Checked by its first bytes, then decoded in an isolated parser process with the pixel, frame, time and ' +
          'memory caps of uploads. An image no card uses is deleted MEDIA_UNUSED_TTL after its upload.',
        tags: ['Images'],
        parts: mediaUploadForm,
        response: { 201: uploadedMediaSchema },
        errors: [
          'file_too_large',
          'unsupported_file_type',
          'file_unreadable',
          'media_quota_exceeded',
          'rate_limited',
          'busy',
        ],
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      await media.admitUpload(user.id);
      const image = await receiveImage(request, options.maxUploadBytes);
      try {
        return reply.status(201).send(await media.upload(user.id, image));
      } catch (error) {
        throw toAppError(error, request.log);
      }
    },
  );
}

/** Frames of an animated image at most: an animation of more is not a figure for a card. */
export const MEDIA_MAX_FRAMES = 500;
