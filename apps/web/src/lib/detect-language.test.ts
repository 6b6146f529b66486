import { describe, expect, it } from 'vitest';
import { detectLanguage, scriptLanguage } from './detect-language';

describe('detectLanguage', () => {
  it.each([
    [['ねこ', '犬は動物です'], 'ja'],
    [['고양이', '사과'], 'ko'],
    [['猫', '苹果'], 'zh'],
    [['кошка', 'собака'], 'ru'],
    [['γάτα', 'σκύλος'], 'el'],
    [['قطة', 'كلب'], 'ar'],
    [['חתול'], 'he'],
    [['แมว'], 'th'],
    [['बिल्ली'], 'hi'],
  ])('tells %j by its script: %s', async (texts, lang) => {
    expect(scriptLanguage(texts)).toBe(lang);
    expect(await detectLanguage(texts)).toBe(lang);
  });

  it('says latin for Latin letters and null without letters', () => {
    expect(scriptLanguage(['cat', 'dog'])).toBe('latin');
    expect(scriptLanguage(['1 + 1', '2'])).toBeNull();
    // A Japanese side with a Latin abbreviation is still Japanese.
    expect(scriptLanguage(['DNAの二重らせん'])).toBe('ja');
  });

  it("tells Latin-script languages apart from a deck side's sentences", async () => {
    expect(
      await detectLanguage([
        'Le chat dort sur le canapé depuis ce matin.',
        'Nous allons à la plage demain avec les enfants.',
        'Il faut acheter du pain et du fromage.',
      ]),
    ).toBe('fr');
    expect(
      await detectLanguage([
        'Der Hund schläft im Garten unter dem Baum.',
        'Wir fahren morgen mit dem Zug nach Berlin.',
        'Ich habe heute keine Zeit für das Kino.',
      ]),
    ).toBe('de');
    expect(
      await detectLanguage([
        'The mitochondria produce most of the energy of the cell.',
        'Photosynthesis turns light into chemical energy in plants.',
      ]),
    ).toBe('en');
  });

  it('gives up on text too short to tell', async () => {
    expect(await detectLanguage(['ok'])).toBeNull();
  });
});
