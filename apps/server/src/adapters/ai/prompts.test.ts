import { describe, expect, it } from 'vitest';
import { cardsPrompt, cardsSchema, cardsSchemaFor, quizPrompt } from './prompts';

describe('card prompts per style', () => {
  it('basic asks for questions and answers only, as before', () => {
    const { system, user } = cardsPrompt('Osmosis is the movement of water.', 7);
    expect(system).toContain('write at most 7 cards');
    expect(system).toContain('{"cards":[{"question":"...","answer":"...","quote":"..."}]}');
    expect(system).toContain('In "quote", copy word for word the sentence or short passage of the material');
    expect(system).not.toMatch(/cloze|\{\{c/i);
    expect(user).toBe('Material:\n"""\nOsmosis is the movement of water.\n"""');
    expect(cardsSchemaFor('basic')).toBe(cardsSchema);
  });

  it('cloze asks for cloze notes on definitions, lists and key terms, one fact per deletion, no guessable blank', () => {
    const { system } = cardsPrompt('text', 5, 'cloze');
    expect(system).toContain('Write every card as a cloze note');
    expect(system).toMatch(/definitions \(blank the term defined\), lists \(one number per item/);
    expect(system).toContain('key terms in a sentence');
    expect(system).toContain('One fact per deletion');
    expect(system).toMatch(/Never blank a word a learner could guess from the grammar alone: articles, pronouns/);
    expect(system).toContain('{{c1::answer::hint}}');
    expect(system).toContain('{"cards":[{"text":"...","quote":"..."}]}');
    expect(system).not.toContain('"question"');
    expect(cardsSchemaFor('cloze')).toMatchObject({
      properties: { cards: { items: { required: ['text', 'quote'], additionalProperties: false } } },
    });
  });

  it('mixed lets the model choose per card, with the same deletion rules, and either shape in the schema', () => {
    const { system } = cardsPrompt('text', 5, 'mixed');
    expect(system).toContain('For each card choose the better form');
    expect(system).toContain('One fact per deletion');
    expect(system).toContain('{"question":"...","answer":"...","quote":"..."},{"text":"...","quote":"..."}');
    expect(cardsSchemaFor('mixed')).toMatchObject({
      properties: {
        cards: { items: { anyOf: [{ required: ['question', 'answer', 'quote'] }, { required: ['text', 'quote'] }] } },
      },
    });
  });
});

describe('the card-writing rules every style asks for', () => {
  it.each(['basic', 'cloze', 'mixed'] as const)(
    '%s: minimum information, context cues, no orphan pronouns, quotes',
    (style) => {
      const { system } = cardsPrompt('text', 5, style);
      expect(system).toContain('one fact or idea per card, with exactly one correct answer');
      expect(system).toContain(
        'name its subject rather than a pronoun ("it", "this", "they") that points outside the card',
      );
      expect(system).toContain('give the context a learner needs (the topic, field or period)');
      expect(system).toContain('never two facts in one answer');
      expect(system).toContain('not about the document itself');
      expect(system).toContain('Use only facts stated in the material; do not invent anything.');
      expect(system).toContain('never write a card you cannot quote');
    },
  );

  it('quiz questions stand alone too and never copy a card', () => {
    const { system, user } = quizPrompt([{ question: 'What is osmosis?', answer: 'Water crossing a membrane' }], 3);
    expect(system).toContain('Write at most 3 new questions');
    expect(system).toContain('name its subject rather than a pronoun');
    expect(system).toContain('Never copy a flashcard question or its answer word for word.');
    expect(user).toBe('Flashcards:\n1. Q: What is osmosis?\n   A: Water crossing a membrane');
  });
});
