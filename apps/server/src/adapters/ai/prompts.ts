import type { AnswerToJudge, CardDraft } from './ai-provider';

/** The JSON schema every provider answer must match: `{ "cards": [{ "question", "answer" }] }`. */
export const cardsSchema = {
  type: 'object',
  properties: {
    cards: {
      type: 'array',
      items: {
        type: 'object',
        properties: { question: { type: 'string' }, answer: { type: 'string' } },
        required: ['question', 'answer'],
        additionalProperties: false,
      },
    },
  },
  required: ['cards'],
  additionalProperties: false,
} as const;

const outputRule =
  'Reply with JSON only, exactly of this shape: {"cards":[{"question":"...","answer":"..."}]}. No other text.';

export function cardsPrompt(text: string, maxCards: number): { system: string; user: string } {
  return {
    system: [
      'You write flashcards for spaced-repetition study.',
      `From the material the user gives, write at most ${maxCards} cards, fewer if the material is short.`,
      'Each card is atomic and unambiguous: one fact or idea per card, a question with exactly one correct answer.',
      'Prefer cards that test understanding (why, how, what follows, what is the difference) over recall of wording.',
      'Write the cards in the language of the material.',
      'Use Markdown where it helps, and LaTeX math between $...$ (inline) or $$...$$ (display) wherever the material has formulas.',
      'Use only facts stated in the material; do not invent anything.',
      outputRule,
    ].join('\n'),
    user: `Material:\n"""\n${text}\n"""`,
  };
}

export function quizPrompt(cards: CardDraft[], maxQuestions: number): { system: string; user: string } {
  return {
    system: [
      'You write quiz questions for a learner who studies the flashcards the user gives.',
      `Write at most ${maxQuestions} new questions that test the same material from another angle:`,
      'application to a new case, comparison, cause and effect, the reverse direction, or a worked example.',
      'Never copy a flashcard question or its answer word for word. Each question has one clear, short answer.',
      'Write in the language of the flashcards, with Markdown and $...$ math where the flashcards use formulas.',
      outputRule,
    ].join('\n'),
    user: `Flashcards:\n${cards.map((card, i) => `${i + 1}. Q: ${card.question}\n   A: ${card.answer}`).join('\n')}`,
  };
}

/** The JSON schema of a judged answer: `{ "verdict", "explanation" }`. */
export const judgementSchema = {
  type: 'object',
  properties: {
    verdict: { type: 'string', enum: ['correct', 'close', 'wrong'] },
    explanation: { type: 'string' },
  },
  required: ['verdict', 'explanation'],
  additionalProperties: false,
} as const;

export function judgePrompt({ question, expected, typed }: AnswerToJudge): { system: string; user: string } {
  return {
    system: [
      "You grade a learner's typed answer to a flashcard by its meaning, not its wording.",
      '"correct": it says what the expected answer says (other words, order or spelling are fine).',
      '"close": nearly right: a small part missing or slightly off, but not a different fact.',
      '"wrong": a different fact, number, name or date, an added or missing negation, or a guess that misses the point.',
      'explanation: one short line in the language of the card on what is missing or off (empty when correct).',
      'Reply with JSON only, exactly of this shape: {"verdict":"correct|close|wrong","explanation":"..."}. No other text.',
    ].join('\n'),
    user: `Question:\n"""\n${question}\n"""\nExpected answer:\n"""\n${expected}\n"""\nTyped answer:\n"""\n${typed}\n"""`,
  };
}
