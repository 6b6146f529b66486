import { clozeDeletions, isGuessableDeletion } from '../cloze-drafts';
import { isGenericWord, isJunk } from './card-quality';
import { type Language, type Phrasing, stopwordsOf } from './language';
import { tagEnglish } from './nlp';
import { words } from './text-analysis';

/**
 * Cloze notes for the offline generator: a sentence with its key term, number or defined term blanked, or a list
 * with one number per item. Every deletion is one fact and never a word the grammar gives away.
 */

/** A list item is blanked whole only when it is one short fact. */
const maxListItemWords = 8;

// Universal tags of words the grammar gives away: articles, pronouns, auxiliaries, prepositions, conjunctions,
// particles.
const structuralTags = new Set(['DET', 'PRON', 'AUX', 'ADP', 'CCONJ', 'SCONJ', 'PART', 'PUNCT', 'SYM']);

/** Text that cloze syntax would misread: braces or `::` of its own. */
function unsafe(text: string): boolean {
  return /\{\{|\}\}|::/.test(text);
}

// An article before a term, or quotes around it, belong to the sentence, not to the fact.
const leadingArticle =
  /^(the|a|an|el|la|los|las|un|una|le|les|l'|une|der|die|das|ein|eine|il|lo|gli|uno|o|os|as|um|uma)\s+/iu;
const wrappingMarks = /^[\s"'‘’“”«»„]+|[\s"'‘’“”«»„]+$/gu;

/**
 * `text` with `length` characters at `at` made deletion number `ord`: without a leading article or the quotes
 * around it, which the grammar gives away.
 */
export function wrapDeletion(text: string, at: number, length: number, ord = 1): string | null {
  if (at < 0) return null;
  let answer = text.slice(at, at + length);
  let start = at;
  const lead = /^[\s"'‘’“”«»„]*/u.exec(answer)?.[0].length ?? 0;
  start += lead;
  answer = answer.slice(lead);
  const article = leadingArticle.exec(answer)?.[0].length ?? 0;
  start += article;
  answer = answer.slice(article).replace(wrappingMarks, '');
  if (!answer.trim() || unsafe(answer)) return null;
  return `${text.slice(0, start)}{{c${ord}::${answer}}}${text.slice(start + answer.length)}`;
}

/** `sentence` with the first whole-word occurrence of `term` as deletion 1, or null when it is not there. */
export function clozeOfTerm(sentence: string, term: string): string | null {
  if (unsafe(sentence)) return null;
  const escaped = term.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (!escaped) return null;
  const match = new RegExp(`(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])`, 'iu').exec(sentence);
  return match ? wrapDeletion(sentence, match.index, match[0].length) : null;
}

/** An introduction and its items, each item its own deletion; null when an item is too long to be one fact. */
export function clozeOfList(intro: string, items: string[]): string | null {
  if (unsafe(intro) || items.some((item) => unsafe(item) || words(item).length > maxListItemWords)) return null;
  return [intro, ...items.map((item, index) => `- {{c${index + 1}::${item}}}`)].join('\n');
}

/**
 * A deletion a learner could fill from the grammar alone: only function words (the language's stopwords), a
 * generic English word, or (English) a single word the tagger reads as an article, pronoun, auxiliary, preposition
 * or conjunction where it stands.
 */
export function isGuessableBlank(answer: string, sentence: string, language: Language): boolean {
  if (isGuessableDeletion(answer)) return true;
  const tokens = words(answer);
  if (/\d/.test(answer)) return false;
  if (language !== 'en') {
    const stop = stopwordsOf(language);
    return tokens.length > 0 && tokens.every((token) => stop.has(token.toLowerCase()));
  }
  if (tokens.every((token) => isGenericWord(token))) return true;
  if (tokens.length !== 1) return false;
  const tagged = tagEnglish(sentence.replace(/\{\{c\d+::|\}\}/g, ''));
  const tag = tagged.find((token) => token.value.toLowerCase() === (tokens[0] ?? '').toLowerCase())?.pos;
  return tag !== undefined && structuralTags.has(tag);
}

/**
 * Whether a cloze text is worth a note: each deletion not guessable, and each as a fill-in-the-blank card
 * (`Fill in the blank: …_____…`, the other deletions filled) breaking no junk rule. A list's items are judged as
 * blanks on their own; its whole is judged by the basic card it replaces.
 */
export function isGoodCloze(text: string, language: Language, say: Phrasing): boolean {
  const deletions = clozeDeletions(text);
  if (!deletions || deletions.length === 0) return false;
  const isList = /\n- \{\{c\d+::/.test(text);
  const plain = text.replace(/\{\{c\d+::([\s\S]*?)\}\}/g, '$1');
  for (const deletion of deletions) {
    if (isGuessableBlank(deletion.answer, plain, language)) return false;
    if (isList) continue;
    let seen = false;
    const blanked = text.replace(/\{\{c(\d+)::([\s\S]*?)\}\}/g, (_all, n: string, answer: string) => {
      if (Number(n) !== deletion.number || seen) return answer;
      seen = true;
      return '_____';
    });
    if (isJunk({ question: say.fill(blanked), answer: deletion.answer })) return false;
  }
  return true;
}
