import type { CardStyle } from '@flashcards/shared/api-types';
import { type ClozeNode, checkNote, parseCloze } from '@flashcards/shared/notes';
import { stopwords } from './offline/text-analysis';

/** One deletion of a cloze text: its number and what it hides (nested deletions filled in). */
export interface ClozeBlank {
  number: number;
  answer: string;
}

function plainText(nodes: ClozeNode[]): string {
  return nodes.map((node) => (node.kind === 'text' ? node.text : plainText(node.children))).join('');
}

/** Every deletion of a cloze text (the shared parser's rules), nested ones included; null when it is not one. */
export function clozeDeletions(text: string): ClozeBlank[] | null {
  const parsed = parseCloze(text);
  if (!parsed.ok) return null;
  const found: ClozeBlank[] = [];
  const walk = (nodes: ClozeNode[]) => {
    for (const node of nodes) {
      if (node.kind === 'text') continue;
      found.push({ number: node.number, answer: plainText(node.children) });
      walk(node.children);
    }
  };
  walk(parsed.nodes);
  return found;
}

/** The first card of a cloze note as review shows it (the shared renderer), or null for no valid cloze note. */
export function firstClozeCard(text: string): { question: string; answer: string } | null {
  const checked = checkNote('cloze', { text });
  const first = checked.ok ? checked.cards[0] : undefined;
  return first ? { question: first.question, answer: first.answer } : null;
}

/**
 * A deletion a learner could fill in from the grammar alone teaches nothing: one whose words are all function words
 * (articles, pronouns, auxiliaries, prepositions, conjunctions), or that has no letter or digit at all.
 */
export function isGuessableDeletion(answer: string): boolean {
  const tokens = answer.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
  return tokens.length === 0 || tokens.every((token) => stopwords.has(token));
}

/** The card styles in which a cloze note stays a cloze note (in `basic`, it is given as its first card). */
export function keepsCloze(style: CardStyle): boolean {
  return style !== 'basic';
}
