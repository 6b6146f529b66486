/**
 * The language of a deck's side, from its cards' text, as a BCP-47 primary tag (or null when it cannot tell): the
 * script decides for the languages that have their own, franc-min's trigrams (loaded on first use, so that only a
 * deck without a language setting pays for them) among the Latin-script ones.
 */

/** franc's ISO 639-3 codes of the Latin-script languages a browser usually has a voice for, and their BCP-47 tags. */
const latinCodes: Record<string, string> = {
  eng: 'en',
  spa: 'es',
  fra: 'fr',
  deu: 'de',
  por: 'pt',
  ita: 'it',
  nld: 'nl',
  pol: 'pl',
  swe: 'sv',
  dan: 'da',
  nob: 'nb',
  fin: 'fi',
  ces: 'cs',
  slk: 'sk',
  hun: 'hu',
  ron: 'ro',
  tur: 'tr',
  vie: 'vi',
  ind: 'id',
  hrv: 'hr',
};

/** Scripts that name their language well enough for speech, in the order they are tried. */
const scripts: [RegExp, string][] = [
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, 'ja'],
  [/\p{Script=Hangul}/u, 'ko'],
  [/\p{Script=Han}/u, 'zh'],
  [/\p{Script=Cyrillic}/u, 'ru'],
  [/\p{Script=Greek}/u, 'el'],
  [/\p{Script=Arabic}/u, 'ar'],
  [/\p{Script=Hebrew}/u, 'he'],
  [/\p{Script=Thai}/u, 'th'],
  [/\p{Script=Devanagari}/u, 'hi'],
];

/** The language of `texts` by script alone, or 'latin' when they are in Latin letters, or null without letters. */
export function scriptLanguage(texts: readonly string[]): string | null {
  const sample = texts.join('\n').slice(0, 5_000);
  const letters = sample.match(/\p{L}/gu)?.length ?? 0;
  if (letters === 0) return null;
  for (const [pattern, lang] of scripts) {
    const count = sample.match(new RegExp(pattern.source, 'gu'))?.length ?? 0;
    // Kana, hangul and han decide even beside some Latin words; the others must be most of the letters.
    if (count > 0 && (['ja', 'ko', 'zh'].includes(lang) ? count * 4 >= letters : count * 2 >= letters)) return lang;
  }
  return 'latin';
}

let franc: Promise<typeof import('franc-min')> | null = null;

/** The language of a deck side's texts, or null when they are too short or too mixed to tell. */
export async function detectLanguage(texts: readonly string[]): Promise<string | null> {
  const byScript = scriptLanguage(texts);
  if (byScript !== 'latin') return byScript;
  franc ??= import('franc-min');
  const { franc: detect } = await franc;
  const sample = texts.join('. ').slice(0, 5_000);
  const code = detect(sample, { only: Object.keys(latinCodes), minLength: 10 });
  return latinCodes[code] ?? null;
}
