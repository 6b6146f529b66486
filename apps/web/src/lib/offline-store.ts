import type { SyncReview } from '@flashcards/shared/api-types';
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';

/**
 * What the app keeps on the device for review with no network (IndexedDB, through idb): the answers waiting to be
 * sent (`outbox`, by the answer's UUID, kept until the server has them), the decks and due cards review reads, as the
 * last fetch gave them, and when the last sync was. Nothing here is the API's cache: the service worker never
 * stores API answers.
 */
interface OfflineSchema extends DBSchema {
  outbox: { key: string; value: SyncReview };
  kept: { key: string; value: { key: string; value: unknown; saved_at: number } };
  meta: { key: string; value: { key: string; value: number } };
}

const DB_NAME = 'flashcards-offline';
const DB_VERSION = 1;
let opened: Promise<IDBPDatabase<OfflineSchema>> | null = null;

function database(): Promise<IDBPDatabase<OfflineSchema>> {
  opened ??= openDB<OfflineSchema>(DB_NAME, DB_VERSION, {
    upgrade(db) {
      db.createObjectStore('outbox', { keyPath: 'id' });
      db.createObjectStore('kept', { keyPath: 'key' });
      db.createObjectStore('meta', { keyPath: 'key' });
    },
  });
  return opened;
}

/** Keeps an answer until the server has it; written before the learner sees the next card. */
export async function keepAnswer(review: SyncReview): Promise<void> {
  await (await database()).put('outbox', review);
}

/** The answers waiting, oldest first. */
export async function waitingAnswers(): Promise<SyncReview[]> {
  const all = await (await database()).getAll('outbox');
  return all.sort((a, b) => Date.parse(a.reviewed_at) - Date.parse(b.reviewed_at) || (a.id < b.id ? -1 : 1));
}

export async function countWaitingAnswers(): Promise<number> {
  return (await database()).count('outbox');
}

/** Takes answers out of the queue (the server has them, refused them, or the learner took one back). */
export async function forgetAnswers(ids: readonly string[]): Promise<void> {
  const tx = (await database()).transaction('outbox', 'readwrite');
  await Promise.all([...ids.map((id) => tx.store.delete(id)), tx.done]);
}

/** What review reads from the server (the decks, a queue of due cards), by its path, as last fetched. */
export async function keepResponse(path: string, value: unknown, now: number): Promise<void> {
  await (await database()).put('kept', { key: path, value, saved_at: now });
}

export async function keptResponse<T>(path: string): Promise<T | null> {
  return ((await (await database()).get('kept', path))?.value as T | undefined) ?? null;
}

/**
 * GET `path` through `get`, kept on the device each time; with no network (`isOffline`), what was kept last, so
 * that review opens offline.
 */
export async function getKeptOnDevice<T>(
  path: string,
  get: (path: string) => Promise<T>,
  isOffline: (error: unknown) => boolean,
): Promise<T> {
  try {
    const value = await get(path);
    void keepResponse(path, value, Date.now()).catch(() => undefined);
    return value;
  } catch (error) {
    if (!isOffline(error)) throw error;
    const kept = await keptResponse<T>(path).catch(() => null);
    if (kept === null) throw error;
    return kept;
  }
}

/**
 * Loads each image once so that the service worker keeps it (its card-images cache, vite.config.ts): the images of
 * the cards kept for review, one at a time so that review's own requests go first.
 */
export async function keepImages(urls: readonly string[]): Promise<void> {
  if (!navigator.serviceWorker?.controller) return;
  for (const url of new Set(urls)) {
    await fetch(url).then(
      (response) => response.body?.cancel(),
      () => undefined,
    );
  }
}

export async function lastSyncAt(): Promise<number | null> {
  return (await (await database()).get('meta', 'last_sync'))?.value ?? null;
}

export async function setLastSyncAt(at: number): Promise<void> {
  await (await database()).put('meta', { key: 'last_sync', value: at });
}

/** Empties everything kept on the device (sign-out, "clear offline data"); answers still waiting are lost. */
export async function clearDevice(): Promise<void> {
  const db = await database();
  const tx = db.transaction(['outbox', 'kept', 'meta'], 'readwrite');
  await Promise.all([
    tx.objectStore('outbox').clear(),
    tx.objectStore('kept').clear(),
    tx.objectStore('meta').clear(),
    tx.done,
  ]);
}
