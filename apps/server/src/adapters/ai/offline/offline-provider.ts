import type { AiProvider } from '../ai-provider';
import { AiTimeoutError } from '../ai-provider';
import { generateOfflineCards } from './offline-generator';
import { generateOfflineQuiz } from './offline-quiz';

/** The embedded default: the extractive generator, no network, no model. */
export function createOfflineProvider(): AiProvider {
  return {
    name: 'offline',
    model: 'offline-extractive',
    async generateCards({ text, maxCards }, signal) {
      if (signal.aborted) throw new AiTimeoutError('generation deadline passed');
      return { cards: generateOfflineCards(text, maxCards) };
    },
    async generateQuiz({ cards, maxQuestions }, signal) {
      if (signal.aborted) throw new AiTimeoutError('generation deadline passed');
      return { cards: generateOfflineQuiz(cards, maxQuestions) };
    },
  };
}
