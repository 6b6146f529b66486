import { describe, expect, it } from 'vitest';
import proseByLanguage from '../../../../test/fixtures/offline-generator/prose-by-language.json';
import { validCards } from '../ai-provider';
import { junkReasons } from './card-quality';
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

describe('offline generator: card shapes', () => {
  it('API-reference lines: "list.append(x) Add an item…" → what the call does, one sentence an answer', () => {
    const reference = [
      'list.append(x) Add an item to the end of the list. Equivalent to a[len(a):] = [x].',
      'list.insert(i, x) Insert an item at a given position.',
      'list.pop([i]) Remove the item at the given position in the list, and return it. If no index is specified, a.pop() removes and returns the last item in the list.',
    ].join('\n');
    expect(generateOfflineCards(reference, 40)).toEqual([
      { question: 'What does list.append(x) do?', answer: 'Add an item to the end of the list.' },
      { question: 'What does list.insert(i, x) do?', answer: 'Insert an item at a given position.' },
      {
        question: 'What does list.pop([i]) do?',
        answer: 'Remove the item at the given position in the list, and return it.',
      },
      {
        question: 'What happens if no index is specified?',
        answer: 'a.pop() removes and returns the last item in the list',
      },
    ]);
  });

  it('dense notes: one fact per card, each answer ending where its sentence ends', () => {
    const notes =
      'Myocardial infarction: necrosis of heart muscle caused by prolonged ischemia. Troponin I is the most specific marker of myocardial injury. Aspirin irreversibly inhibits cyclooxygenase-1, which reduces thromboxane A2 production.';
    expect(generateOfflineCards(notes, 40)).toEqual([
      { question: 'What is myocardial infarction?', answer: 'Necrosis of heart muscle caused by prolonged ischemia' },
      { question: 'What is troponin I?', answer: 'The most specific marker of myocardial injury' },
      {
        question: 'What does aspirin do?',
        answer: 'Irreversibly inhibits cyclooxygenase-1, which reduces thromboxane A2 production',
      },
    ]);
  });

  it('"X does …" with a noun-phrase subject, and "X — …" term lines', () => {
    expect(
      generateOfflineCards(
        'The else clause of a loop runs when the loop finishes without break.\nA set is an unordered collection with no duplicate elements.\nOsmosis — the movement of water across a membrane.',
        40,
      ),
    ).toEqual([
      { question: 'What does the else clause of a loop do?', answer: 'Runs when the loop finishes without break' },
      { question: 'What is a set?', answer: 'An unordered collection with no duplicate elements' },
      { question: 'What is osmosis?', answer: 'The movement of water across a membrane' },
    ]);
  });

  it('a term on its own line and its description on the next (option lists, man pages)', () => {
    expect(
      generateOfflineCards(
        '-e, --exact\nEach keyword is matched exactly against page names.\nepoch\nThis is a single (generally small) unsigned integer.',
        40,
      ),
    ).toEqual([
      { question: 'What does -e, --exact do?', answer: 'Each keyword is matched exactly against page names.' },
      { question: 'What is epoch?', answer: 'A single (generally small) unsigned integer.' },
    ]);
  });

  it('a definition list printed on one line: a path or a constant, then its description', () => {
    expect(
      generateOfflineCards(
        '/srv Contains site-specific data which is served by this system.\n/var/spool\nThis is where jobs wait to be processed.\nMAX_RETRY_COUNT The number of times a failed job is tried again.',
        40,
      ),
    ).toEqual([
      { question: 'What does /srv contain?', answer: 'site-specific data which is served by this system' },
      { question: 'What is /var/spool?', answer: 'Where jobs wait to be processed' },
      { question: 'What is MAX_RETRY_COUNT?', answer: 'The number of times a failed job is tried again' },
    ]);
  });

  it('never blanks a word the text repeats throughout, nor a sentence cut from another', () => {
    const repeated = Array.from(
      { length: 12 },
      (_, k) => `Section ${k + 1} of the configuration lists the options of stage ${k + 1} for the compiler.`,
    ).join(' ');
    const cards = generateOfflineCards(repeated, 40);
    expect(cards.filter((card) => /configuration/i.test(card.answer))).toEqual([]);
    expect(
      generateOfflineCards(
        'Or specify the wildcard address to accept connections on every interface of the machine.\nthen the remainder of each string which consists of digit characters is compared numerically.',
        40,
      ),
    ).toEqual([]);
  });

  it('advice on a tool: "Use X when …" asks when, "Use X to …" asks why', () => {
    expect(
      generateOfflineCards(
        'Use preview when you want to see every outcome before answering.\nUse `reset` to clear the history of a single card.',
        40,
      ),
    ).toEqual([
      { question: 'When should you use preview?', answer: 'When you want to see every outcome before answering' },
      { question: 'Why use reset?', answer: 'To clear the history of a single card' },
    ]);
  });

  it('drops an answer that opens with a pronoun and needs the sentence before it', () => {
    const cards = generateOfflineCards(
      'When you pass a decay value directly, it must be positive and within the range 0.1 to 0.8.',
      40,
    );
    expect(cards.filter((card) => /^it\b/i.test(card.answer))).toEqual([]);
  });

  it('causes ("If X, Y." → "What happens if X?") and a sentence introducing a list', () => {
    expect(
      generateOfflineCards(
        'If reply.raw is used to send a response, onResponse hooks will still be executed.\nBefore the user handler, reply.hijack() can be called to:\n- Prevent Fastify from running subsequent hooks\n- Prevent Fastify from sending the response automatically',
        40,
      ),
    ).toEqual([
      {
        question: 'What happens if reply.raw is used to send a response?',
        answer: 'OnResponse hooks will still be executed',
      },
      {
        question: 'Fill in the blank: Before the user handler, reply.hijack() can be called to: _____',
        answer:
          '- Prevent Fastify from running subsequent hooks\n- Prevent Fastify from sending the response automatically',
      },
    ]);
  });

  it('never makes the junk cards the issue reported from a tutorial', () => {
    const tutorial = [
      '```',
      '>>> x = int(input("Please enter an integer: "))',
      '```',
      'Insert an item at a given position. The parser repeats the offending line and displays a little arrow.',
      "We'll find other uses for del later. If the expression is true, the block runs.",
      'Icons: X Desktop Group (http://www.freedesktop.org)',
    ].join('\n');
    const cards = generateOfflineCards(tutorial, 40);
    // No blank on "item", "line", "later" or "Please", no clause as a subject, the URL kept whole.
    expect(cards).toEqual([
      { question: 'What happens if the expression is true?', answer: 'The block runs' },
      { question: 'What is icons?', answer: 'X Desktop Group (http://www.freedesktop.org)' },
    ]);
    for (const card of cards) expect(junkReasons(card)).toEqual([]);
  });
});

describe('offline generator: vocabulary lists, one card per line, in nine languages', () => {
  it.each([
    ['en', 'Monday, lunes\nTuesday, martes\nWednesday, miércoles', 'What does "Monday" mean?', 'lunes'],
    ['es', 'el perro - the dog\nel gato - the cat\nla casa - the house', '¿Qué significa «el perro»?', 'the dog'],
    ['fr', 'le chien – the dog\nle chat – the cat\nla maison – the house', 'Que signifie « le chien » ?', 'the dog'],
    ['de', 'der Hund\tthe dog\ndie Katze\tthe cat\ndas Haus\tthe house', 'Was bedeutet „der Hund“?', 'the dog'],
    ['pt', 'o cão = the dog\no gato = the cat\na casa = the house', 'O que significa «o cão»?', 'the dog'],
    ['it', 'il cane: the dog\nil gatto: the cat\nla casa: the house', 'Che cosa significa «il cane»?', 'the dog'],
    [
      'ja',
      '食べる：to eat\n飲む：to drink\n見る：to see\n行く：to go\n来る：to come',
      '「食べる」の意味は何ですか？',
      'to eat',
    ],
    ['zh', '狗 dog\n猫 cat\n房子 house\n书 book', '“狗”是什么意思？', 'dog'],
    ['ko', '개 - dog\n고양이 - cat\n집 - house', "'개'은(는) 무슨 뜻입니까?", 'dog'],
  ])('%s', (_language, list, question, answer) => {
    const cards = generateOfflineCards(list, 40);
    expect(cards).toHaveLength(list.split('\n').length);
    expect(cards[0]).toEqual({ question, answer });
  });

  it('eight lines with " - " give eight cards, and a title line it cannot split is left out silently', () => {
    const list = [
      'Animals',
      'el perro - the dog',
      'el gato - the cat',
      'el caballo - the horse',
      'la vaca - the cow',
      'el pájaro - the bird',
      'el pez - the fish',
      'la oveja - the sheep',
      'el cerdo - the pig',
    ].join('\n');
    const cards = generateOfflineCards(list, 40);
    expect(cards.map((card) => card.answer)).toEqual([
      'the dog',
      'the cat',
      'the horse',
      'the cow',
      'the bird',
      'the fish',
      'the sheep',
      'the pig',
    ]);
  });
});

describe('offline generator: prose worded in its language', () => {
  it.each(proseByLanguage)('$language', ({ text, cards }) => {
    expect(generateOfflineCards(text, 40)).toEqual(cards);
  });
});

describe('offline generator: each paragraph in its own language, repeated text once', () => {
  const photosynthesis =
    'Photosynthesis is the process by which green plants use sunlight to make glucose from carbon dioxide and water. The chlorophyll in the leaves absorbs the light that drives the reaction.';
  const respiration =
    "La respiration cellulaire est le processus par lequel les cellules dégradent le glucose pour produire de l'énergie. Elle a lieu dans les mitochondries de la cellule.";
  const osmosis =
    'Osmosis is the movement of water across a semipermeable membrane from a dilute solution to a concentrated one. It does not need energy from the cell.';

  it('cards an English text with a French paragraph by English rules, and the French paragraph in French', () => {
    expect(generateOfflineCards([photosynthesis, respiration, osmosis].join('\n\n'), 40)).toEqual([
      {
        question: 'What is photosynthesis?',
        answer: 'The process by which green plants use sunlight to make glucose from carbon dioxide and water',
      },
      { question: 'What does the chlorophyll in the leaves do?', answer: 'Absorbs the light that drives the reaction' },
      {
        question: "Qu'est-ce que la respiration cellulaire ?",
        answer: "Le processus par lequel les cellules dégradent le glucose pour produire de l'énergie",
      },
      {
        question: 'What is osmosis?',
        answer: 'The movement of water across a semipermeable membrane from a dilute solution to a concentrated one',
      },
    ]);
  });

  it('answers "If X, then Y" with Y alone, in English and in Italian', () => {
    const english = generateOfflineCards(
      'If no operator is specified, then equality is assumed by the parser of version ranges.',
      40,
    );
    expect(english).toContainEqual({
      question: 'What happens if no operator is specified?',
      answer: 'Equality is assumed by the parser of version ranges',
    });
    const italian = generateOfflineCards(
      'Se anche --exact è usato, allora è trovata una corrispondenza solo se la parola chiave espansa corrisponde ad un nome di pagina.',
      40,
    );
    expect(italian.map((card) => card.answer)).toContain(
      'È trovata una corrispondenza solo se la parola chiave espansa corrisponde ad un nome di pagina',
    );
  });

  it('makes the same cards from a passage repeated fifteen times as from the passage once', () => {
    const text = `${photosynthesis} ${osmosis} The nucleus holds the genetic material of the cell and controls its activities. Mitochondria release energy from glucose in a process called respiration. Ribosomes build proteins from amino acids following the code carried by messenger RNA.`;
    const once = generateOfflineCards(text, 40);
    expect(once.length).toBeGreaterThanOrEqual(4);
    expect(generateOfflineCards(Array(15).fill(text).join('\n\n'), 40)).toEqual(once);
  });
});
