import { limits } from '@flashcards/shared/limits';
import { z } from 'zod';

/** POST /create's parts (the route streams them: generation.routes.ts; a JSON or form body may carry `text`). */
export const generationForm = z.object({
  text: z.string().max(limits.maxTextLength).optional(),
  file: z
    .string()
    .meta({ format: 'binary', description: 'PDF, TXT, DOCX, DOC, PPTX, JPG or PNG, up to 10 MB' })
    .optional(),
});
