import type { AnswerResponse, DueCard, ReviewResponse } from '@flashcards/shared/api-types';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState, useSyncExternalStore } from 'react';
import { ApiRequestError } from '../../lib/api-client';
import { useApi } from '../../lib/api-context';
import { deckKeys } from '../../lib/decks-api';
import { type AnswerOp, type AnswerQueue, createAnswerQueue } from './answer-queue';

/**
 * The queue of one review session (GET /cards/due, in the server's order), for one deck or, with `deckId` null,
 * for every deck. Each session (`session` counts them) fetches afresh and keeps its own copy.
 */
export function useReviewQueue(deckId: string | null, session: number) {
  const api = useApi();
  return useQuery({
    queryKey: [...deckKeys.due(deckId ?? 'all'), session],
    queryFn: () => api.get<DueCard[]>(deckId ? `/cards/due?deck_id=${encodeURIComponent(deckId)}` : '/cards/due'),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
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
  const [queue] = useState(() =>
    createAnswerQueue({
      send: (op) =>
        op.kind === 'answer'
          ? api.post<AnswerResponse>('/cards/review', {
              json: { card_id: op.cardId, result: op.result, ...op.typed },
            })
          : api.post<ReviewResponse>(`/cards/${encodeURIComponent(op.cardId)}/undo-review`),
      isRetryable: isRetryableAnswerError,
      onSent: (op, response) => {
        if (op.kind === 'answer') latest.current.onAnswered(op.id, response as AnswerResponse);
      },
      onDropped: (op, error) => latest.current.onDropped(op, error),
    }),
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
