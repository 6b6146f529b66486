import type { FileImportResponse } from '@flashcards/shared/api-types';
import { z } from 'zod';
import { type ApiPaths, multipart, operation } from '../../http/openapi-legacy';
import { deckIdParams } from '../../http/request-schemas';

/** POST /import's form, as documented (the route streams it to a temporary file: interop.routes.ts). */
const importForm = z.object({
  file: z.string().meta({ format: 'binary', description: '.apkg, .colpkg, .txt, .csv or .tsv' }),
  deck_name: z.string().optional(),
});

const fileImportResponseSchema = z.object({
  decks: z.array(z.object({ _id: z.string(), name: z.string(), card_count: z.int() })),
  cards_imported: z.int(),
  skipped: z.int(),
  warnings: z.array(z.string()),
}) satisfies z.ZodType<FileImportResponse>;

const binary = (description: string, contentType: string) => ({
  status: 200,
  description,
  schema: z.string().meta({ format: 'binary' }),
  contentType,
});

/** docs/api.md, "Anki interop". */
export const interopPaths: ApiPaths = {
  '/import': {
    post: operation({
      summary: 'Import an Anki package or a text/CSV file of cards (costs no generation)',
      tags: ['Anki interop'],
      auth: true,
      body: multipart(importForm),
      success: { status: 201, description: 'What was imported', schema: fileImportResponseSchema },
      errors: [
        'file_too_large',
        'unsupported_file_type',
        'invalid_package',
        'import_in_progress',
        'rate_limited',
        'busy',
        'too_many_decks',
        'too_many_cards',
        'rate_limited',
        'media_quota_exceeded',
      ],
    }),
  },
  '/decks/{id}/export.apkg': {
    get: operation({
      summary: 'A deck as an Anki package',
      tags: ['Anki interop'],
      auth: true,
      params: deckIdParams,
      success: binary('The .apkg file (Content-Disposition: attachment)', 'application/octet-stream'),
      errors: ['deck_not_found', 'rate_limited'],
    }),
  },
  '/media/{name}': {
    get: operation({
      summary: "An imported card's image (no sign-in: the unguessable name is the permission)",
      tags: ['Anki interop'],
      params: z.object({ name: z.string() }),
      description:
        'Streamed in chunks. Cached privately for a year (`ETag` is the name; a matching `If-None-Match` answers ' +
        '304). MEDIA_RATE_LIMIT_PER_MINUTE per client address.',
      success: binary('The image, cached for a year', 'image/*'),
      errors: ['media_not_found', 'rate_limited'],
    }),
  },
};
