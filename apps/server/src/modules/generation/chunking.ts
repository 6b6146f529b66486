import { splitSentences } from '../../adapters/ai/offline/text-analysis';
import type { Passage } from '../../adapters/extract/extracted';

/** A piece of the input small enough for one model call, with the passages it came from. */
export interface Chunk {
  text: string;
  passages: Passage[];
}

/** Splits a too-long paragraph at sentence ends (or, failing that, hard at the size). */
function splitParagraph(paragraph: string, size: number): string[] {
  if (paragraph.length <= size) return [paragraph];
  const out: string[] = [];
  let current = '';
  for (const sentence of splitSentences(paragraph)) {
    for (let start = 0; start < sentence.length; start += size) {
      const piece = sentence.slice(start, start + size);
      if (current && current.length + 1 + piece.length > size) {
        out.push(current);
        current = '';
      }
      current = current ? `${current} ${piece}` : piece;
    }
  }
  if (current) out.push(current);
  return out;
}

/**
 * Packs passages into chunks of at most `size` characters, in source order, breaking between paragraphs
 * (then sentences) and never inside a word where it can be helped.
 */
export function chunkPassages(passages: Passage[], size: number): Chunk[] {
  const chunks: Chunk[] = [];
  let text = '';
  let from: Passage[] = [];
  const flush = () => {
    if (text.trim()) chunks.push({ text: text.trim(), passages: from });
    text = '';
    from = [];
  };
  for (const passage of passages) {
    for (const paragraph of passage.text.split(/\n{2,}/)) {
      for (const piece of splitParagraph(paragraph, size)) {
        if (text && text.length + 2 + piece.length > size) flush();
        text = text ? `${text}\n\n${piece}` : piece;
        const last = from[from.length - 1];
        if (last?.page !== passage.page || last?.slide !== passage.slide || last?.text !== passage.text) {
          from.push(passage);
        }
      }
    }
  }
  flush();
  return chunks;
}

/** Runs `work` over `items` with at most `limit` at a time; results in the items' order. */
export async function mapWithConcurrency<T, R>(
  items: T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
) {
  const results: R[] = new Array(items.length);
  let next = 0;
  const runners = Array.from({ length: Math.min(Math.max(1, limit), items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T, index);
    }
  });
  await Promise.all(runners);
  return results;
}
