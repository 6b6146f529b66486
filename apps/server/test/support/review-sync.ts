import type { SyncResponse, SyncReview } from '@flashcards/shared/api-types';
import { expect } from 'vitest';
import type { TestContext } from './test-app';

type Headers = { authorization: string };

/** POST /reviews/sync as a device sends it (`sync`, any body) and as a test that expects it to succeed (`synced`). */
export function reviewSyncClient(ctx: TestContext) {
  const sync = (headers: Headers, payload: unknown) =>
    ctx.app.inject({ method: 'POST', url: '/reviews/sync', headers, payload: payload as object });
  const synced = async (headers: Headers, reviews: SyncReview[]): Promise<SyncResponse> => {
    const response = await sync(headers, { reviews });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<SyncResponse>();
  };
  return { sync, synced };
}
