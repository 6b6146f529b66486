import type { DueCard, SyncResponse, SyncReview } from '@flashcards/shared/api-types';
import type { SyncRejectionCode } from '@flashcards/shared/errors';
import { useSyncExternalStore } from 'react';
import type { ApiClient } from './api-client';
import { countWaitingAnswers, forgetAnswers, lastSyncAt, setLastSyncAt, waitingAnswers } from './offline-store';

/** The most answers one POST /reviews/sync takes. */
export const SYNC_BATCH = 500;

export interface OutboxStatus {
  /** Answers on the device not yet on the server. */
  waiting: number;
  /** When the server last took the queue (ms), or null. */
  lastSync: number | null;
  /** Answers the server refused for good at the last sync, dropped from the queue, by code. */
  rejected: { count: number; code: SyncRejectionCode } | null;
}

let status: OutboxStatus = { waiting: 0, lastSync: null, rejected: null };
const listeners = new Set<() => void>();
/** Whose answers the server's reply moved, for a session waiting for them. */
const cardListeners = new Set<(answerId: string, card: DueCard) => void>();
let running: Promise<void> | null = null;

function publish(next: Partial<OutboxStatus>) {
  status = { ...status, ...next };
  for (const listener of listeners) listener();
}

/** Reads the queue's size and the last sync's time from the device (at start). */
export async function refreshOutboxStatus(): Promise<void> {
  publish({ waiting: await countWaitingAnswers(), lastSync: await lastSyncAt() });
}

/**
 * Sends the waiting answers with POST /reviews/sync, oldest first, 500 at a time. Each answer the server answered
 * (applied, duplicate, superseded or rejected) leaves the queue; a failed request (no network, a server error, a
 * limit) keeps the rest for the next try. One sync at a time: a call during a sync waits for it.
 */
export function syncOutbox(api: ApiClient, now: () => number = Date.now): Promise<void> {
  running ??= (async () => {
    try {
      for (;;) {
        const batch = (await waitingAnswers()).slice(0, SYNC_BATCH);
        if (batch.length === 0) break;
        let response: SyncResponse;
        try {
          response = await api.post<SyncResponse>('/reviews/sync', { json: { reviews: batch } });
        } catch {
          break;
        }
        const answered = response.results.map((result) => result.id);
        const rejected = response.results.filter((result) => result.status === 'rejected');
        await forgetAnswers(answered);
        const at = now();
        await setLastSyncAt(at);
        for (const result of response.results) {
          if (result.card) for (const listener of cardListeners) listener(result.id, result.card);
        }
        const first = rejected[0]?.code;
        publish({
          lastSync: at,
          waiting: await countWaitingAnswers(),
          rejected: first ? { count: rejected.length, code: first } : status.rejected,
        });
        // A reply that answered none of the batch would repeat forever.
        if (answered.length === 0) break;
      }
    } finally {
      running = null;
    }
    publish({ waiting: await countWaitingAnswers() });
  })();
  return running;
}

/** After the learner has seen a rejection notice. */
export function dismissRejected(): void {
  publish({ rejected: null });
}

/** An answer just kept on the device: counted at once, before any sync. */
export function noteAnswerKept(): void {
  publish({ waiting: status.waiting + 1 });
}

/** Calls `listener` with each answer the server applied or superseded and the card as it left it. */
export function onSyncedCard(listener: (answerId: string, card: DueCard) => void): () => void {
  cardListeners.add(listener);
  return () => cardListeners.delete(listener);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useOutboxStatus(): OutboxStatus {
  return useSyncExternalStore(
    subscribe,
    () => status,
    () => status,
  );
}

/** The review page's start: the queue's counts, a sync now, and one whenever the network comes back. */
export function startOutboxSync(api: ApiClient): () => void {
  const sync = () => void syncOutbox(api);
  // A browser without IndexedDB (a private window of some) reviews online only: there is no queue to read.
  void refreshOutboxStatus().then(sync, () => undefined);
  window.addEventListener('online', sync);
  return () => window.removeEventListener('online', sync);
}

export type { SyncReview };
