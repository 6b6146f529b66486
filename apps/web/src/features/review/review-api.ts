import type { AnswerResponse, DueCard, ReviewResponse, SchedulingInfo } from '@flashcards/shared/api-types';
import { answerOffline, parametersWith } from '@flashcards/shared/scheduler';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { FSRSParameters } from 'ts-fsrs';
import { ApiRequestError, isOfflineError } from '../../lib/api-client';
import { useApi } from '../../lib/api-context';
import { useApiGet } from '../../lib/api-hooks';
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

/**
 * The learner's scheduling parameters for a deck's cards, as the server schedules them (their fitted weights, the
 * deck's desired retention), kept on the device so that an answer given offline is scheduled the same way.
 */
export function useSchedulingParameters(): (desiredRetention: number | undefined) => FSRSParameters {
  const scheduling = useApiGet<SchedulingInfo>(['scheduling'], '/scheduling', { keepOnDevice: true });
  const weights = scheduling.data?.personalized ? scheduling.data.parameters : null;
  return useMemo(() => {
    const byRetention = new Map<number, FSRSParameters>();
    return (desiredRetention = 0.9) => {
      let parameters = byRetention.get(desiredRetention);
      if (!parameters) {
        parameters = parametersWith(weights, desiredRetention);
        byRetention.set(desiredRetention, parameters);
      }
      return parameters;
    };
  }, [weights]);
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
  /** The card as the session's queue gave it. */
  cardOf: (cardId: string) => DueCard | undefined;
  /** The parameters its deck's answers are scheduled with. */
  parametersOf: (card: DueCard) => FSRSParameters;
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
  const baseOf = (cardId: string) =>
    answeredAt.get(cardId)?.at(-1) ?? latest.current.cardOf(cardId)?.last_review ?? null;
  /**
   * Each card as this session's answers left it, latest last (an undo takes the latest off): an answer kept on the
   * device is scheduled from it, as the server will schedule it at the sync.
   */
  const [scheduled] = useState(() => new Map<string, DueCard[]>());
  const cardNow = (cardId: string) => scheduled.get(cardId)?.at(-1) ?? latest.current.cardOf(cardId);
  const noteScheduled = (card: DueCard) => scheduled.set(card._id, [...(scheduled.get(card._id) ?? []), card]);
  const takeBackScheduled = (cardId: string) => scheduled.set(cardId, scheduled.get(cardId)?.slice(0, -1) ?? []);
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
              noteScheduled(response.card);
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
          // Its card's next state on the device, as the sync will compute it (the fuzz drawn from the answer's id).
          const before = cardNow(op.cardId);
          if (!before?.memory) return null;
          const card = answerOffline(before, op.result, op.at, id, latest.current.parametersOf(before));
          noteScheduled(card);
          return { card } satisfies AnswerResponse;
        }
        // Taking back an answer still on the device takes it out of the queue; one the server has is undone there.
        const newest = kept.byCard.get(op.cardId)?.at(-1);
        if (newest !== undefined && (await waitingAnswers()).some((review) => review.id === newest)) {
          await forgetAnswers([newest]);
          takeBackAnswered(op.cardId);
          takeBackScheduled(op.cardId);
          kept.byCard.set(op.cardId, kept.byCard.get(op.cardId)?.slice(0, -1) ?? []);
          kept.byUuid.delete(newest);
          return null;
        }
        const undone = await api.post<ReviewResponse>(`/cards/${encodeURIComponent(op.cardId)}/undo-review`);
        takeBackAnswered(op.cardId);
        takeBackScheduled(op.cardId);
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
