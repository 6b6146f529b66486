/** Small, dependency-free text analysis for the offline generator: sentences, words, characteristic terms. */

const segmenters = new Map<string, Intl.Segmenter>();

/**
 * Sentences of a paragraph, trimmed, by the rules of the text's language (Intl.Segmenter, which also splits
 * scripts written without spaces at 。！？), with abbreviations such as "e.g." kept inside.
 */
export function splitSentences(paragraph: string, language = 'en'): string[] {
  let segmenter = segmenters.get(language);
  if (!segmenter) {
    segmenter = new Intl.Segmenter(language, { granularity: 'sentence' });
    segmenters.set(language, segmenter);
  }
  const out: string[] = [];
  let carry = '';
  for (const { segment } of segmenter.segment(paragraph)) {
    const sentence = `${carry}${segment}`.trim();
    // "e.g." / "i.e." / "Dr." / a lone initial end a segment but not a sentence.
    if (
      /(\b(e\.g|i\.e|etc|vs|Dr|Mr|Mrs|Ms|St|Fig|approx|ca|z\.\s?B|d\.\s?h|bzw|p\.\s?ej|p\.\s?ex)\.|\b[A-Z]\.)$/.test(
        sentence,
      )
    ) {
      carry = `${sentence} `;
      continue;
    }
    carry = '';
    if (sentence) out.push(sentence);
  }
  if (carry.trim()) out.push(carry.trim());
  return out;
}

export const stopwords = new Set(
  `a about above after again against all also am an and any are as at be because been before being below between
both but by can could did do does doing down during each either else ever every few for from further had has have
having he her here hers herself him himself his how however i if in into is it its itself just least less like made
make many may me might more most much must my myself neither no nor not now of off often on once one only or other
others our ours ourselves out over own per rather same she should since so some such than that the their theirs them
themselves then there these they this those through thus to too under until up upon us very was we were what when
where whether which while who whom whose why will with within without would yet you your yours yourself yourselves
called known refers means defined include includes including used uses using use`
    .split(/\s+/)
    .filter(Boolean),
);

/** Frequent general words that say little about a text's subject. */
const commonWords = new Set(
  `time year years people way day days man men woman women thing things world life hand part parts child children eye
place work week case point number group problem fact first second new old good great high small large long little
different important able bad best better big early few last late next own public right same young called called
found based form forms example examples kind kinds type types called number numbers amount level levels area areas
during several around always never usually often sometimes called become becomes became main major minor certain
various whole called another through across toward towards along still even back well called called called`
    .split(/\s+/)
    .filter(Boolean),
);

export function words(text: string): string[] {
  return text.match(/\p{L}[\p{L}\p{N}'’-]*/gu) ?? [];
}

export function isContentWord(word: string): boolean {
  const lower = word.toLowerCase();
  return lower.length >= 4 && !stopwords.has(lower) && !commonWords.has(lower);
}

/**
 * Terms ranked by how characteristic they are of the text: repeated content words and capitalised names
 * (inside a sentence, so not just sentence starts), longer and rarer-looking words first.
 */
export function rankTerms(text: string): { term: string; score: number }[] {
  const scores = new Map<string, { term: string; score: number }>();
  const add = (term: string, weight: number) => {
    const key = term.toLowerCase();
    const entry = scores.get(key) ?? { term, score: 0 };
    entry.score += weight;
    scores.set(key, entry);
  };
  for (const sentence of text.split(/(?<=[.!?])\s+|\n+/)) {
    // Names: runs of capitalised words not at the sentence start ("Isaac Newton", "Battle of Hastings").
    const body = sentence.replace(/^\W*\S+\s*/, '');
    for (const match of body.matchAll(
      /\b[A-Z][\p{L}'’-]+(?:\s+(?:of|de|the|von|van)\s+[A-Z][\p{L}'’-]+|\s+[A-Z][\p{L}'’-]+)*/gu,
    )) {
      if (!stopwords.has(match[0].toLowerCase())) add(match[0], 2.5);
    }
    for (const word of words(sentence)) {
      if (isContentWord(word))
        add(word.toLowerCase() === word ? word : word.toLowerCase(), 1 + Math.min(word.length, 14) / 14);
    }
  }
  return [...scores.values()].sort((a, b) => b.score - a.score || b.term.length - a.term.length);
}

export function capitalize(text: string): string {
  // An identifier keeps its case ("a.pop() removes …", "ts-fsrs-demo").
  if (/^[\p{L}\d]+[._(\-/][\p{L}\d]/u.test(text)) return text;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function stripEndPunctuation(text: string): string {
  return text.replace(/[\s.;:,!]+$/u, '').trim();
}
