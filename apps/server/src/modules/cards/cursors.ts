/**
 * Page cursors: opaque to clients (base64url), checked strictly when they come back. A deck page's cursor is the
 * creation time and id of its last card (keyset paging: cards added meanwhile are never repeated nor skipped); a
 * search cursor is how many results came before.
 */

const HEX24 = /^[0-9a-f]{24}$/;

/** The most search results one can page through (bounds the work of a deep page). */
export const MAX_SEARCH_OFFSET = 10_000;

export interface DeckCursor {
  createdAt: number;
  id: string;
}

const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

const decode = (cursor: string): string | undefined => {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  return Buffer.from(cursor, 'base64url').toString('utf8');
};

export function encodeDeckCursor(last: { created_at: number; id: string }): string {
  return encode(`c:${last.created_at}:${last.id}`);
}

export function decodeDeckCursor(cursor: string): DeckCursor | undefined {
  const match = /^c:([0-9]{1,15}):([0-9a-f]{24})$/.exec(decode(cursor) ?? '');
  if (!match?.[1] || !match[2] || !HEX24.test(match[2])) return undefined;
  return { createdAt: Number(match[1]), id: match[2] };
}

export function encodeSearchCursor(offset: number): string {
  return encode(`s:${offset}`);
}

export function decodeSearchCursor(cursor: string): number | undefined {
  const match = /^s:([0-9]{1,6})$/.exec(decode(cursor) ?? '');
  if (!match?.[1]) return undefined;
  const offset = Number(match[1]);
  return offset > 0 && offset <= MAX_SEARCH_OFFSET ? offset : undefined;
}

/**
 * Whether a search word also matches longer words. A word of one character matches only as a whole token: as a
 * prefix it would walk every term of the index that starts with that letter, every user's (about a second each).
 */
export function matchesAsPrefix(word: string): boolean {
  return [...word].length > 1;
}

/**
 * The words of a search, lower-cased: runs of letters, digits and combining marks, as both databases' tokenizers
 * split text (SQLite FTS5 unicode61, PostgreSQL's default parser). At most 32 words.
 */
export function searchWords(q: string): string[] {
  const words = q.toLowerCase().match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
  return [...new Set(words)].slice(0, 32);
}
