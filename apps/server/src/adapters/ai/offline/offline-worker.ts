/**
 * The entry of the offline generator's worker processes (see offline-provider.ts): the extractive generator's
 * CPU-heavy work on the user's text runs here, not on the server's event loop.
 */

import type { CardStyle } from '@flashcards/shared/api-types';
import { yieldCpuToServer } from '../../workers/worker-entry';
import type { CardDraft } from '../ai-provider';
import { generateQuotedCards } from './offline-generator';
import { generateOfflineQuiz } from './offline-quiz';

yieldCpuToServer();

export function cards(input: { text: string; maxCards: number; style: CardStyle }): CardDraft[] {
  return generateQuotedCards(input.text, input.maxCards, input.style);
}

export function quiz(input: { cards: CardDraft[]; maxQuestions: number }): CardDraft[] {
  return generateOfflineQuiz(input.cards, input.maxQuestions);
}
