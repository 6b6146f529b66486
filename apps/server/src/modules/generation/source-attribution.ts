import type { CardSource } from '@flashcards/shared/api-types';
import type { CardDraft } from '../../adapters/ai/ai-provider';
import type { Passage } from '../../adapters/extract/extracted';

const wordsOf = (text: string): string[] =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 1);

/**
 * The page or slide a card came from: the passage holding the paragraph that contains the largest share of the
 * card's words (ties to the earlier passage). A share of the card's words, not a similarity of word sets, so that a
 * short page does not win over the long page the card was written from.
 */
export function sourceOfCard(
  card: CardDraft,
  passages: readonly Passage[],
): Pick<CardSource, 'page' | 'slide'> | undefined {
  const cardWords = new Set(wordsOf(`${card.question} ${card.answer}`));
  let best: Passage | undefined;
  let bestScore = -1;
  for (const passage of passages) {
    for (const paragraph of passage.text.split(/\n{2,}/)) {
      const words = new Set(wordsOf(paragraph));
      let shared = 0;
      for (const word of cardWords) if (words.has(word)) shared++;
      const score = cardWords.size ? shared / cardWords.size : 0;
      if (score > bestScore) {
        best = passage;
        bestScore = score;
      }
    }
  }
  if (best?.page !== undefined) return { page: best.page };
  if (best?.slide !== undefined) return { slide: best.slide };
  return undefined;
}
