import type { AnswerResponse, DueCard, ReviewResponse } from '@flashcards/shared/api-types';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { ApiRequestError, isOfflineError } from '../../lib/api-client';
import { useApi } from '../../lib/api-context';
import { deckKeys } from '../../lib/decks-api';
import { forgetAnswers, getKeptOnDevice, keepAnswer, keepImages, waitingAnswers } from '../../lib/offline-store';
import { noteAnswerKept, onSyncedCard } from '../../lib/outbox-sync';
import { type AnswerOp, type AnswerQueue, createAnswerQueue } from './answer-queue';

/**
 * The queue of one review session (GET /cards/due, in the server's order), for one deck or, with `deckId` null,
 * for every deck. Each session (`session` counts them) fetches afresh and keeps its own copy.
 */
export function useReviewQueue(deckId: string | null, session: number) {
  const api = useApi();
  return useQuery({
    queryKey: [...deckKeys.due(deckId ?? 'all'), session],
    queryFn: () =>
      getKeptOnDevice(
        deckId ? `/cards/due?deck_id=${encodeURIComponent(deckId)}` : '/cards/due',
        async (path) => {
          const cards = await api.get<DueCard[]>(path);
          void keepImages(cards.flatMap((card) => card.images ?? []));
          return cards;
        },
        isOfflineError,
      ),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    // Offline, the queue comes from the device (React Query would hold it back until the network returns).
    networkMode: 'always',
    refetchOnReconnect: false,
  });
}

/** Whether sending again can help: a lost connection, a timeout, a busy or failing server, a concurrent review. */
export function isRetryableAnswerError(error: unknown): boolean {
  if (!(error instanceof ApiRequestError)) return false;
  if (error.kind !== 'http' || error.status === null) return true;
  return error.status >= 500 || error.status === 429 || error.code === 'review_conflict';
}

export interface AnswerQueueHandlers {
  /** The server recorded an answer (POST /cards/review's reply). */
  onAnswered: (answerId: number, response: AnswerResponse) => void;
  /** The server refused an answer or an undo for good. */
  onDropped: (op: AnswerOp, error: unknown) => void;
  /** The card's `last_review` as the session's queue gave it (null: new). */
  lastReviewOf: (cardId: string) => string | null;
}

/**
 * The session's answer queue (answer-queue.ts) over POST /cards/review and POST /cards/{id}/undo-review, and its
 * status. Nothing is refetched per answer: the session refreshes the statistics once the queue is done.
 */
export function useAnswerQueue(handlers: AnswerQueueHandlers): {
  queue: AnswerQueue;
  pending: number;
  failed: boolean;
} {
  const api = useApi();
  const latest = useRef(handlers);
  latest.current = handlers;
  /** Answers kept on the device (no network when they were given): queue id by UUID, and UUIDs by card. */
  const [kept] = useState(() => ({ byUuid: new Map<string, number>(), byCard: new Map<string, string[]>() }));
  /**
   * Each card's answer times of this session, latest last: the newest is the base of the card's next answer kept on
   * the device (the card as the learner saw it), so that two devices' answers converge on the server.
   */
  const [answeredAt] = useState(() => new Map<string, string[]>());
  const baseOf = (cardId: string) => answeredAt.get(cardId)?.at(-1) ?? latest.current.lastReviewOf(cardId);
  const noteAnswered = (cardId: string, at: string) => answeredAt.set(cardId, [...(answeredAt.get(cardId) ?? []), at]);
  const takeBackAnswered = (cardId: string) => answeredAt.set(cardId, answeredAt.get(cardId)?.slice(0, -1) ?? []);
  const [queue] = useState(() =>
    createAnswerQueue({
      send: async (op) => {
        if (op.kind === 'answer') {
          if (navigator.onLine) {
            try {
              const response = await api.post<AnswerResponse>('/cards/review', {
                json: { card_id: op.cardId, result: op.result, review_id: op.uuid, ...op.typed },
              });
              noteAnswered(op.cardId, response.card.last_review ?? new Date(op.at).toISOString());
              return response;
            } catch (error) {
              if (!isOfflineError(error)) throw error;
            }
          }
          // No network: the answer waits on the device with its own id and time, sent by POST /reviews/sync later.
          // The id is the one the direct request carried: had the server recorded it, the sync finds it a duplicate.
          const id = op.uuid;
          const reviewedAt = new Date(op.at).toISOString();
          await keepAnswer({
            id,
            card_id: op.cardId,
            result: op.result,
            reviewed_at: reviewedAt,
            base: baseOf(op.cardId),
            ...op.typed,
          });
          noteAnswered(op.cardId, reviewedAt);
          noteAnswerKept();
          kept.byUuid.set(id, op.id);
          kept.byCard.set(op.cardId, [...(kept.byCard.get(op.cardId) ?? []), id]);
          return null;
        }
        // Taking back an answer still on the device takes it out of the queue; one the server has is undone there.
        const latest = kept.byCard.get(op.cardId)?.at(-1);
        if (latest !== undefined && (await waitingAnswers()).some((review) => review.id === latest)) {
          await forgetAnswers([latest]);
          takeBackAnswered(op.cardId);
          kept.byCard.set(op.cardId, kept.byCard.get(op.cardId)?.slice(0, -1) ?? []);
          kept.byUuid.delete(latest);
          return null;
        }
        const undone = await api.post<ReviewResponse>(`/cards/${encodeURIComponent(op.cardId)}/undo-review`);
        takeBackAnswered(op.cardId);
        return undone;
      },
      isRetryable: isRetryableAnswerError,
      onSent: (op, response) => {
        if (op.kind === 'answer' && response !== null) latest.current.onAnswered(op.id, response as AnswerResponse);
      },
      onDropped: (op, error) => latest.current.onDropped(op, error),
    }),
  );
  // An answer kept on the device brings its card back in the session once the server has scheduled it.
  useEffect(
    () =>
      onSyncedCard((uuid, card) => {
        const answerId = kept.byUuid.get(uuid);
        if (answerId !== undefined) latest.current.onAnswered(answerId, { card });
      }),
    [kept],
  );
  // Not disposed on unmount: answers still on their way when the session closes keep going.
  const status = useSyncExternalStore(queue.subscribe, queue.status);
  return { queue, pending: status.pending, failed: status.failed };
}

/** Deck lists, counts and statistics after a session: everything under ['decks'] (not the session's queue). */
export function useRefreshDeckData() {
  const queryClient = useQueryClient();
  // Stable, so that an effect depending on it runs once, not on every render.
  return useCallback(() => queryClient.invalidateQueries({ queryKey: deckKeys.all }), [queryClient]);
}

/** Cards per request of the export's fetch: the largest page the server gives. */
