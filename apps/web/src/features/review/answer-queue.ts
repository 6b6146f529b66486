import type { AnswerVerdict, ReviewResult } from '@flashcards/shared/api-types';

/**
 * The answers of a review session on their way to the server: the learner sees the next card at once, and the answers
 * follow in the background, one at a time and in the order given (an undo after the answer it takes back). A failed
 * request is tried again after a growing pause; after the last pause the queue stops, keeps every answer and says
 * so (`failed`) until `retry`. An answer still waiting is taken back by removing it; one already sent by an undo
 * request queued behind it.
 */

export type AnswerOp =
  | {
      id: number;
      kind: 'answer';
      cardId: string;
      result: ReviewResult;
      at: number;
      /** The answer's own id on the server, sent on every path it takes, so that the server records it once. */
      uuid: string;
      typed?: TypedAnswer;
    }
  | { id: number; kind: 'undo'; cardId: string };

/** What the learner typed before the card flipped, and the checker's verdict on it (kept in the review log). */
export interface TypedAnswer {
  typed: string;
  verdict: AnswerVerdict;
}

export interface AnswerQueueStatus {
  /** Requests not yet done (the one in flight included). */
  pending: number;
  /** The queue stopped after its retries; nothing is lost, `retry` starts again. */
  failed: boolean;
}

export interface AnswerQueueOptions {
  send: (op: AnswerOp) => Promise<unknown>;
  /** Whether trying again can help (a lost connection, a busy server), as opposed to a refusal for good. */
  isRetryable: (error: unknown) => boolean;
  onSent?: (op: AnswerOp, response: unknown) => void;
  /** A request refused for good: it leaves the queue, which goes on with the next. */
  onDropped?: (op: AnswerOp, error: unknown) => void;
  /** The pauses before each new attempt; after the last, the queue stops and waits for `retry`. */
  backoffMs?: readonly number[];
  /** Timers, replaceable in tests. */
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

export const defaultBackoffMs = [500, 1_000, 2_000, 4_000] as const;

export type TakeBack = 'removed' | 'undo_queued' | 'unknown';

export function createAnswerQueue(options: AnswerQueueOptions) {
  const backoff = options.backoffMs ?? defaultBackoffMs;
  const setTimer = options.setTimer ?? ((run: () => void, ms: number) => setTimeout(run, ms));
  const clearTimer = options.clearTimer ?? ((timer: unknown) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  const ops: AnswerOp[] = [];
  /** The cards of answers the server has (sent and answered), by op id, so that taking one back queues an undo. */
  const sent = new Map<number, string>();
  /** Answers taken back while in flight: once answered they are not takeable again. */
  const takenBack = new Set<number>();
  let inFlight: AnswerOp | null = null;
  let attempt = 0;
  let timer: unknown = null;
  let failed = false;
  let nextId = 1;
  let disposed = false;
  const listeners = new Set<() => void>();
  let idleWaiters: (() => void)[] = [];
  let snapshot: AnswerQueueStatus = { pending: 0, failed: false };

  function notify() {
    const pending = ops.length;
    if (pending !== snapshot.pending || failed !== snapshot.failed) snapshot = { pending, failed };
    for (const listener of listeners) listener();
    if (pending === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  /** Forgets the last failure and its pending retry: the queue sends again at once. */
  function clearFailure() {
    failed = false;
    attempt = 0;
    if (timer !== null) clearTimer(timer);
    timer = null;
  }

  function pump() {
    if (disposed || inFlight || failed || timer !== null) return;
    const op = ops[0];
    if (!op) return;
    inFlight = op;
    options.send(op).then(
      (response) => {
        inFlight = null;
        attempt = 0;
        if (ops[0] === op) ops.shift();
        if (op.kind === 'answer' && !takenBack.delete(op.id)) sent.set(op.id, op.cardId);
        options.onSent?.(op, response);
        notify();
        pump();
      },
      (error: unknown) => {
        inFlight = null;
        if (!options.isRetryable(error)) {
          attempt = 0;
          if (ops[0] === op) ops.shift();
          options.onDropped?.(op, error);
          notify();
          pump();
          return;
        }
        const pause = backoff[attempt];
        attempt += 1;
        if (pause === undefined) {
          attempt = 0;
          failed = true;
          notify();
          return;
        }
        timer = setTimer(() => {
          timer = null;
          pump();
        }, pause);
      },
    );
  }

  return {
    /** Queues an answer; its id takes it back (`takeBack`). */
    answer(cardId: string, result: ReviewResult, typed?: TypedAnswer): number {
      const id = nextId++;
      const at = Date.now();
      const uuid = crypto.randomUUID();
      ops.push(
        typed
          ? { id, kind: 'answer', cardId, result, at, uuid, typed }
          : { id, kind: 'answer', cardId, result, at, uuid },
      );
      notify();
      pump();
      return id;
    },

    /**
     * Takes back the answer `id`: removed if it has not left yet (waiting, or stopped after a failure), else an undo
     * request follows it. `unknown`: no such answer (already taken back).
     */
    takeBack(id: number): TakeBack {
      const index = ops.findIndex((op) => op.id === id && op.kind === 'answer');
      const op = ops[index];
      if (op && op.kind === 'answer' && op !== inFlight) {
        ops.splice(index, 1);
        if (index === 0) {
          // The failure was this answer's: the rest may go now.
          clearFailure();
        }
        notify();
        pump();
        return 'removed';
      }
      const cardId = op?.kind === 'answer' ? op.cardId : sent.get(id);
      if (cardId !== undefined && !takenBack.has(id)) {
        if (op === inFlight) takenBack.add(id);
        sent.delete(id);
        ops.push({ id: nextId++, kind: 'undo', cardId });
        notify();
        pump();
        return 'undo_queued';
      }
      return 'unknown';
    },

    /** After a failure: tries again now, in the same order. */
    retry() {
      if (!failed && timer === null) return;
      clearFailure();
      notify();
      pump();
    },

    status(): AnswerQueueStatus {
      return snapshot;
    },

    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** Resolves once every queued request is done. */
    idle(): Promise<void> {
      if (ops.length === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },

    dispose() {
      disposed = true;
      if (timer !== null) clearTimer(timer);
      timer = null;
      listeners.clear();
    },
  };
}

export type AnswerQueue = ReturnType<typeof createAnswerQueue>;
