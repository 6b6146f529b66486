import type { CardDraft } from '../ai-provider';

/**
 * Rules a learner would agree with for a card to delete at once. The offline generator drops cards that break
 * them, and bench/generator-quality.bench.ts counts them in every generator's output (the same rules judge both).
 */
export type JunkRule =
  | 'malformed'
  | 'clause_subject'
  | 'generic_blank'
  | 'layout_debris'
  | 'code_prompt'
  | 'several_facts';

export const junkRules: readonly JunkRule[] = [
  'malformed',
  'clause_subject',
  'generic_blank',
  'layout_debris',
  'code_prompt',
  'several_facts',
];

/**
 * Words anyone can guess or that carry nothing on their own: function words and the most frequent general
 * English nouns, verbs, adjectives and adverbs. A blank on one of them teaches nothing.
 */
const genericWords = new Set(
  `a about above across after again against all almost along already also although always am among an and another
any anyone anything are around as at away back be because been before behind being below between both but by can
cannot could did do does doing done down during each either else enough even ever every everything few for from
further get gets given go goes going gone good got great had has have having he her here him his how however i if in
into is it its itself just keep kind last later least less let like little long lot made make makes making many may
me might more most much must my need needs never new next no none nor not nothing now of off often old on once one
only or other others our out over own part per place please put quite rather really right same see seen several
shall she should show shown since so some something sometimes soon still such sure take than that the their them
then there these they thing things this those though through thus time times to together too toward two under
until up upon us use used uses using usually very want was way ways we well were what when where whether which while
who whole whom whose why will with within without would yet you your item items line lines equivalent example
examples following follows given instance instead number numbers order otherwise possible simply step steps value
values word words first second third end start new way case cases form forms set sets type types version
information data work works working note notes see section sections page pages chapter document text following
called known different important able better best bad big small large high low true false yes`
    .split(/\s+/)
    .filter(Boolean),
);

const subordinators =
  /^(if|since|when|whenever|while|because|although|though|as|that|which|who|whom|whose|where|whether|unless|until|after|before|so|and|or|but|then|than|to|for|with|without|by|from|in|on|at|of|into|about|also|not|only|just|there|here|it|this|these|those|they|we|you|he|she|i|how|why|what)$/i;
const endsBadly =
  /\b(the|a|an|of|to|in|on|at|by|for|with|and|or|but|is|are|was|were|be|that|which|as|from|into|than|if)$/i;

/** What comes between "What is/are/does …" and "?": the subject a question is about (null for other shapes). */
export function questionSubject(question: string): string | null {
  // "What is … called?" asks for a term from its description: the description is not a subject.
  if (/ called\?$/i.test(question.trim())) return null;
  const m = /^(?:what|who) (?:is|are|was|were|does|do|did) (.+?)(?: (?:do|state|mean))?\?$/i.exec(question.trim());
  return m ? (m[1] ?? null) : null;
}

function balanced(text: string): boolean {
  const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{', '）': '（', '」': '「', '』': '『' };
  const stack: string[] = [];
  for (const ch of text) {
    if ('([{（「『'.includes(ch)) stack.push(ch);
    else if (ch in pairs) {
      if (stack.pop() !== pairs[ch]) return false;
    }
  }
  if (stack.length > 0) return false;
  const quotes = (text.match(/"/g) ?? []).length;
  const ticks = (text.match(/`/g) ?? []).length;
  return quotes % 2 === 0 && ticks % 2 === 0;
}

const blank = /_{3,}/;

function isMalformed({ question, answer }: CardDraft): boolean {
  const q = question.trim();
  const a = answer.trim();
  if (!balanced(q) || !balanced(a)) return true;
  if (/^[,.;:)\]}!?、。，；：]/u.test(a)) return true;
  if (/[(:,;]\s*\??$/u.test(q.replace(/\?$/, '')) && !blank.test(q)) return true;
  const subject = questionSubject(q);
  if (subject !== null && !/[\p{L}\p{N}]/u.test(subject)) return true;
  if (blank.test(q) && (q.match(/_{3,}/g) ?? []).length > 1) return true;
  // A blank whose answer is a single character of an alphabetic script is a fragment, not a fact.
  if (blank.test(q) && /^[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}]$/u.test(a)) return true;
  return false;
}

function hasClauseSubject(card: CardDraft): boolean {
  const subject = questionSubject(card.question);
  if (!subject) return false;
  const words = subject.split(/\s+/);
  const first = (words[0] ?? '').replace(/^["'“‘(]/, '');
  if (subordinators.test(first)) return true;
  if (/^\p{Ll}+ing$/u.test(first) && words.length > 1) return true;
  if (endsBadly.test(subject)) return true;
  if (words.length > 8) return true;
  // A finite verb inside the subject makes it a clause ("the parser repeats the line").
  if (/\s(is|are|was|were|has|have|had|can|could|will|would|should|must|may|might|does|did)\s/i.test(` ${subject} `))
    return true;
  return false;
}

function isGenericBlank({ question, answer }: CardDraft): boolean {
  if (!blank.test(question)) return false;
  const a = answer.trim().replace(/[.,;:!?]+$/, '');
  if (/\d/.test(a)) return false;
  const words = a.split(/\s+/);
  if (words.length > 1) return words.every((w) => genericWords.has(w.toLowerCase()));
  const lower = a.toLowerCase();
  if (genericWords.has(lower)) return true;
  // Short lower-case Latin words are guessable from the grammar around them.
  return /^\p{Script=Latin}{1,3}$/u.test(a) && a === lower;
}

const debris = [
  /\p{Ll}[-‐]\s+\p{Ll}/u, // a word hyphenated across a line: "manip- ulation"
  /\bhttps?\??$|\(https?\?|^\/\/|\bhttps?\s*$/im, // a URL cut at its colon
  /Ã[\x80-\xbf¡-ÿ]|â€|Â[\s ]|\uFFFD/u, // mojibake
  /\b(last updated|all rights reserved|copyright|table of contents)\b|©/i,
  /\bpage \d+ (of|\/) \d+\b|^\s*\d+\s*\/\s*\d+\s*$/im,
  /\.{4,}|…{2,}/, // table-of-contents dot leaders
  /!\[|\]\(|<\/?(a|h\d|p|div|img|br)\b|\[!\[/i, // markup left over
  /^\s*\|.*\|\s*$/m, // table rows
];

function isLayoutDebris({ question, answer }: CardDraft): boolean {
  const text = `${question}\n${answer}`;
  return debris.some((pattern) => pattern.test(text));
}

const codeLine =
  /^\s*(>>>|\.\.\.\s|\$\s|#\s*include|import\s|from\s\S+\simport|const\s|let\s|var\s|def\s|class\s\w+[:({]|function\s|return\s|console\.|print\()|[;{]\s*$|=>|\)\s*\{|^\s*\}|\b\w+\s*=\s*(require|new|await)\b/m;

function isCodePrompt({ question, answer }: CardDraft): boolean {
  return codeLine.test(question.replace(/^Fill in the blank:\s*/i, '')) || codeLine.test(answer);
}

/** Sentences in an answer (ends of sentences followed by more text), any script. */
function sentenceCount(text: string): number {
  const t = text.trim().replace(/\b(e\.g|i\.e|etc|vs|cf|approx|z\.\s?B|d\.\s?h|p\.\s?ej)\./gi, 'x');
  return t.split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}])|(?<=[。！？])\s*(?=\S)/u).filter((s) => /[\p{L}\p{N}]/u.test(s))
    .length;
}

function holdsSeveralFacts({ question, answer }: CardDraft): boolean {
  const lines = answer.split('\n').filter((l) => l.trim());
  const isList = lines.length > 1 && lines.every((l) => /^\s*([-*•]|\d+[.)])\s/.test(l));
  if (isList) return lines.length > 8;
  if (lines.length > 2) return true;
  if (answer.length > 300 || question.length > 300) return true;
  return (
    sentenceCount(answer) > (blank.test(question) ? 1 : 2) ||
    (!blank.test(question) && sentenceCount(answer) > 1 && answer.length > 160)
  );
}

const checks: Record<JunkRule, (card: CardDraft) => boolean> = {
  malformed: isMalformed,
  clause_subject: hasClauseSubject,
  generic_blank: isGenericBlank,
  layout_debris: isLayoutDebris,
  code_prompt: isCodePrompt,
  several_facts: holdsSeveralFacts,
};

/** Every rule the card breaks, in the order of `junkRules` (empty for a card worth keeping). */
export function junkReasons(card: CardDraft): JunkRule[] {
  return junkRules.filter((rule) => checks[rule](card));
}

export function isJunk(card: CardDraft): boolean {
  return junkReasons(card).length > 0;
}

export function isGenericWord(word: string): boolean {
  return genericWords.has(word.toLowerCase());
}
