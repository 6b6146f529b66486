import { describe, expect, it } from 'vitest';
import { validCards } from '../ai-provider';
import { generateOfflineCards } from './offline-generator';
import { generateOfflineQuiz } from './offline-quiz';
import { splitSentences } from './text-analysis';

const biology = `Photosynthesis is the process by which green plants use sunlight to make glucose from carbon dioxide and water. Chlorophyll is the green pigment that absorbs light energy. Mitochondria are the organelles that release energy from glucose during cellular respiration. A gene is a segment of DNA that codes for a protein. The human body has 206 bones. The process by which a cell divides into two identical cells is called mitosis.`;

const history = `The Magna Carta was a charter of rights agreed to by King John of England in 1215. The Battle of Hastings took place in 1066. The Renaissance was a period of cultural rebirth in Europe. Feudalism refers to the medieval system in which vassals held land from lords in exchange for military service. The Roman Empire was divided into eastern and western halves by Theodosius.`;

const physics = `Newton's first law states that an object stays at rest or in uniform motion unless a force acts on it. Velocity is the rate of change of position with respect to time. Acceleration is the rate at which velocity changes. The speed of light in a vacuum is about 299,792 kilometres per second. Kinetic energy is the energy an object has because of its motion. A joule is the unit of energy in the International System of Units.`;

function expectWellFormed(cards: { question: string; answer: string }[]) {
  expect(validCards(cards)).toEqual(cards);
  const questions = cards.map((c) => c.question.toLowerCase());
  expect(new Set(questions).size).toBe(questions.length);
  for (const card of cards) {
    expect(card.question.trim()).not.toBe('');
    expect(card.answer.trim()).not.toBe('');
    expect(card.answer.toLowerCase()).not.toBe(card.question.toLowerCase());
  }
}

describe('offline generator', () => {
  it.each([
    ['biology', biology],
    ['history', history],
    ['physics', physics],
  ])('makes at least one well-formed card per two sentences of %s', (_name, text) => {
    const cards = generateOfflineCards(text, 40);
    expectWellFormed(cards);
    expect(cards.length).toBeGreaterThanOrEqual(Math.ceil(splitSentences(text).length / 2));
  });

  it('biology: definitions, "is called", and numbers as fill-in-the-blank', () => {
    expect(generateOfflineCards(biology, 40)).toEqual([
      {
        question: 'What is photosynthesis?',
        answer: 'The process by which green plants use sunlight to make glucose from carbon dioxide and water',
      },
      { question: 'What is chlorophyll?', answer: 'The green pigment that absorbs light energy' },
      {
        question: 'What are mitochondria?',
        answer: 'The organelles that release energy from glucose during cellular respiration',
      },
      { question: 'What is a gene?', answer: 'A segment of DNA that codes for a protein' },
      { question: 'Fill in the blank: The human body has _____ bones.', answer: '206' },
      { question: 'What is the process by which a cell divides into two identical cells called?', answer: 'Mitosis' },
    ]);
  });

  it('history: past-tense definitions, dates, "refers to", and a cloze on a characteristic name', () => {
    expect(generateOfflineCards(history, 40)).toEqual([
      {
        question: 'What was the Magna Carta?',
        answer: 'A charter of rights agreed to by King John of England in 1215',
      },
      {
        question:
          'Fill in the blank: The Magna Carta was a charter of rights agreed to by King John of England in _____.',
        answer: '1215',
      },
      { question: 'Fill in the blank: The Battle of Hastings took place in _____.', answer: '1066' },
      { question: 'What was the Renaissance?', answer: 'A period of cultural rebirth in Europe' },
      {
        question: 'What is feudalism?',
        answer: 'The medieval system in which vassals held land from lords in exchange for military service',
      },
      {
        question: 'Fill in the blank: The Roman Empire was divided into eastern and western halves by _____.',
        answer: 'Theodosius',
      },
    ]);
  });

  it('physics: "states that", definitions and quantities', () => {
    const cards = generateOfflineCards(physics, 40);
    expect(cards).toContainEqual({
      question: "What does Newton's first law state?",
      answer: 'An object stays at rest or in uniform motion unless a force acts on it',
    });
    expect(cards).toContainEqual({
      question: 'What is velocity?',
      answer: 'The rate of change of position with respect to time',
    });
    expect(cards).toContainEqual({
      question: 'Fill in the blank: The speed of light in a vacuum is about _____ kilometres per second.',
      answer: '299,792',
    });
    expect(cards).toContainEqual({
      question: 'What is kinetic energy?',
      answer: 'The energy an object has because of its motion',
    });
  });

  it('glossary lines, headings with their bullet lists, and lines wrapped mid-sentence', () => {
    const notes = [
      'Glossary',
      'Enzyme: a protein that speeds up a chemical reaction',
      'Substrate – the molecule an enzyme acts on',
      '',
      '# Parts of a flower',
      '- Petals attract pollinators',
      '- Sepals protect the bud',
      '- Stamens produce pollen',
      '',
      'Osmosis is the movement',
      'of water across a membrane.',
    ].join('\n');
    expect(generateOfflineCards(notes, 40)).toEqual([
      { question: 'What is enzyme?', answer: 'A protein that speeds up a chemical reaction' },
      { question: 'What is substrate?', answer: 'The molecule an enzyme acts on' },
      {
        question: 'What are the main points of "Parts of a flower"?',
        answer: '- Petals attract pollinators\n- Sepals protect the bud\n- Stamens produce pollen',
      },
      { question: 'What is osmosis?', answer: 'The movement of water across a membrane' },
    ]);
  });

  it('never returns duplicates, and respects the cap', () => {
    const repeated = `${biology}\n\n${biology}`;
    expect(generateOfflineCards(repeated, 40)).toEqual(generateOfflineCards(biology, 40));
    expect(generateOfflineCards(biology, 2)).toHaveLength(2);
  });

  it('returns nothing for text without material', () => {
    expect(generateOfflineCards('Hello there.', 40)).toEqual([]);
    expect(generateOfflineCards('', 40)).toEqual([]);
  });
});

describe('offline quiz', () => {
  it('asks each card from another angle and never copies a card', () => {
    const cards = [
      { question: 'What is a joule?', answer: 'The unit of energy in the International System of Units' },
      { question: 'Who wrote the Principia?', answer: 'Isaac Newton wrote the Principia in 1687' },
    ];
    expect(generateOfflineQuiz(cards, 10)).toEqual([
      {
        question: 'Which term matches this description: "The unit of energy in the International System of Units"?',
        answer: 'Joule',
      },
      {
        question: 'Who wrote the Principia?\n\nComplete the answer: Isaac _____ wrote the Principia in 1687',
        answer: 'Newton',
      },
    ]);
  });
});
