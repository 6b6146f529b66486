import { z } from 'zod';
import { sharedDeckInfoSchema } from '../../http/api-schemas';
import { type ApiPaths, operation } from '../../http/openapi-legacy';
import { deckIdParams } from '../../http/request-schemas';

const codeParams = z.object({ code: z.string().meta({ description: 'The share code from the link' }) });

/** docs/api.md, "Sharing". */
export const sharingPaths: ApiPaths = {
  '/decks/{id}/share': {
    post: operation({
      summary: 'A share link for a deck (the same one while it lasts)',
      tags: ['Sharing'],
      auth: true,
      params: deckIdParams,
      success: {
        status: 200,
        description: 'The code; the link is origin + /share/ + code',
        schema: z.object({ share_code: z.string(), expires_at: z.iso.datetime() }),
      },
      errors: ['deck_not_found'],
    }),
  },
  '/shared/{code}': {
    get: operation({
      summary: 'What a share link holds (no sign-in needed)',
      tags: ['Sharing'],
      params: codeParams,
      success: { status: 200, description: 'The shared deck', schema: sharedDeckInfoSchema },
      errors: ['share_not_found', 'share_expired'],
    }),
  },
  '/shared/{code}/import': {
    post: operation({
      summary: "Copy a shared deck and its cards into the caller's account, all new",
      tags: ['Sharing'],
      auth: true,
      params: codeParams,
      success: { status: 201, description: 'The copy', schema: z.object({ _id: z.string(), name: z.string() }) },
      errors: ['share_not_found', 'share_expired', 'already_imported'],
    }),
  },
};
