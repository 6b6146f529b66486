import type { FileImportResponse } from '@flashcards/shared/api-types';
import { z } from 'zod';

/** POST /import's parts (the route streams the file to a temporary file: interop.routes.ts). */
export const importForm = z.object({
  file: z.string().meta({ format: 'binary', description: '.apkg, .colpkg, .txt, .csv or .tsv' }),
  deck_name: z.string().optional(),
});

export const fileImportResponseSchema = z.object({
  decks: z.array(z.object({ _id: z.string(), name: z.string(), card_count: z.int() })),
  cards_imported: z.int(),
  skipped: z.int(),
  warnings: z.array(z.string()),
}) satisfies z.ZodType<FileImportResponse>;

/** `{name}` in GET /media/{name}: an imported image's content-hash name. */
export const mediaParams = z.object({ name: z.string() });
