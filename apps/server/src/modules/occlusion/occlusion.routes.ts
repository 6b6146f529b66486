import { occlusionSuggestionSchema } from '../../http/api-schemas';
import { currentUser } from '../../http/authenticate';
import { toAppError } from '../../http/to-app-error';
import type { App } from '../../http/validation';
import { suggestRequestSchema } from './occlusion.schemas';
import type { OcclusionService } from './occlusion.service';

/** docs/api.md, "Images on cards, image occlusion, media storage". */
export function occlusionRoutes(app: App, occlusion: OcclusionService): void {
  app.post(
    '/occlusion/suggest',
    {
      onRequest: app.authenticate,
      schema: {
        summary: "Masks suggested for one of the user's images: one box per text label (limited per hour)",
        description:
          'The image is read by OCR in an isolated parser process; the words of one label are merged. Boxes are ' +
          'fractions 0–1 of the image, in reading order. OCCLUSION_RATE_LIMIT_PER_HOUR per user.',
        tags: ['Occlusion'],
        body: suggestRequestSchema,
        response: { 200: occlusionSuggestionSchema },
        errors: ['media_not_found', 'file_unreadable', 'rate_limited', 'busy'],
      },
    },
    async (request, reply) => {
      // The request stream closes once its body is read, so only the answer closing unsent means the client left.
      const ended = new AbortController();
      const onClose = () => {
        if (!reply.raw.writableFinished) ended.abort();
      };
      reply.raw.once('close', onClose);
      try {
        return await occlusion.suggest(currentUser(request).id, request.body.media, ended.signal);
      } catch (error) {
        throw toAppError(error, request.log);
      } finally {
        reply.raw.off('close', onClose);
      }
    },
  );
}
