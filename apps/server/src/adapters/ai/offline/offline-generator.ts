import { type CardDraft, dropNearDuplicates, validCards } from '../ai-provider';
import {
  capitalize,
  isContentWord,
  rankTerms,
  splitSentences,
  stopwords,
  stripEndPunctuation,
  words,
} from './text-analysis';

/**
 * The built-in, offline card generator: extractive, rule-based, deterministic. It finds definitions
 * ("X is/are/was a…", "X refers to/means Y", "Y is called X", "X: Y" glossary lines and bullets), headings with
 * their lists, facts with dates and numbers (as fill-in-the-blank), and, for sentences nothing else used, a
 * fill-in-the-blank on the sentence's most characteristic term. It cannot paraphrase, infer, or write
 * "why" questions; a real model does that (AI_PROVIDER=openai).
 */
export function generateOfflineCards(text: string, maxCards: number): CardDraft[] {
  const cards: CardDraft[] = [];
  const lines = unwrapLines(text.replace(/\r\n?/g, '\n').split('\n'));
  const ranked = rankTerms(text);
  const topTerms = ranked.slice(0, Math.max(8, Math.ceil(ranked.length * 0.35)));
  // Words capitalised inside a sentence are names; a capital at a sentence start alone says nothing.
  const names = new Set<string>();
  for (const sentence of text.split(/(?<=[.!?])\s+|\n+/)) {
    for (const word of words(sentence.replace(/^[^\p{L}]*\S+/u, ''))) if (/^\p{Lu}/u.test(word)) names.add(word);
  }

  const termForQuestion = (term: string) => {
    let t = term.trim().replace(/^(the|a|an)\s+/i, (article) => article.toLowerCase());
    const first = t.split(/\s+/)[0] ?? '';
    // Lower-case a word capitalised only because it starts the sentence ("Photosynthesis" → "photosynthesis").
    if (/^\p{Lu}\p{Ll}+$/u.test(first) && !names.has(first)) t = first.toLowerCase() + t.slice(first.length);
    return t;
  };

  let i = 0;
  while (i < lines.length) {
    const line = (lines[i] ?? '').trim();
    i++;
    if (!line) continue;

    // A heading ("# Title", or a short line without end punctuation) followed by bullets.
    const heading = /^#{1,6}\s+(.+)$/.exec(line)?.[1] ?? (isHeadingLike(line, lines[i]) ? line : null);
    if (heading) {
      const bullets: string[] = [];
      while (i < lines.length && /^\s*([-*•‣◦]|\d+[.)])\s+/.test(lines[i] ?? '')) {
        bullets.push((lines[i] ?? '').replace(/^\s*([-*•‣◦]|\d+[.)])\s+/, '').trim());
        i++;
      }
      const plain = bullets.filter((b) => !glossary(b));
      if (plain.length >= 2 && plain.length <= 8) {
        cards.push({
          question: `What are the main points of "${stripEndPunctuation(heading)}"?`,
          answer: plain.map((b) => `- ${stripEndPunctuation(b)}`).join('\n'),
        });
      }
      for (const bullet of bullets) cards.push(...fromSentence(bullet));
      continue;
    }

    const item = line.replace(/^\s*([-*•‣◦]|\d+[.)])\s+/, '');
    const entry = glossary(item);
    if (entry) {
      cards.push({ question: `What is ${termForQuestion(entry.term)}?`, answer: capitalize(entry.definition) });
      continue;
    }
    for (const sentence of splitSentences(item)) cards.push(...fromSentence(sentence));
  }

  function fromSentence(sentence: string): CardDraft[] {
    const out: CardDraft[] = [];
    const definition = definitionOf(sentence);
    if (definition) {
      out.push(
        definition.kind === 'states'
          ? {
              question: `What does ${termForQuestion(definition.term)} state?`,
              answer: capitalize(definition.definition),
            }
          : definition.kind === 'called'
            ? { question: `What is ${definition.definition} called?`, answer: capitalize(definition.term) }
            : {
                question: `What ${definition.verb} ${termForQuestion(definition.term)}?`,
                answer: capitalize(definition.definition),
              },
      );
    }
    const fact = numberCloze(sentence);
    if (fact) out.push(fact);
    if (out.length === 0) {
      const cloze = termCloze(sentence, topTerms);
      if (cloze) out.push(cloze);
    }
    return out;
  }

  return dropNearDuplicates(validCards(cards).filter((card) => !answerInQuestion(card))).slice(0, maxCards);
}

/** Joins lines that a PDF, OCR or hard wrapping broke mid-sentence (the next line starts in lower case). */
function unwrapLines(lines: string[]): string[] {
  const out: string[] = [];
  for (const raw of lines) {
    const line = raw.trim();
    const previous = out[out.length - 1];
    if (previous && line && /^[\p{Ll}(]/u.test(line) && !/[.!?:]$/.test(previous) && !/^#/.test(previous)) {
      out[out.length - 1] = `${previous} ${line}`;
    } else {
      out.push(line);
    }
  }
  return out;
}

function answerInQuestion(card: CardDraft): boolean {
  const q = card.question.toLowerCase();
  const a = stripEndPunctuation(card.answer.toLowerCase());
  return a.length > 0 && q.includes(a) && !/_{3,}/.test(card.question);
}

function isHeadingLike(line: string, next: string | undefined): boolean {
  return (
    line.length <= 60 &&
    !/[.!?:;,]$/.test(line) &&
    words(line).length <= 8 &&
    /^\s*([-*•‣◦]|\d+[.)])\s+/.test(next ?? '')
  );
}

const notTerms =
  /^(it|this|that|these|those|they|there|he|she|we|you|i|here|which|what|one|notes?|example|summary|answer|question|figure|table|step \d+)$/i;

/** "Term: definition", "Term – definition", "Term - definition" (a glossary line, a table row, a bullet). */
function glossary(line: string): { term: string; definition: string } | null {
  const match = /^([^:–—-]{2,60}?)\s*(?::|\s[–—-]\s)\s*(.{3,})$/.exec(line.trim());
  if (!match) return null;
  const term = stripEndPunctuation(match[1] ?? '');
  const definition = stripEndPunctuation(match[2] ?? '');
  if (words(term).length === 0 || words(term).length > 6 || notTerms.test(term)) return null;
  if (words(definition).length < 2) return null;
  return { term, definition };
}

interface Definition {
  kind: 'is' | 'states' | 'called';
  verb: string;
  term: string;
  definition: string;
}

const subject = String.raw`((?:the |an? )?[\p{L}\p{N}'’()-]+(?: [\p{L}\p{N}'’()-]+){0,5}?)`;
const definitional = [
  new RegExp(
    String.raw`^${subject},?\s+(is|are|was|were)\s+(?:defined as\s+|known as\s+)?((?:an?|the|one of|any|each|two|three|several|a type of)\s.+)$`,
    'iu',
  ),
  new RegExp(
    String.raw`^${subject},?\s+(refers to|refer to|means|mean|is defined as|are defined as|describes|denotes)\s+(.+)$`,
    'iu',
  ),
];
const states = new RegExp(String.raw`^${subject}\s+(?:states|says|holds) that\s+(.+)$`, 'iu');
const called = /^(.+?)\s+(?:is|are) (?:called|known as|termed)\s+((?:the |an? )?[\p{L}\p{N}'’ -]{2,60})$/iu;

function definitionOf(sentence: string): Definition | null {
  const s = stripEndPunctuation(sentence);
  const st = states.exec(s);
  if (st && !notTerms.test(st[1] ?? ''))
    return { kind: 'states', verb: 'does', term: st[1] ?? '', definition: st[2] ?? '' };
  const c = called.exec(s);
  if (c && words(c[2] ?? '').length <= 5 && words(c[1] ?? '').length >= 3) {
    return { kind: 'called', verb: 'is', term: stripEndPunctuation(c[2] ?? ''), definition: lowerFirst(c[1] ?? '') };
  }
  for (const pattern of definitional) {
    const m = pattern.exec(s);
    if (!m) continue;
    const term = m[1] ?? '';
    const firstWord = term.split(' ')[0] ?? '';
    if (notTerms.test(term) || notTerms.test(firstWord) || stopwords.has(term.toLowerCase())) continue;
    if (words(m[3] ?? '').length < 2) continue;
    const verb = (m[2] ?? '').toLowerCase();
    const copula = ['is', 'are', 'was', 'were'].includes(verb) ? verb : /^(are|refer|mean)\b/.test(verb) ? 'are' : 'is';
    return { kind: 'is', verb: copula, term, definition: (m[3] ?? '').trim() };
  }
  return null;
}

function lowerFirst(text: string): string {
  const first = text.split(' ')[0] ?? '';
  return /^[A-Z][a-z]+$/.test(first) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

const years = String.raw`(?:1[0-9]{3}|20[0-9]{2})(?:\s?(?:BC|BCE|AD|CE))?`;
const quantities = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`;
const units = String.raw`%|\s(?:percent|million|billion|thousand|kilometres|kilometers|km|metres|meters|m\/s²?|kg|grams|g|seconds|s|minutes|hours|days|years|degrees|°C|°F|K|joules|J|newtons|N|volts|V|watts|W|mol|chromosomes|bones|pairs|species|people|miles)\b`;
const numberPattern = new RegExp(String.raw`(?<![\p{L}\d.,])(${years}(?![\d,])|(?:${quantities})(?=${units}))`, 'u');

/** A fact with a date or a number becomes a fill-in-the-blank on that number (its unit stays in the question). */
function numberCloze(sentence: string): CardDraft | null {
  if (words(sentence).length < 5) return null;
  const match = numberPattern.exec(sentence);
  const value = match?.[1];
  if (!match || !value) return null;
  const blanked = `${sentence.slice(0, match.index)}_____${sentence.slice(match.index + value.length)}`;
  return { question: `Fill in the blank: ${blanked}`, answer: value };
}

/** A fill-in-the-blank on the sentence's most characteristic term. */
function termCloze(sentence: string, topTerms: { term: string }[]): CardDraft | null {
  if (words(sentence).length < 6) return null;
  for (const { term } of topTerms) {
    const pattern = new RegExp(`\\b${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i');
    const match = pattern.exec(sentence);
    if (!match) continue;
    if (!term.includes(' ') && !isContentWord(term)) continue;
    const blanked = `${sentence.slice(0, match.index)}_____${sentence.slice(match.index + match[0].length)}`;
    return { question: `Fill in the blank: ${blanked}`, answer: match[0] };
  }
  return null;
}
