import { type CardDraft, dropNearDuplicates, validCards } from '../ai-provider';
import { capitalize, isContentWord, rankTerms, stripEndPunctuation, words } from './text-analysis';

const definitionQuestion = /^what (?:is|are|was|were) (.+?)\??$/i;

/**
 * Offline quiz questions built from a deck's cards, each from another angle than the card itself:
 * the reverse of a definition ("Which term matches this description…"), a fill-in-the-blank on the answer's most
 * characteristic term, or, for short answers, the reverse question.
 */
export function generateOfflineQuiz(cards: CardDraft[], maxQuestions: number): CardDraft[] {
  const deckText = cards.map((card) => `${card.question} ${card.answer}`).join('\n');
  const ranked = rankTerms(deckText).map((entry) => entry.term.toLowerCase());
  const rank = (term: string) => {
    const at = ranked.indexOf(term.toLowerCase());
    return at < 0 ? Number.MAX_SAFE_INTEGER : at;
  };
  const questions: CardDraft[] = [];
  for (const card of cards) {
    const answer = stripEndPunctuation(card.answer);
    const definition = definitionQuestion.exec(card.question.trim());
    if (definition?.[1] && words(answer).length >= 3) {
      questions.push({
        question: `Which term matches this description: "${answer}"?`,
        answer: capitalize(definition[1].replace(/^(the|a|an) /i, '')),
      });
      continue;
    }
    // Blank a term the question does not already give away.
    const asked = new Set(words(card.question).map((w) => w.toLowerCase()));
    const terms = words(answer).filter((w) => isContentWord(w) && !asked.has(w.toLowerCase()));
    if (words(answer).length >= 4 && terms.length > 0) {
      const term = [...terms].sort((a, b) => rank(a) - rank(b) || b.length - a.length)[0] ?? '';
      const at = answer.indexOf(term);
      questions.push({
        question: `${card.question.trim()}\n\nComplete the answer: ${answer.slice(0, at)}_____${answer.slice(at + term.length)}`,
        answer: term,
      });
      continue;
    }
    questions.push({ question: `Which question has the answer "${answer}"?`, answer: card.question.trim() });
  }
  const originals = new Set(cards.map((card) => card.question.trim().toLowerCase()));
  return dropNearDuplicates(validCards(questions))
    .filter((question) => !originals.has(question.question.toLowerCase()))
    .slice(0, maxQuestions);
}
