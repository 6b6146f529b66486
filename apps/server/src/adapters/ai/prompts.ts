import type { CardStyle } from '@flashcards/shared/api-types';
import type { AnswerToJudge, CardDraft, DistractorRequest } from './ai-provider';

const basicItem = {
  type: 'object',
  properties: { question: { type: 'string' }, answer: { type: 'string' }, quote: { type: 'string' } },
  required: ['question', 'answer', 'quote'],
  additionalProperties: false,
} as const;

const clozeItem = {
  type: 'object',
  properties: { text: { type: 'string' }, quote: { type: 'string' } },
  required: ['text', 'quote'],
  additionalProperties: false,
} as const;

// Quiz questions test a deck, not a text: they have no quote to give.
const quizItem = {
  type: 'object',
  properties: { question: { type: 'string' }, answer: { type: 'string' } },
  required: ['question', 'answer'],
  additionalProperties: false,
} as const;

function cardsOf(items: object) {
  return {
    type: 'object',
    properties: { cards: { type: 'array', items } },
    required: ['cards'],
    additionalProperties: false,
  } as const;
}

/** The JSON schema of a card answer: `{ "cards": [{ "question", "answer", "quote" }] }`. */
export const cardsSchema = cardsOf(basicItem);

/** The JSON schema of a quiz answer: `{ "cards": [{ "question", "answer" }] }`. */
export const quizSchema = cardsOf(quizItem);

/**
 * The JSON schema of an answer in each card style: basic cards, cloze notes (`{ "text" }`), or either per card.
 */
export function cardsSchemaFor(style: CardStyle): Record<string, unknown> {
  if (style === 'cloze') return cardsOf(clozeItem);
  if (style === 'mixed') return cardsOf({ anyOf: [basicItem, clozeItem] });
  return cardsSchema;
}

const outputRules: Record<CardStyle, string> = {
  basic:
    'Reply with JSON only, exactly of this shape: {"cards":[{"question":"...","answer":"...","quote":"..."}]}. No other text.',
  cloze: 'Reply with JSON only, exactly of this shape: {"cards":[{"text":"...","quote":"..."}]}. No other text.',
  mixed:
    'Reply with JSON only, exactly of this shape: {"cards":[{"question":"...","answer":"...","quote":"..."},{"text":"...","quote":"..."}]}, ' +
    'each card either a question and answer or a cloze text. No other text.',
};

const quoteRule =
  'In "quote", copy word for word the sentence or short passage of the material that the card was made from (at most three sentences); never write a card you cannot quote.';

// Card-writing rules from the learning literature (Wozniak's "minimum information principle" and its companions).
const cardRules = [
  'Each card is atomic and unambiguous: one fact or idea per card, with exactly one correct answer.',
  'Each card stands alone: name its subject rather than a pronoun ("it", "this", "they") that points outside the card, and give the context a learner needs (the topic, field or period) in a few words.',
  'Keep answers short: the fact asked for, never two facts in one answer, never the question restated.',
  'Ask about the subject of the material, not about the document itself (its title, headings, page numbers, authors or licence) unless that is the subject.',
];

const outputRule =
  'Reply with JSON only, exactly of this shape: {"cards":[{"question":"...","answer":"..."}]}. No other text.';

/** How each card style asks for cloze notes (basic asks for none). */
const clozeRules: Record<CardStyle, string[]> = {
  basic: [],
  cloze: [
    'Write every card as a cloze note: a sentence or short passage from the material in "text", with the facts to recall marked {{c1::like this}}.',
    'Cloze notes suit definitions (blank the term defined), lists (one number per item: {{c1::first}}, {{c2::second}}) and key terms in a sentence.',
  ],
  mixed: [
    'For each card choose the better form: a cloze note ("text" with the facts to recall marked {{c1::like this}}) where the material suits one (a definition, a list, key terms in a sentence), a question and answer otherwise (why, how, cause and effect, comparisons).',
    'In a cloze note, a list gets one number per item: {{c1::first}}, {{c2::second}}.',
  ],
};

const deletionRules = [
  'One fact per deletion: each {{cN::...}} holds one term, name, number or short phrase, never a whole clause or list.',
  'Number the deletions from c1; deletions that must be recalled together share a number. A hint may follow the answer: {{c1::answer::hint}}.',
  'Never blank a word a learner could guess from the grammar alone: articles, pronouns, auxiliary verbs, prepositions, conjunctions.',
  'Keep the rest of the sentence as in the material, so that the blank has exactly one correct answer.',
];

export function cardsPrompt(
  text: string,
  maxCards: number,
  style: CardStyle = 'basic',
): { system: string; user: string } {
  return {
    system: [
      'You write flashcards for spaced-repetition study.',
      `From the material the user gives, write at most ${maxCards} cards, fewer if the material is short.`,
      ...cardRules,
      ...(style === 'cloze'
        ? []
        : [
            'Prefer cards that test understanding (why, how, what follows, what is the difference) over recall of wording.',
          ]),
      ...clozeRules[style],
      ...(style === 'basic' ? [] : deletionRules),
      'Write the cards in the language of the material.',
      'Use Markdown where it helps, and LaTeX math between $...$ (inline) or $$...$$ (display) wherever the material has formulas.',
      'Use only facts stated in the material; do not invent anything.',
      quoteRule,
      outputRules[style],
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
      'Each question stands alone: name its subject rather than a pronoun that points outside the question.',
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

/** The JSON schema of written distractors: `{ "items": [{ "distractors": [...] }] }`, one item per question. */
export const distractorsSchema = {
  type: 'object',
  properties: {
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: { distractors: { type: 'array', items: { type: 'string' } } },
        required: ['distractors'],
        additionalProperties: false,
      },
    },
  },
  required: ['items'],
  additionalProperties: false,
} as const;

export function distractorsPrompt({ items, count, examples }: DistractorRequest): { system: string; user: string } {
  return {
    system: [
      `You write ${count} wrong options for each multiple-choice question of a flashcard quiz.`,
      'Each wrong option is plausible to a learner who half knows the subject, of the same kind, form and length as',
      'the correct answer (a date for a date, a number with the same unit, a name for a name), and clearly wrong:',
      'never a synonym, a rewording or a part of the correct answer, and all different from each other.',
      'Write in the language of the flashcards, in the style of the example answers of the same deck.',
      `Reply with JSON only, exactly of this shape: {"items":[{"distractors":["...", ...]}, ...]}, one item per`,
      'question, in the order given. No other text.',
    ].join('\n'),
    user: [
      `Example answers of the deck:\n${examples.map((example) => `- ${example}`).join('\n')}`,
      `Questions:\n${items.map((item, i) => `${i + 1}. Q: ${item.question}\n   Correct answer: ${item.answer}`).join('\n')}`,
    ].join('\n\n'),
  };
}
