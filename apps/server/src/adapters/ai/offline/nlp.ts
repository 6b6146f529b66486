import model from 'wink-eng-lite-web-model';
import winkNLP from 'wink-nlp';

/** A word of English text with its universal part-of-speech tag (NOUN, PROPN, VERB, ADJ, ADV, …). */
export interface TaggedToken {
  value: string;
  pos: string;
}

let nlp: ReturnType<typeof winkNLP> | null = null;

/** English part-of-speech tagging with wink-nlp's light English model (shipped in its npm package, offline). */
export function tagEnglish(text: string): TaggedToken[] {
  nlp ??= winkNLP(model);
  const doc = nlp.readDoc(text);
  const values = doc.tokens().out() as string[];
  const tags = doc.tokens().out(nlp.its.pos) as string[];
  return values.map((value, i) => ({ value, pos: tags[i] ?? 'X' }));
}

/** The tag of `word` where it stands in `sentence` (its first occurrence), or null. */
export function tagOfWord(sentence: string, word: string): string | null {
  const tokens = tagEnglish(sentence);
  const first = word.split(/\s+/)[0]?.toLowerCase();
  return tokens.find((token) => token.value.toLowerCase() === first)?.pos ?? null;
}
