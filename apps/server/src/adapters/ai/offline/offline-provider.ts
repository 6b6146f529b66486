import { setImmediate } from 'node:timers/promises';
import type { AiProvider } from '../ai-provider';
import { AiTimeoutError } from '../ai-provider';
import { generateOfflineCards } from './offline-generator';
import { generateOfflineQuiz } from './offline-quiz';

/** The embedded default: the extractive generator, no network, no model. */
export function createOfflineProvider(): AiProvider {
  return {
    name: 'offline',
    model: 'offline-extractive',
    async generateCards({ text, maxCards }, signal, onCard) {
      // Lets the cards of the chunk before go out (and an abort be heard) before this chunk's work.
      await setImmediate();
      if (signal.aborted) throw new AiTimeoutError('generation deadline passed');
      // Extractive and fast: a chunk's cards are known at once, so they stream per chunk.
      const cards = generateOfflineCards(text, maxCards);
      for (const card of cards) onCard?.(card);
      return { cards };
    },
    async generateQuiz({ cards, maxQuestions }, signal) {
      if (signal.aborted) throw new AiTimeoutError('generation deadline passed');
      return { cards: generateOfflineQuiz(cards, maxQuestions) };
    },
  };
}
