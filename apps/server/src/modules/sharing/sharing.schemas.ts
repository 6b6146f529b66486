import { z } from 'zod';

/** `{code}` in a path: a share code (an unknown one is the service's 404). */
export const codeParams = z.object({ code: z.string().meta({ description: 'The share code from the link' }) });

export const shareLinkSchema = z.object({ share_code: z.string(), expires_at: z.iso.datetime() });

export const sharedCopySchema = z.object({ _id: z.string(), name: z.string() });
