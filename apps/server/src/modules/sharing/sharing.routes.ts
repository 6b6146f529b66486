import { sharedDeckInfoSchema } from '../../http/api-schemas';
import { currentUser } from '../../http/authenticate';
import { deckIdParams } from '../../http/request-schemas';
import type { App } from '../../http/validation';
import { codeParams, sharedCopySchema, shareLinkSchema } from './sharing.schemas';
import type { SharingService } from './sharing.service';

/** docs/api.md, "Sharing". */
export function sharingRoutes(app: App, sharing: SharingService): void {
  const tags: ['Sharing'] = ['Sharing'];

  app.post(
    '/decks/:id/share',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'A share link for a deck (the same one while it lasts)',
        description: 'The link is origin + /share/ + the code.',
        tags,
        params: deckIdParams,
        response: { 200: shareLinkSchema },
        errors: ['deck_not_found'],
      },
    },
    async (request) => sharing.share(currentUser(request).id, request.params.id),
  );

  // Public: the code is the permission.
  app.get(
    '/shared/:code',
    {
      schema: {
        summary: 'What a share link holds (no sign-in needed)',
        tags,
        params: codeParams,
        response: { 200: sharedDeckInfoSchema },
        errors: ['share_not_found', 'share_expired'],
      },
    },
    async (request) => sharing.info(request.params.code),
  );

  app.post(
    '/shared/:code/import',
    {
      onRequest: app.authenticate,
      schema: {
        summary: "Copy a shared deck and its cards into the caller's account, all new",
        tags,
        params: codeParams,
        response: { 201: sharedCopySchema },
        errors: ['share_not_found', 'share_expired', 'already_imported'],
      },
    },
    async (request, reply) =>
      reply.status(201).send(await sharing.import(currentUser(request).id, request.params.code)),
  );
}
