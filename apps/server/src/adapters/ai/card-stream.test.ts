import { describe, expect, it } from 'vitest';
import { createCardStream } from './card-stream';

const cards = [
  { question: 'What is osmosis?', answer: 'Water moving across a membrane, with "quotes" and {braces}.' },
  { question: 'What is $E=mc^2$?', answer: 'Mass–energy equivalence.' },
];

/** Feeds `text` one character at a time and records each object handed over, with how much had been fed. */
function feed(text: string) {
  const seen: { value: unknown; at: number }[] = [];
  let at = 0;
  const stream = createCardStream((value) => seen.push({ value, at }));
  for (const char of text) {
    at += char.length;
    stream.write(char);
  }
  return { seen, failed: stream.failed };
}

describe('createCardStream', () => {
  it('hands over each card of {"cards":[…]} as soon as its closing brace arrives', () => {
    const text = JSON.stringify({ cards });
    const { seen, failed } = feed(text);
    expect(failed).toBe(false);
    expect(seen.map((s) => s.value)).toEqual(cards);
    const firstEnd = '{"cards":['.length + JSON.stringify(cards[0]).length;
    expect(seen[0]?.at).toBe(firstEnd);
    expect(seen[1]?.at).toBeLessThan(text.length);
  });

  it('reads {"flashcards":[…]} and a bare array, after prose and a code fence, ignoring what follows', () => {
    const wrapped = `Sure! Here they are:\n\`\`\`json\n${JSON.stringify({ flashcards: cards })}\n\`\`\`\nEnjoy {not json`;
    expect(feed(wrapped).seen.map((s) => s.value)).toEqual(cards);
    expect(feed(`Cards:\n${JSON.stringify(cards)}\nDone.`).seen.map((s) => s.value)).toEqual(cards);
  });

  it('hands over nothing for other keys, and stops quietly on text that is not JSON', () => {
    expect(feed(JSON.stringify({ items: cards })).seen).toEqual([]);
    const broken = feed('{"cards":[{"question":"a","answer":"b"}, oops');
    expect(broken.seen.map((s) => s.value)).toEqual([{ question: 'a', answer: 'b' }]);
    expect(broken.failed).toBe(true);
    expect(feed('no json here at all').seen).toEqual([]);
  });
});
