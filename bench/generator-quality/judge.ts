// An independent judge of generated cards: the cards a learner would delete on sight, by rules written from the
// learner's side and apart from the generator's own filters (apps/server/src/adapters/ai/offline/card-quality.ts is
// deliberately not imported here), so that the bench can see the junk those filters let through.

export interface JudgedCard {
  question: string;
  answer: string;
  /** False when the server did not find the card's quote in the material (a model's card). */
  verified?: boolean;
}

export type Verdict =
  | 'starts_mid_sentence'
  | 'unfinished_sentence'
  | 'guessable_blank'
  | 'blank_given_away'
  | 'vague_question'
  | 'orphan_pronoun'
  | 'answer_not_in_text'
  | 'several_facts'
  | 'duplicate'
  | 'label_text'
  | 'broken_text'
  | 'no_single_blank';

export const verdicts: readonly Verdict[] = [
  'starts_mid_sentence',
  'unfinished_sentence',
  'guessable_blank',
  'blank_given_away',
  'vague_question',
  'orphan_pronoun',
  'answer_not_in_text',
  'several_facts',
  'duplicate',
  'label_text',
  'broken_text',
  'no_single_blank',
];

/** Words any reader of the sentence fills in without knowing the subject: English function words and fillers. */
const functionWords = new Set(
  `a an the this that these those it its they them their there here he she his her we our you your i me my
of to in on at by for with from into onto over under about above below between through during before after since
until upon within without against among and or but nor so yet if then else when while because although though
unless whether as than also only just even not no yes all any each every some many much more most few less least
other another such same both either neither one two three first last next is are was were be been being am do does
did done has have had having can could may might must shall should will would what which who whom whose where why
how very too quite rather again always never often sometimes usually already still now then thus hence however
therefore instead otherwise way thing things something anything nothing everything someone anyone everyone new
old good bad great small large big high low long short well like make made use used using get got set put see
seen show shown give given take taken case cases example part parts kind type types number value values form
end start time times way ways place point lot`
    .split(/\s+/)
    .filter(Boolean),
);

const pronounStart = /^(it|this|that|these|those|they|them|he|she|its|their|such|which)\b/i;
const continuationStart =
  /^(and|or|but|nor|so|yet|which|that|whereas|while|because|although|though|since|unless|whether|than|then|also|thus|hence|therefore|however|instead|respectively|as well|including|except|whose|whom)\b/i;
const labels =
  /\b(notes?|slide|page)\s*:|\bslide \d+\b|\bpage \d+ of \d+\b|file:\/\/|\b\d{1,2}\/\d{1,2}\/\d{2,4},? \d{1,2}:\d{2}\b|^\s*\d+\s*\/\s*\d+\s*$|\(continued\)/i;

/** Letters and digits only, lower-cased: spacing, hyphenation, punctuation and markup do not count. */
export function letters(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

const blankPattern = /_{3,}/g;

/** The words card templates add around the document's words (in the languages the bench has). */
const templateWords = new Set(
  `fill blank what does do happens happen mean means meant state called main points complete ergänzen sie die lücke
was ist macht sind passiert wenn bedeutet wichtigsten punkte von qué es hace significa completa espacio en blanco
qu est ce que fait signifie complétez le blanc che cos cosa fa preencha lacuna faz significa spazio vuoto succede
principali punti quali sono cuáles puntos principales pasa quels sont points principaux passe acontece quais são
principais pontos`
    .split(/\s+/)
    .filter(Boolean),
);

function fillSentence(question: string): string | null {
  const m =
    /^(?:fill in the blank|complete the blank|ergänzen sie die lücke|complétez le blanc|completa el espacio en blanco|completa lo spazio vuoto|preencha a lacuna)\s*:\s*(.*)$/is.exec(
      question.trim(),
    );
  if (m) return m[1] ?? '';
  return blankPattern.test(question) ? question : null;
}

/** The subject a "What is X?" / "What does X do?" question names, or null. */
function askedSubject(question: string): string | null {
  const m =
    /^what (?:is|are|was|were) (?:meant by )?(.+?)\??$/i.exec(question.trim()) ??
    /^what does (.+?) (?:do|mean|state|return)\??$/i.exec(question.trim()) ??
    /^was (?:ist|sind|macht) (.+?)\??$/i.exec(question.trim());
  return m ? (m[1] ?? '').trim() : null;
}

/** Runs of letters of alphabetic scripts, lower-cased (scripts written without spaces between words are left out). */
const letterRuns = (text: string): string[] =>
  (text.toLowerCase().match(/\p{L}+/gu) ?? []).filter(
    (run) => !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(run),
  );
const words = (text: string): string[] => text.toLowerCase().match(/\p{L}[\p{L}\p{N}'’-]*/gu) ?? [];

function sentencesOf(answer: string): string[] {
  return answer
    .replace(/\b(e\.g|i\.e|etc|vs|cf|approx|no|fig|sec)\./gi, '$1')
    .replace(/\b\d+\.\d+/g, '0')
    .split(/(?<=[.!?])\s+(?=[\p{Lu}"'(])/u)
    .filter((s) => s.trim());
}

/** Words of the document that recur in most of its sentences: the topic or the structure, not a fact to recall. */
export function documentStaples(text: string): Set<string> {
  const sentences = text.split(/(?<=[.!?])\s+|\n\s*\n/).filter((s) => s.trim().length > 20);
  const counts = new Map<string, number>();
  for (const sentence of sentences)
    for (const word of new Set(words(sentence)))
      if (!functionWords.has(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
  const staple = new Set<string>();
  if (sentences.length < 10) return staple;
  for (const [word, n] of counts) if (n / sentences.length >= 0.12) staple.add(word);
  return staple;
}

export interface JudgeContext {
  /** The document's text as written (before any PDF): answers must come from it. */
  sourceText: string;
}

/** The reasons a learner would delete this card; an empty list for a card worth keeping. */
export function judgeCard(
  card: JudgedCard,
  context: JudgeContext & { letters: string; staples: Set<string>; words: Set<string> },
): Verdict[] {
  const reasons = new Set<Verdict>();
  const question = card.question.trim();
  const answer = card.answer.trim();
  const fill = fillSentence(question);

  if (labels.test(question) || labels.test(answer)) reasons.add('label_text');
  if (/[ﬀ-ﬄ]|\b\p{L}+- \p{Ll}+\b|\s(ff|ffi|ffl)\s|\uFFFD/u.test(`${question} ${answer}`)) reasons.add('broken_text');

  // Every word the question shows must be the document's: a word the extraction broke ("lename") is not.
  if (
    letterRuns(question).some(
      (w) => w.length >= 4 && !templateWords.has(w) && !functionWords.has(w) && !context.words.has(w),
    )
  )
    reasons.add('broken_text');

  if (fill !== null) {
    const body = fill.trim();
    const blanks = body.match(blankPattern)?.length ?? 0;
    if (blanks !== 1) reasons.add('no_single_blank');
    const opening = body.replace(/^["'“‘([]+/, '');
    if (/^\p{Ll}[\p{L}]*\b/u.test(opening) && !/^\p{Ll}+[\p{Lu}_.(\d]/u.test(opening) && !/^[a-z]+\(/.test(opening)) {
      const first = opening.split(/\s/)[0] ?? '';
      // A lower-case word that is a command or identifier (ls, npm, glob) may open a sentence; an English word may not.
      if (
        functionWords.has(first.toLowerCase()) ||
        continuationStart.test(opening) ||
        /^[a-z]+(ing|ed|ly|s)$/.test(first)
      )
        reasons.add('starts_mid_sentence');
    }
    if (continuationStart.test(opening) || /^[,;:.)\]]/.test(opening)) reasons.add('starts_mid_sentence');
    if (!/[.!?:;)"'”’…。！？：）」`]$|_{3,}$/.test(body.replace(/\s+$/, ''))) reasons.add('unfinished_sentence');
    if (/\b(the|a|an|of|to|and|or|with|by|for|in|on|is|are|that)\s*$/i.test(body)) reasons.add('unfinished_sentence');
    const answerWords = words(answer);
    if (answerWords.length === 1) {
      const word = answerWords[0] ?? '';
      if (functionWords.has(word) || context.staples.has(word)) reasons.add('guessable_blank');
      if (words(body).includes(word)) reasons.add('blank_given_away');
    }
    if (answerWords.length > 0 && answerWords.every((w) => functionWords.has(w))) reasons.add('guessable_blank');
  } else {
    if (letterRuns(question).length < 3 && letterRuns(question).length === words(question).length)
      reasons.add('vague_question');
    const subject = askedSubject(question);
    if (subject !== null) {
      if (pronounStart.test(subject) && words(subject).length <= 2) reasons.add('vague_question');
      if (/^(the )?(following|above|below|former|latter)\b/i.test(subject)) reasons.add('vague_question');
      if (continuationStart.test(subject) || /^\p{Ll}+ly\b/u.test(subject)) reasons.add('starts_mid_sentence');
      if (letters(answer) === letters(subject)) reasons.add('vague_question');
    }
    if (!/[?？]\s*$/.test(question)) reasons.add('vague_question');
  }
  if (
    pronounStart.test(answer) &&
    !/^(it|this|that)\s+(is|was)\s+(a|an|the)\b/i.test(answer) &&
    words(answer).length > 3
  )
    reasons.add('orphan_pronoun');
  if (continuationStart.test(answer) && words(answer).length > 2) reasons.add('starts_mid_sentence');

  // The answer must be the document's own words (markup, list bullets and spacing aside).
  const items = answer
    .split('\n')
    .map((line) => line.replace(/^\s*[-*•]\s+/, '').replace(/[.;,]$/, ''))
    .filter((line) => letters(line));
  if (!items.length) reasons.add('answer_not_in_text');
  else if (items.some((item) => !context.letters.includes(letters(item)))) reasons.add('answer_not_in_text');

  // One fact per card: a list of more than five items, more than one sentence, or a paragraph for an answer.
  if (items.length > 5) reasons.add('several_facts');
  else if (items.length === 1 && (sentencesOf(answer).length > 1 || words(answer).length > 30))
    reasons.add('several_facts');
  else if (items.some((item) => words(item).length > 20) && items.length > 1) reasons.add('several_facts');
  return [...reasons];
}

/** Judges a whole set: each card's reasons, the second of two cards asking the same thing being a duplicate. */
export function judgeCards(cards: JudgedCard[], context: JudgeContext): Verdict[][] {
  // A word the source itself hyphenated at a line end (man(1) does) is one word.
  const sourceText = context.sourceText.replace(/(\p{L})[-‐]\n\s*(\p{Ll})/gu, '$1$2');
  const extended = {
    sourceText,
    letters: letters(`${sourceText}\n${context.sourceText}`.replace(/\]\([^)]*\)/g, ']')),
    staples: documentStaples(sourceText),
    words: new Set(letterRuns(`${sourceText}\n${context.sourceText}`.normalize('NFKC'))),
  };
  const seen: { q: Set<string>; a: string; full: string }[] = [];
  return cards.map((card) => {
    const reasons = judgeCard(card, extended);
    const q = new Set(words(card.question).filter((w) => !functionWords.has(w) && !templateWords.has(w)));
    const a = letters(card.answer);
    const full = letters(card.question);
    // The same question twice, or the same answer to nearly the same question.
    const repeats = seen.some((other) => {
      if (other.full === full) return true;
      const shared = [...q].filter((w) => other.q.has(w)).length;
      return other.a === a && shared / Math.max(1, Math.min(q.size, other.q.size)) >= 0.8;
    });
    if (repeats) reasons.push('duplicate');
    seen.push({ q, a, full });
    return reasons;
  });
}
