import type { SyncResponse, SyncReview } from '@flashcards/shared/api-types';
import { beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, ApiRequestError } from './api-client';
import { clearDevice, keepAnswer, lastSyncAt, waitingAnswers } from './offline-store';
import { refreshOutboxStatus, SYNC_BATCH, syncOutbox, useOutboxStatus } from './outbox-sync';

type Reply = (reviews: SyncReview[]) => SyncResponse | Error;

/** An API client whose POST /reviews/sync answers with `reply`; it records each batch sent. */
function fakeApi(reply: Reply) {
  const batches: SyncReview[][] = [];
  const api = {
    post: async (path: string, options?: { json?: unknown }) => {
      expect(path).toBe('/reviews/sync');
      const reviews = (options as { json: { reviews: SyncReview[] } }).json.reviews;
      batches.push(reviews);
      const answer = reply(reviews);
      if (answer instanceof Error) throw answer;
      return answer;
    },
  } as unknown as ApiClient;
  return { api, batches };
}

const applied: Reply = (reviews) => ({ results: reviews.map(({ id }) => ({ id, status: 'applied' })) });

function review(minute: number, cardId = 'card-1'): SyncReview {
  return {
    id: crypto.randomUUID(),
    card_id: cardId,
    result: 'pass',
    reviewed_at: new Date(Date.UTC(2026, 10, 26, 10, minute)).toISOString(),
  };
}

let status: ReturnType<typeof useOutboxStatus>;

// The store's status is read through its hook's snapshot: a tiny probe instead of a rendered component.
import { renderHook } from '@testing-library/react';

function readStatus() {
  status = renderHook(() => useOutboxStatus()).result.current;
  return status;
}

beforeEach(async () => {
  await clearDevice();
  await refreshOutboxStatus();
});

describe('the answer queue on the device', () => {
  it('sends the waiting answers oldest first, 500 a request, and empties the queue', async () => {
    const reviews = Array.from({ length: 1_200 }, (_, index) => review(index % 600));
    for (const item of [...reviews].reverse()) await keepAnswer(item);
    await refreshOutboxStatus();
    expect(readStatus().waiting).toBe(1_200);
    const { api, batches } = fakeApi(applied);
    await syncOutbox(api, () => 42);
    expect(batches.map((batch) => batch.length)).toEqual([SYNC_BATCH, SYNC_BATCH, 200]);
    const times = batches.flat().map((item) => Date.parse(item.reviewed_at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(new Set(batches.flat().map((item) => item.id)).size).toBe(1_200);
    expect(await waitingAnswers()).toEqual([]);
    expect(await lastSyncAt()).toBe(42);
    expect(readStatus()).toMatchObject({ waiting: 0, lastSync: 42, rejected: null });
  });

  it('keeps every answer when the network fails, and sends them at the next sync', async () => {
    const [first, second] = [review(1), review(2)];
    await keepAnswer(first);
    await keepAnswer(second);
    const offline = fakeApi(() => new ApiRequestError('network', null, null, null));
    await syncOutbox(offline.api);
    expect(offline.batches).toHaveLength(1);
    expect((await waitingAnswers()).map((item) => item.id)).toEqual([first.id, second.id]);
    expect(await lastSyncAt()).toBeNull();
    expect(readStatus().waiting).toBe(2);

    const online = fakeApi(applied);
    await syncOutbox(online.api, () => 7);
    expect(online.batches).toEqual([[first, second]]);
    expect(await waitingAnswers()).toEqual([]);
  });

  it('drops answers the server refused, tells how many and why, and keeps those it did not answer', async () => {
    const [kept, refused, other] = [review(1), review(2), review(3)];
    for (const item of [kept, refused, other]) await keepAnswer(item);
    let calls = 0;
    const { api } = fakeApi(() => {
      calls += 1;
      if (calls > 1) return new ApiRequestError('network', null, null, null);
      return {
        results: [
          { id: kept.id, status: 'superseded' },
          { id: refused.id, status: 'rejected', code: 'review_too_old' },
        ],
      };
    });
    await syncOutbox(api, () => 9);
    expect((await waitingAnswers()).map((item) => item.id)).toEqual([other.id]);
    expect(readStatus()).toMatchObject({ waiting: 1, lastSync: 9, rejected: { count: 1, code: 'review_too_old' } });
  });

  it('one sync at a time: a second call while one runs sends nothing twice', async () => {
    await keepAnswer(review(1));
    const { api, batches } = fakeApi(applied);
    await Promise.all([syncOutbox(api), syncOutbox(api), syncOutbox(api)]);
    expect(batches).toHaveLength(1);
  });
});
