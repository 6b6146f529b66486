import type { OcclusionSuggestion } from '@flashcards/shared/api-types';
import type { LabelFinder } from '../../adapters/occlusion/label-finder';
import type { RateLimiter } from '../../adapters/rate-limit/rate-limiter';
import { errors, rateLimited } from '../../http/app-error';
import type { OcclusionRepo } from './occlusion.repo';

export interface OcclusionServiceDeps {
  repo: OcclusionRepo;
  labels: Pick<LabelFinder, 'find'>;
  /** Suggestions per user per hour (OCCLUSION_RATE_LIMIT_PER_HOUR). */
  limiter: RateLimiter;
}

/**
 * Image occlusion: masks suggested from an image's own text labels. The image is read in an isolated parser
 * process (label-worker.ts); an image that is not the user's is 404, one that cannot be read is the adapter's
 * failure (the route maps it with toAppError).
 */
export function createOcclusionService(deps: OcclusionServiceDeps) {
  return {
    async suggest(userId: string, media: string, signal?: AbortSignal): Promise<OcclusionSuggestion> {
      const waitMs = await deps.limiter.hit(userId);
      if (waitMs !== null) throw rateLimited(waitMs);
      const bytes = await deps.repo.imageBytes(userId, media);
      if (!bytes) throw errors.mediaNotFound();
      const found = await deps.labels.find(bytes, signal);
      return { width: found.width, height: found.height, boxes: found.boxes };
    },
  };
}

export type OcclusionService = ReturnType<typeof createOcclusionService>;
