import { describe, expect, it } from 'vitest';
import { detectLanguage, functionWordVote, languageSegments, phrasings } from './language';
import { vocabularyPairs } from './vocabulary';

describe('language detection (franc-min, and by script for Japanese, Chinese and Korean)', () => {
  it.each([
    ['en', 'Photosynthesis is the process by which green plants use sunlight to make glucose.'],
    ['es', 'La fotosíntesis es el proceso por el cual las plantas verdes usan la luz del sol.'],
    ['fr', 'La photosynthèse est le processus par lequel les plantes vertes utilisent la lumière.'],
    ['de', 'Die Photosynthese ist der Prozess, bei dem grüne Pflanzen das Sonnenlicht nutzen.'],
    ['pt', 'A fotossíntese é o processo pelo qual as plantas verdes usam a luz do sol.'],
    ['it', 'La fotosintesi è il processo con cui le piante verdi usano la luce del sole.'],
    ['ja', '光合成は、植物が光のエネルギーを使ってブドウ糖を作る働きです。'],
    ['zh', '光合作用是植物利用光能把二氧化碳和水转化为葡萄糖的过程。'],
    ['ko', '광합성은 식물이 빛 에너지를 이용해 포도당을 만드는 과정입니다.'],
    ['ja', '月曜日：Monday\n火曜日：Tuesday\n水曜日：Wednesday'],
    ['en', 'Monday\nTuesday\nWednesday'],
    // English with accented loanwords is English.
    ['en', 'The café serves crème brûlée.'],
    ['en', 'Our café is famous for its crème brûlée, its soufflé and its purée of chestnuts.'],
    ['en', 'The protégé made a début at the soirée with a naïve résumé.'],
  ])('%s: %s', (language, text) => {
    expect(detectLanguage(text)).toBe(language);
  });

  it('words every card shape in each of the nine languages', () => {
    expect(Object.keys(phrasings).sort()).toEqual(['de', 'en', 'es', 'fr', 'it', 'ja', 'ko', 'pt', 'zh']);
    for (const say of Object.values(phrasings)) {
      for (const question of [say.whatIs('X'), say.whatDoes('X'), say.meaning('X'), say.mainPoints('X')])
        expect(question).toMatch(/X.*[?？]$/u);
      expect(say.fill('X _____.')).toContain('X _____.');
    }
  });
});

describe('function words and paragraphs', () => {
  it('lets function words outvote accented loanwords, and stays silent when they do not decide', () => {
    expect(
      functionWordVote(
        'Our café is famous for its crème brûlée, its soufflé and its purée of chestnuts, and the menu.',
      ),
    ).toBe('en');
    expect(functionWordVote('Le café est dans la rue et il est ouvert pour les clients du quartier.')).toBe('fr');
    expect(functionWordVote('Montag Dienstag Mittwoch')).toBeNull();
  });

  it('cuts a mixed text into runs of one language, a short paragraph staying with the run before it', () => {
    const english = 'The cell is the basic unit of life and it is made of a membrane that holds the cytoplasm.';
    const french =
      "La cellule est l'unité de base du vivant et elle est entourée par une membrane qui contient le cytoplasme.";
    const german =
      'Die Zelle ist die kleinste Einheit des Lebens und sie wird von einer Membran umgeben, die das Zytoplasma enthält.';
    const segments = languageSegments([english, french, 'Voir aussi', german, english].join('\n\n'), 'en');
    expect(segments.map((segment) => segment.language)).toEqual(['en', 'fr', 'de', 'en']);
    expect(segments[1]?.text).toContain('Voir aussi');
    expect(segments.map((segment) => segment.text).join('')).toBe(
      [english, french, 'Voir aussi', german, english].join('\n\n'),
    );
  });
});

describe('vocabulary lists', () => {
  it.each([
    ['tab', 'der Hund\tthe dog\ndie Katze\tthe cat\ndas Haus\tthe house'],
    ['" - "', 'el perro - the dog\nel gato - the cat\nla casa - the house'],
    ['" – "', 'le chien – the dog\nle chat – the cat\nla maison – the house'],
    ['":"', 'il cane: the dog\nil gatto: the cat\nla casa: the house'],
    ['"："', '犬：the dog\n猫：the cat\n家：the house'],
    ['"="', 'o cão = the dog\no gato = the cat\na casa = the house'],
    ['","', 'Hund, dog\nKatze, cat\nHaus, house'],
    ['one space left by extraction', 'Montag Monday\nDienstag Tuesday\nMittwoch Wednesday'],
  ])('splits pairs at %s', (_separator, list) => {
    const pairs = vocabularyPairs(list);
    expect(pairs).toHaveLength(3);
    expect(pairs?.[0]?.meaning).toMatch(/dog|Monday/);
  });

  it('is not a list: prose, a glossary of long definitions, or fewer than three lines', () => {
    expect(vocabularyPairs('A gene is a segment of DNA.\nA cell is the unit of life.\nAn atom is small.')).toBeNull();
    expect(
      vocabularyPairs(
        'Enzyme: a protein that speeds up a chemical reaction in cells\nSubstrate: the molecule an enzyme acts on in a reaction\nOsmosis: the movement of water across a membrane by diffusion',
      ),
    ).toBeNull();
    expect(vocabularyPairs('el perro - the dog\nel gato - the cat')).toBeNull();
  });
});
