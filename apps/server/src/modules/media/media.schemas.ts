import type { UploadedMedia } from '@flashcards/shared/api-types';
import { z } from 'zod';

/** POST /media's part (the route reads it with a size cap: media.routes.ts). */
export const mediaUploadForm = z.object({
  file: z.string().meta({ format: 'binary', description: 'A JPG, PNG, WebP or GIF image' }),
});

export const uploadedMediaSchema = z.object({
  name: z.string(),
  url: z.string(),
  width: z.int(),
  height: z.int(),
  content_type: z.enum(['image/jpeg', 'image/png', 'image/webp', 'image/gif']),
}) satisfies z.ZodType<UploadedMedia>;
