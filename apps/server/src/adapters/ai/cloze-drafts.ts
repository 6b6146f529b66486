import type { CardStyle } from '@flashcards/shared/api-types';
import { stopwords } from './offline/text-analysis';

/** One `{{cN::answer}}` or `{{cN::answer::hint}}` of a cloze text. */
export interface ClozeDeletion {
  ord: number;
  answer: string;
  hint: string | null;
}

const deletionPattern = /\{\{c(\d{1,3})::([\s\S]*?)(?:::([\s\S]*?))?\}\}/g;

/** The deletions of a cloze text, in order; numbers outside 1–500 make it no cloze text at all (null). */
export function clozeDeletions(text: string): ClozeDeletion[] | null {
  const found: ClozeDeletion[] = [];
  for (const match of text.matchAll(deletionPattern)) {
    const ord = Number(match[1]);
    if (ord < 1 || ord > 500) return null;
    found.push({ ord, answer: match[2] ?? '', hint: match[3] ?? null });
  }
  return found;
}

/** The first card of a cloze note as review shows it: its own deletion `[...]` (or `[hint]`), then bold. */
export function firstClozeCard(text: string): { question: string; answer: string } | null {
  const deletions = clozeDeletions(text);
  if (!deletions || deletions.length === 0) return null;
  const ord = Math.min(...deletions.map((deletion) => deletion.ord));
  const render = (question: boolean) =>
    text.replace(deletionPattern, (_all, n: string, answer: string, hint: string | undefined) => {
      if (Number(n) !== ord) return answer;
      return question ? `[${hint ?? '...'}]` : `**${answer}**`;
    });
  return { question: render(true), answer: render(false) };
}

/**
 * A deletion a learner could fill in from the grammar alone teaches nothing: one whose words are all function words
 * (articles, pronouns, auxiliaries, prepositions, conjunctions), or that has no letter or digit at all.
 */
export function isGuessableDeletion(answer: string): boolean {
  const tokens = answer.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
  return tokens.length === 0 || tokens.every((token) => stopwords.has(token));
}

/** The card styles in which a cloze note is a cloze note (in `basic`, it is shown as its first card). */
export function keepsCloze(style: CardStyle): boolean {
  return style !== 'basic';
}
