import type { CardStyle } from '@flashcards/shared/api-types';
import { type CardDraft, dropNearDuplicates, validCards } from '../ai-provider';
import { isGenericWord, isJunk } from './card-quality';
import { isCodeLine } from './code-lines';
import { detectLanguage, type Language, languageSegments, type Phrasing, phrasings, stopwordsOf } from './language';
import { tagEnglish, tagOfWord } from './nlp';
import { clozeOfList, clozeOfTerm, isGoodCloze, wrapDeletion } from './offline-cloze';
import {
  capitalize,
  isContentWord,
  rankTerms,
  splitSentences,
  stopwords,
  stripEndPunctuation,
  words,
} from './text-analysis';
import { vocabularyPairs } from './vocabulary';

/** A card with how much a learner would want it (definitions first, blanks on lesser terms last). */
interface Ranked extends CardDraft {
  score: number;
  order: number;
  /** The language of the paragraph it came from. */
  language: Language;
  /** The same fact as a cloze text, where it has one. */
  clozeText?: string;
  /** A fill-in-the-blank or a list: in the `mixed` style it is written as its cloze note. */
  blankLike?: boolean;
}

/** The cloze form of a candidate card, and whether it is a blank or a list by nature. */
interface ClozeForm {
  text: string | null;
  blankLike?: boolean;
}

/**
 * The built-in, offline card generator: extractive, rule-based, deterministic. It detects the text's language
 * (franc; by script for Japanese, Chinese and Korean) and words its cards in it. A vocabulary list (one pair a line,
 * any common separator) gives one card per line. Otherwise it finds definitions ("X is/are/was a…", "X refers
 * to/means Y", "Y is called X", glossary, option and API-reference lines such as "list.append(x) Add an item…"),
 * descriptions of what something does ("X returns …" → "What does X do?"), headings with their lists, facts with
 * dates and numbers, and fill-in-the-blanks on the document's key concepts only (never on generic words: wink-nlp's
 * English tagger keeps blanks on nouns and names). Code blocks and prompts are never carded. Each answer ends where
 * its sentence ends; cards that break a junk rule (card-quality.ts) are dropped; the best are kept, capped by the
 * text's length. It cannot paraphrase, infer, or write "why" questions; a real model does that (AI_PROVIDER=openai).
 */
export function generateOfflineCards(text: string, maxCards: number, style: CardStyle = 'basic'): CardDraft[] {
  return generateQuotedCards(text, maxCards, style).map(({ quote: _quote, ...card }) => card);
}

/** generateOfflineCards' cards, each with the text it was made from as its `quote` (what generation gives). */
export function generateQuotedCards(text: string, maxCards: number, style: CardStyle = 'basic'): CardDraft[] {
  const normalized = text.replace(/\r\n?/g, '\n').normalize('NFC');
  const prose = withoutRepeatedParagraphs(withoutCode(normalized));
  const documentLanguage = detectLanguage(prose);
  // Each run of paragraphs is carded with its own language's rules and wording (a French quote in an English text).
  let language = documentLanguage;
  let say = phrasings[language];

  const pairs = vocabularyPairs(prose);
  if (pairs) {
    const termLanguage = detectLanguage(pairs.map((pair) => pair.term).join('\n'));
    const ask = phrasings[termLanguage];
    const cards = pairs.map((pair) => ({
      question: ask.meaning(pair.term),
      answer: pair.meaning,
      quote: `${pair.term} ${pair.meaning}`,
    }));
    return dropNearDuplicates(validCards(cards).filter((card) => !isJunk(card))).slice(0, maxCards);
  }

  const cards: Ranked[] = [];
  // The text the next card is made from: its source quote (issue 36), set before each card is pushed.
  let quote = '';
  const push = (card: CardDraft, score: number, cloze?: ClozeForm) =>
    cards.push({
      ...card,
      ...(quote ? { quote } : {}),
      score,
      order: cards.length,
      language,
      ...(cloze?.text ? { clozeText: cloze.text } : {}),
      ...(cloze?.blankLike ? { blankLike: true } : {}),
    });
  const ranked = rankTerms(prose);
  // A term in an eighth of the sentences or more is the document's topic or its structure ("configuration" in a list of
  // directories, "keyword" in a search tool's page): any reader of the sentence guesses it, so it is never blanked.
  // Sentences, not lines: a hard-wrapped page would otherwise count each of its lines as one.
  const sentences = prose.split(/(?<=[.!?。！？])\s+|\n\s*\n/).filter((s) => s.trim());
  const pervasive = (term: string) =>
    sentences.length >= 10 &&
    sentences.filter((s) => s.toLowerCase().includes(term.toLowerCase())).length >= sentences.length / 8;
  const topTerms = ranked.slice(0, Math.max(8, Math.ceil(ranked.length * 0.35))).filter(({ term }) => !pervasive(term));
  // Words capitalised inside a sentence are names; a capital at a sentence start alone says nothing.
  const names = new Set<string>();
  for (const sentence of prose.split(/(?<=[.!?])\s+|\n+/)) {
    for (const word of words(sentence.replace(/^[^\p{L}]*\S+/u, ''))) if (/^\p{Lu}/u.test(word)) names.add(word);
  }

  const termForQuestion = (term: string) => {
    let t = term
      .trim()
      .replace(/^`([^`]+)`$/, '$1')
      .replace(articles, (article) => article.toLowerCase());
    const first = t.split(/\s+/)[0] ?? '';
    // Lower-case a word capitalised only because it starts the sentence ("Photosynthesis" → "photosynthesis").
    if (language === 'en' && /^\p{Lu}\p{Ll}+$/u.test(first) && !names.has(first))
      t = first.toLowerCase() + t.slice(first.length);
    return t;
  };

  for (const segment of languageSegments(prose, documentLanguage)) {
    language = segment.language;
    say = phrasings[language];
    collect(unwrapLines(segment.text.split('\n'), language));
  }

  function collect(lines: string[]) {
    let i = 0;
    while (i < lines.length) {
      const line = (lines[i] ?? '').trim();
      i++;
      if (!line) continue;

      // A heading ("# Title", or a short line without end punctuation) followed by bullets.
      const heading = /^#{1,6}\s+(.+)$/.exec(line)?.[1] ?? (isHeadingLike(line, lines[i]) ? line : null);
      if (heading) {
        const bullets: string[] = [];
        while (i < lines.length && bullet.test(lines[i] ?? '')) {
          bullets.push((lines[i] ?? '').replace(bullet, '').trim());
          i++;
        }
        const plain = bullets.filter((b) => !glossary(b, language));
        quote = [heading, ...bullets].join('\n');
        if (plain.length >= 2 && plain.length <= 8) {
          const items = plain.map((b) => stripEndPunctuation(b));
          push(
            { question: say.mainPoints(stripEndPunctuation(heading)), answer: items.map((b) => `- ${b}`).join('\n') },
            2,
            { text: clozeOfList(`${stripEndPunctuation(heading)}:`, items), blankLike: true },
          );
        }
        for (const item of bullets) fromLine(item);
        continue;
      }

      // A sentence that introduces a list ("… can be called to:") and its bullets: one card, the list its answer.
      if (/[:：]$/.test(line) && words(line).length >= 4 && bullet.test(lines[i] ?? '') && opensLikeSentence(line)) {
        const items: string[] = [];
        while (i < lines.length && bullet.test(lines[i] ?? '')) {
          items.push(stripEndPunctuation((lines[i] ?? '').replace(bullet, '').trim()));
          i++;
        }
        quote = [line, ...items].join('\n');
        if (items.length >= 2 && items.length <= 8) {
          push({ question: say.fill(`${line} _____`), answer: items.map((item) => `- ${item}`).join('\n') }, 2.5, {
            text: clozeOfList(line, items),
            blankLike: true,
          });
        } else for (const item of items) fromLine(item);
        continue;
      }

      // A term on its own line and its description on the next: option lists, man pages, API references.
      const next = (lines[i] ?? '').trim();
      if (isTermLine(line) && next && isDescription(next, language, /^--?\w/.test(line))) {
        // "epoch / This is a single unsigned integer." → "A single unsigned integer."
        const description = capitalize(firstSentence(next, language).replace(/^(this|it) (is|means) /i, ''));
        const term = line.replace(/^`([^`]+)`$/, '$1');
        quote = `${line}\n${firstSentence(next, language)}`;
        const described =
          language === 'en' && isTermLine(term) && /^[/A-Z]/.test(term) ? describe(term, description) : null;
        push(
          described ?? { question: asksWhatItDoes(term) ? say.whatDoes(term) : say.whatIs(term), answer: description },
          3,
          {
            text: clozeOfTerm(`${term}: ${description}`, term),
          },
        );
        i++;
        for (const sentence of splitSentences(next, language).slice(1)) fromSentence(sentence);
        continue;
      }
      fromLine(line);
    }
  }

  function fromLine(raw: string) {
    const item = raw.replace(bullet, '');
    // A definition list printed on one line: "/etc Contains configuration files…", "PIPE_BUF The number of bytes…".
    const listed = language === 'en' ? /^(\/[\w+./-]*|[A-Z][A-Z\d]*_[A-Z\d_]+)\s+(\p{Lu}\p{Ll}.*)$/u.exec(item) : null;
    if (listed?.[1] && listed[2] && listed[1].length > 1) {
      const [first = '', ...rest] = splitSentences(listed[2], language);
      quote = `${listed[1]} ${first}`;
      const card = describe(listed[1], first);
      push(card, 3, { text: clozeOfTerm(`${listed[1]}: ${first}`, listed[1]) });
      for (const sentence of rest) fromSentence(sentence);
      return;
    }
    // An API reference line: "list.append(x) Add an item to the end of the list."
    const api = /^([\p{L}_$][\w$.]*\((?:[^()]|\([^)]*\))*\))\s+(\p{Lu}.*)$/u.exec(item);
    if (api) {
      const [first = '', ...rest] = splitSentences(api[2] ?? '', language);
      quote = `${api[1] ?? ''} ${first}`;
      push({ question: say.whatDoes(api[1] ?? ''), answer: first }, 3, {
        text: clozeOfTerm(`${api[1] ?? ''}: ${first}`, api[1] ?? ''),
      });
      for (const sentence of rest) fromSentence(sentence);
      return;
    }
    const entry = glossary(item, language);
    if (entry) {
      const term = termForQuestion(entry.term);
      quote = item;
      push(
        {
          question: asksWhatItDoes(entry.term) ? say.whatDoes(term) : say.whatIs(term),
          answer: capitalize(entry.definition),
        },
        3,
        { text: clozeOfTerm(`${entry.term}: ${capitalize(entry.definition)}`, entry.term) },
      );
      // The rest of the line after the definition's first sentence: more facts, one card each.
      const afterTerm = item.slice(item.indexOf(entry.term) + entry.term.length).replace(/^\s*(?::|：|[–—-])\s*/, '');
      for (const sentence of splitSentences(afterTerm, language).slice(1)) fromSentence(sentence);
      return;
    }
    for (const sentence of splitSentences(item, language)) fromSentence(sentence);
  }

  function fromSentence(sentence: string) {
    const before = cards.length;
    quote = sentence;
    const definition = language === 'en' ? definitionOf(sentence) : foreignDefinitionOf(sentence, language);
    if (definition) {
      push(
        definition.kind === 'states'
          ? {
              question: `What does ${termForQuestion(definition.term)} state?`,
              answer: capitalize(definition.definition),
            }
          : definition.kind === 'called'
            ? { question: `What is ${definition.definition} called?`, answer: capitalize(definition.term) }
            : definition.kind === 'does'
              ? { question: say.whatDoes(termForQuestion(definition.term)), answer: capitalize(definition.definition) }
              : {
                  question:
                    language === 'en'
                      ? say.whatIs(termForQuestion(definition.term), definition.verb)
                      : say.whatIs(termForQuestion(definition.term)),
                  answer: capitalize(definition.definition),
                },
        3,
        { text: clozeOfTerm(sentence, definition.term) },
      );
    }
    if (!definition) {
      const consequence = conditional(sentence, say) ?? (language === 'en' ? whenToUse(sentence) : null);
      if (consequence) push(consequence, 2.5);
    }
    // A fill-in shows its whole sentence: one cut from a longer one, or a phrase without its end, is not a fact.
    if (!standsAlone(sentence)) return;
    const fact = numberCloze(sentence, say);
    if (fact) push(fact.card, 1.5, { text: fact.cloze, blankLike: true });
    if (cards.length === before) {
      const cloze = termCloze(sentence, topTerms, language, say);
      if (cloze) push(cloze.card, 1 + cloze.weight, { text: cloze.cloze, blankLike: true });
    }
  }

  /** A listed term and its description: "Contains X" is asked "What does T contain?", anything else "What is T?". */
  function describe(term: string, description: string): CardDraft {
    const text = stripEndPunctuation(description.replace(/^(this|it) (is|means) /i, ''));
    const verb = /^(contains|holds|includes|stores|provides|specifies|gives|returns|controls|defines)\s+(.{6,})$/i.exec(
      text,
    );
    if (verb?.[1] && verb[2])
      return { question: `What does ${term} ${verb[1].toLowerCase().replace(/s$/, '')}?`, answer: capitalize(verb[2]) };
    return { question: asksWhatItDoes(term) ? say.whatDoes(term) : say.whatIs(term), answer: capitalize(text) };
  }

  const basics = cards.flatMap((card) => {
    const [valid] = validCards([card]);
    return valid && !answerInQuestion(valid) && !isJunk(valid) && !leansOnContext(valid) && !isLongAnswer(valid)
      ? [{ ...card, ...valid }]
      : [];
  });
  // The cloze note where the style asks for it (in `mixed`, for blanks and lists), else the basic card; in the
  // `cloze` style a text without a cloze-worthy fact (a vocabulary list, say) still gets its basic cards.
  const asCloze = (card: Ranked): Ranked | null => {
    const said = phrasings[card.language];
    if (!card.clozeText || !isGoodCloze(card.clozeText, card.language, said)) return null;
    const richer = withMoreDeletions(card.clozeText, topTerms, card.language);
    const text = richer !== card.clozeText && isGoodCloze(richer, card.language, said) ? richer : card.clozeText;
    const [valid] = validCards([{ text }], style);
    return valid?.cloze
      ? {
          ...valid,
          ...(card.quote ? { quote: card.quote } : {}),
          score: card.score,
          order: card.order,
          language: card.language,
        }
      : null;
  };
  const styled =
    style === 'basic'
      ? basics
      : basics.flatMap((card) => {
          const cloze = style === 'cloze' || card.blankLike ? asCloze(card) : null;
          if (cloze) return [cloze];
          return style === 'cloze' ? [] : [card];
        });
  const kept = dropNearDuplicates(styled.length > 0 ? styled : basics);
  // Fewer, better cards: the best by rank, at most one per ten words of text, in the text's order.
  const length = isUnspacedText(prose) ? Math.ceil(prose.length / 3) : words(prose).length;
  const cap = Math.min(maxCards, Math.max(5, Math.ceil(length / 10)));
  const best = new Set([...kept].sort((a, b) => b.score - a.score || a.order - b.order).slice(0, cap));
  return kept
    .filter((card) => best.has(card))
    .map(({ question, answer, cloze, quote }) => ({
      question,
      answer,
      ...(cloze ? { cloze } : {}),
      ...(quote ? { quote } : {}),
    }));
}

const bullet = /^\s*([-*•‣◦]|\d+[.)])\s+/;
// Articles a question lower-cases ("La clorofila" → "¿Qué es la clorofila?"); nouns keep their capitals.
const articles = /^(the|a|an|el|la|los|las|un|una|le|les|l'|une|der|die|das|ein|eine|il|lo|gli|uno|o|os|as|um|uma)\s+/i;

function isUnspacedText(text: string): boolean {
  return (text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu)?.length ?? 0) > text.length * 0.2;
}

/**
 * The text with each paragraph or long line kept once: a document that repeats a passage (a notice on every page, a
 * pasted paragraph) is carded from it once, and the repeats do not make its words look like the topic.
 */
export function withoutRepeatedParagraphs(text: string): string {
  const seen = new Set<string>();
  return text
    .split(/(\n\s*\n)/)
    .map((paragraph) => {
      if (!paragraph.trim()) return paragraph;
      const lines = paragraph.split('\n').filter((line) => {
        const key = line.toLowerCase().replace(/\s+/g, ' ').trim();
        if ((key.match(/\p{L}+/gu)?.length ?? 0) < 6) return true;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      return lines.join('\n');
    })
    .join('');
}

/** The text without fenced code blocks and code lines (they are never carded). */
function withoutCode(text: string): string {
  const out: string[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      out.push('');
      continue;
    }
    out.push(fenced || isCodeLine(line) ? '' : line);
  }
  return out.join('\n');
}

/** Joins lines that a PDF, OCR or hard wrapping broke mid-sentence (the next line starts in lower case). */
function unwrapLines(lines: string[], language: Language): string[] {
  const out: string[] = [];
  for (const raw of lines) {
    const line = raw.trim();
    const previous = out[out.length - 1];
    const continues =
      /^[\p{Ll}(]/u.test(line) ||
      // A wrapped line of a long sentence in a language that capitalises nouns, or of an unspaced script.
      (previous !== undefined &&
        previous.length >= (language === 'ko' || language === 'ja' || language === 'zh' ? 20 : 50) &&
        (language === 'de'
          ? /^\p{Lu}\p{Ll}/u.test(line)
          : /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(line)) &&
        !isTermLine(line));
    if (
      previous &&
      line &&
      continues &&
      !/[.!?:。！？：]$/.test(previous) &&
      !/^#|^[\p{Lu}\d\s]{3,40}$|^[^\s.!?。]{1,12}$/u.test(previous) &&
      !isTermLine(previous)
    ) {
      const joiner = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]$/u.test(previous) ? '' : ' ';
      out[out.length - 1] = `${previous}${joiner}${line}`;
    } else {
      out.push(line);
    }
  }
  return out;
}

/** A sentence that reads on its own: it opens like a sentence (not with "or", "then" or a lower-case word) and ends. */
function standsAlone(sentence: string): boolean {
  return /[.!?:;)"'”’。！？：）」`]$/u.test(sentence.trim()) && opensLikeSentence(sentence);
}

function opensLikeSentence(sentence: string): boolean {
  const t = sentence.trim().replace(/^["'“‘([]+/, '');
  if (
    /^(and|or|but|nor|so|yet|then|also|thus|hence|however|therefore|instead|otherwise|which|that|whereas|while|respectively|including|except)\b/i.test(
      t,
    )
  )
    return false;
  const first = t.split(/\s/)[0] ?? '';
  // A lower-case opening is an identifier or command (npm, ls, glob(7), --exact) or a sentence cut in two.
  return (
    !/^\p{Ll}/u.test(first) ||
    /[_.(`\d]|\p{Ll}\p{Lu}/u.test(first) ||
    !/^\p{Ll}+$/u.test(first) ||
    isCommandWord(first, t)
  );
}

/** "apropos searches…", "dpkg breaks…": a lower-case command that opens a sentence, told by the verb after it. */
function isCommandWord(first: string, sentence: string): boolean {
  const second = sentence.split(/\s+/)[1] ?? '';
  return !stopwords.has(first) && /^\p{Ll}+s$/u.test(second) && !/ss$/.test(second) && !/(ing|ed|ly)$/.test(first);
}

/** An answer that opens with a pronoun ("It must be…", "This part…") needs the sentence before it to make sense. */
function leansOnContext(card: CardDraft): boolean {
  if (/_{3,}/.test(card.question) || card.cloze) return false;
  const answer = card.answer.trim();
  return (
    /^(it|this|that|these|those|they|them|he|she|its|their|such|which)\b/i.test(answer) &&
    !/^(it|this|that)\s+(is|was)\s+(a|an|the)\b/i.test(answer) &&
    words(answer).length > 3
  );
}

/** One fact a card: an answer of one item longer than thirty words, or of two sentences, holds several. */
function isLongAnswer(card: CardDraft): boolean {
  if (card.cloze || card.answer.includes('\n')) return false;
  const answer = card.answer.replace(/\b(e\.g|i\.e|etc|vs|cf)\./gi, '$1').replace(/\d\.\d/g, '0');
  return words(answer).length > 30 || /[.!?]\s+\p{Lu}/u.test(answer.trim());
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
    !bullet.test(line) &&
    words(line).length <= 8 &&
    bullet.test(next ?? '')
  );
}

/**
 * A line that names one thing a description follows: a command-line option ("-e, --exact"), an identifier or
 * call ("list.append(x)", "`maximum_interval`"), or one hyphenated or lower-case term ("upstream-version", "epoch").
 */
function isTermLine(line: string): boolean {
  const t = line.trim();
  if (t.length > 60 || /[.!?。:;,]$/.test(t)) return false;
  if (/^--?[\w?]/.test(t) && !/\s\p{L}+\s\p{L}+\s\p{L}+/u.test(t.replace(/--?[\w-]+(=\S+)?/g, ''))) return true;
  if (/^`[^`]+`$/.test(t)) return true;
  // A path ("/etc/skel") or a constant ("PIPE_BUF"), as man pages list them.
  if (/^\/[\w+./-]+$|^[A-Z][A-Z\d]*_[A-Z\d_]+$/.test(t)) return true;
  if (/^[\p{L}_$][\w$.]*(\([^)]*\))?$/u.test(t) && /[_.(]|\p{Ll}\p{Lu}/u.test(t)) return true;
  return /^\p{Ll}[\p{Ll}\d]*(-\p{Ll}[\p{Ll}\d]*)*$/u.test(t) && t.length >= 3;
}

/** A description after a term line: a sentence (for an option, any phrase of three words or more). */
function isDescription(line: string, language: Language, ofOption: boolean): boolean {
  if (isTermLine(line) || bullet.test(line) || /^#/.test(line)) return false;
  if (language === 'ja' || language === 'zh') return line.length >= 6;
  if (!/^[\p{Lu}\p{Lo}]/u.test(line) && !(ofOption && /^\p{Ll}/u.test(line))) return false;
  if (/^(these|they|those)\b/i.test(line)) return false;
  return ofOption ? words(line).length >= 3 : words(line).length >= 4 && /[.!?]$/.test(line);
}

/** What an option, a function or a method is asked about: what it does. */
function asksWhatItDoes(term: string): boolean {
  return /^--?\w/.test(term.trim()) || /\(\S*\)$/.test(term.trim());
}

function firstSentence(text: string, language: Language): string {
  return splitSentences(text, language)[0] ?? text;
}

const notTerms =
  /^(it|this|that|these|those|they|there|he|she|we|you|i|here|which|what|one|notes?|note that|example|summary|answer|question|figure|table|step \d+|see also|warning|tip|important|caution)$/i;

/** "Term: definition", "Term – definition", "Term - definition" (a glossary line, a table row, a bullet). */
function glossary(line: string, language: Language): { term: string; definition: string } | null {
  const match = /^([^:：–—-]{1,60}?)\s*(?::(?!\/\/)|：|\s[–—-]\s)\s*(.{2,})$/u.exec(line.trim());
  if (!match) return null;
  const term = stripEndPunctuation(match[1] ?? '');
  const definition = stripEndPunctuation(firstSentence((match[2] ?? '').trim(), language));
  if (words(term).length === 0 || words(term).length > 6 || notTerms.test(term)) return null;
  if (isClause(term, language) || /\d$/.test(term)) return null;
  const unspaced = language === 'ja' || language === 'zh';
  if (unspaced ? definition.length < 4 : words(definition).length < 2) return null;
  return { term, definition };
}

// Words that open a clause, not a noun phrase, in each language's "X: …" or "X is …".
const clauseOpeners: Partial<Record<Language, RegExp>> = {
  en: /^(if|since|when|whenever|while|because|although|though|as|that|which|who|where|whether|unless|until|after|before|so|and|or|but|then|for|with|without|by|from|in|on|at|of|to|into|about|also|not|only|just|let's|let|please|install|see|read|use|note|first|then|now|do|does|how|why|what)$/i,
  es: /^(si|cuando|porque|aunque|como|que|y|o|pero|para|con|sin|por|en|de|a|desde|hasta|no|también)$/i,
  fr: /^(si|quand|parce|bien|comme|que|qui|et|ou|mais|pour|avec|sans|par|en|de|à|dans|ne|aussi)$/i,
  de: /^(wenn|weil|obwohl|als|dass|und|oder|aber|für|mit|ohne|von|in|an|auf|zu|nicht|auch|bei)$/i,
  pt: /^(se|quando|porque|embora|como|que|e|ou|mas|para|com|sem|por|em|de|não|também)$/i,
  it: /^(se|quando|perché|sebbene|come|che|e|o|ma|per|con|senza|da|in|di|a|non|anche)$/i,
};

function isClause(term: string, language: Language): boolean {
  const first = (term.trim().split(/\s+/)[0] ?? '').replace(/^["'“‘(`]/, '');
  if (clauseOpeners[language]?.test(first)) return true;
  if (language === 'en') {
    if (/\s(is|are|was|were|has|have|had|can|could|will|would|should|must|may|might|does|did|do)\s/i.test(` ${term} `))
      return true;
    if (/^\p{Ll}+ing$/u.test(first) && term.includes(' ')) return true;
  }
  return false;
}

interface Definition {
  kind: 'is' | 'states' | 'called' | 'does';
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
// "maximum_interval caps how far…", "`enable_fuzz` adds randomness…", "list.pop() removes and returns…".
const codeSubject = '(`[^`]+`|[\\p{L}_$][\\w$.]*(?:\\(\\S*\\))?)';
const does = new RegExp(String.raw`^${codeSubject}\s+(\p{Ll}+s)\s+(.+)$`, 'u');
const codeIs = new RegExp(String.raw`^${codeSubject}\s+(?:is|are|Is|Are)\s+(.+)$`, 'u');

function isCodeTerm(term: string): boolean {
  return /^`[^`]+`$/.test(term) || /[_.]|\(\S*\)$|\p{Ll}\p{Lu}/u.test(term);
}

function definitionOf(sentence: string): Definition | null {
  const s = stripEndPunctuation(sentence);
  const st = states.exec(s);
  if (st && !notTerms.test(st[1] ?? ''))
    return { kind: 'states', verb: 'does', term: st[1] ?? '', definition: st[2] ?? '' };
  const c = called.exec(s);
  if (c && words(c[2] ?? '').length <= 5 && words(c[1] ?? '').length >= 3) {
    return { kind: 'called', verb: 'is', term: stripEndPunctuation(c[2] ?? ''), definition: lowerFirst(c[1] ?? '') };
  }
  const code = codeIs.exec(s);
  if (code && isCodeTerm(code[1] ?? '') && words(code[2] ?? '').length >= 2) {
    return { kind: 'is', verb: 'is', term: (code[1] ?? '').replace(/`/g, ''), definition: (code[2] ?? '').trim() };
  }
  const d = does.exec(s);
  if (d && isCodeTerm(d[1] ?? '') && !['is', 'was', 'has', 'does', 'this'].includes(d[2] ?? '')) {
    return { kind: 'does', verb: 'does', term: (d[1] ?? '').replace(/`/g, ''), definition: `${d[2]} ${d[3]}` };
  }
  for (const pattern of definitional) {
    const m = pattern.exec(s);
    if (!m) continue;
    const term = m[1] ?? '';
    const firstWord = term.split(' ')[0] ?? '';
    if (notTerms.test(term) || notTerms.test(firstWord) || stopwords.has(term.toLowerCase())) continue;
    if (isClause(term, 'en')) continue;
    if (words(m[3] ?? '').length < 2) continue;
    const verb = (m[2] ?? '').toLowerCase();
    const copula = ['is', 'are', 'was', 'were'].includes(verb) ? verb : /^(are|refer|mean)\b/.test(verb) ? 'are' : 'is';
    return { kind: 'is', verb: copula, term, definition: (m[3] ?? '').trim() };
  }
  return nounPhraseDoes(s);
}

const actionVerbs =
  /^(runs|returns|removes|adds|raises|creates|stores|sends|reads|writes|prints|inhibits|blocks|binds|causes|reduces|increases|decreases|produces|converts|carries|controls|regulates|transports|releases|absorbs|stops|starts|prevents|allows|caps|sets|gets|calls|loads|parses|compares|matches|searches|deletes|inserts|counts|sorts|splits|joins|checks|validates|handles|registers|defines|provides|contains|holds|takes|makes|gives|uses|keeps|breaks)$/i;

/**
 * "The else clause of a loop runs when …", "Aspirin irreversibly inhibits cyclooxygenase-1 …": a noun phrase
 * (wink-nlp: determiners, adjectives, nouns, names, "of") then a verb in the third person → "What does X do?".
 */
function nounPhraseDoes(sentence: string): Definition | null {
  const tokens = tagEnglish(sentence);
  let at = -1;
  for (let k = 1; k < Math.min(tokens.length, 9); k++) {
    const token = tokens[k] as { value: string; pos: string };
    if (/^(refers|means|describes|denotes|states|says|holds|is|was|has|does)$/i.test(token.value)) return null;
    if (
      actionVerbs.test(token.value) ||
      (token.pos === 'VERB' && /^\p{Ll}+s$/u.test(token.value) && !/ss$/.test(token.value))
    ) {
      at = k;
      break;
    }
    if (token.pos === 'ADV' && k + 1 < tokens.length) continue;
    if (!['DET', 'ADJ', 'NOUN', 'PROPN', 'ADP', 'NUM', 'X'].includes(token.pos)) return null;
  }
  if (at < 1) return null;
  const subjectTokens = tokens.slice(0, at).filter((token, k) => !(token.pos === 'ADV' && k === at - 1));
  if (!['DET', 'ADJ', 'NOUN', 'PROPN'].includes(subjectTokens[0]?.pos ?? '')) return null;
  if (subjectTokens[subjectTokens.length - 1]?.pos === 'ADP' || subjectTokens[subjectTokens.length - 1]?.pos === 'DET')
    return null;
  // The subject as written (the tagger splits "cyclooxygenase-1", "enable_fuzz" …): the text before the verb.
  const adverb = tokens[at - 1]?.pos === 'ADV' ? (tokens[at - 1]?.value ?? '') : '';
  const verb = tokens[at]?.value ?? '';
  const verbAt = sentence.search(new RegExp(`\\b${adverb ? `${adverb}\\s+` : ''}${verb}\\b`));
  if (verbAt <= 0) return null;
  const term = sentence.slice(0, verbAt).trim();
  const rest = sentence.slice(verbAt).trim();
  if (words(term).length > 6 || words(rest).length < 3 || notTerms.test(term) || isClause(term, 'en')) return null;
  return { kind: 'does', verb: 'does', term, definition: rest };
}

// "X es un …", "X est une …", "X ist ein …", "X é um …", "X è un …"; "Xは…です", "X是…", "X은/는 …이다".
const foreignCopulas: Partial<Record<Language, RegExp>> = {
  es: /^(.{2,60}?)\s+(?:es|son|era)\s+((?:un|una|el|la|los|las)\s.+)$/iu,
  fr: /^(.{2,60}?)\s+(?:est|sont|était)\s+((?:un|une|le|la|les|l’|l')\s?.+)$/iu,
  de: /^(.{2,60}?)\s+(?:ist|sind|war)\s+((?:ein|eine|einer|der|die|das)\s.+)$/iu,
  pt: /^(.{2,60}?)\s+(?:é|são|era)\s+((?:um|uma|o|a|os|as)\s.+)$/iu,
  it: /^(.{2,60}?)\s+(?:è|sono|era)\s+((?:un|una|uno|il|lo|la|i|gli|le|l’|l')\s?.+)$/iu,
  ja: /^(.{1,40}?)\s*(?:は|とは)[、,]?\s*(.{4,})$/u,
  zh: /^(.{1,40}?)\s*(?:是|指|用于|表示)\s*(.{4,})$/u,
  ko: /^(.{1,40}?)(?:은|는|이란|란)\s+(.{4,})$/u,
};

// Pronouns and demonstratives: "Dies ist …", "Esto es …", "これは…" say nothing without the sentence before.
const pronouns =
  /^(dies|das|es|er|sie|diese[rs]?|esto|este|esta|eso|ello|él|ella|ceci|cela|ce|il|elle|isto|isso|ele|ela|questo|questa|ciò|esso|essa|これ|これら|それ|それら|この|其|这|这些|它|它们|이것|그것|이|그)$/iu;

function foreignDefinitionOf(sentence: string, language: Language): Definition | null {
  const s = sentence.trim().replace(/[.。]$/u, '');
  // "`request_retention` …" in any language: a code term and its description.
  const code = /^`([^`]+)`\s*(?:は|是|는|은|:|：)?[、,，]?\s*(?![\sと和与及や및、,，`])(.{4,})$/u.exec(s);
  if (code) return { kind: 'is', verb: 'is', term: code[1] ?? '', definition: stripEndPunctuation(code[2] ?? '') };
  const pattern = foreignCopulas[language];
  const m = pattern?.exec(s);
  if (!m) return null;
  const term = stripEndPunctuation(m[1] ?? '');
  if (isClause(term, language) || /[、,，。]/.test(term) || pronouns.test(term)) return null;
  // In Japanese, Chinese and Korean a noun phrase has no case particles or conditions ("…場合", "如果…").
  if (/[がをにで]|場合|とき|ため|なら|たら|如果|当|时|때|경우|[을를이가에]\s|[에의을를도로서]$/u.test(term))
    return null;
  if (language !== 'ja' && language !== 'zh' && language !== 'ko' && words(term).length > 5) return null;
  return { kind: 'is', verb: 'is', term, definition: stripEndPunctuation(m[2] ?? '') };
}

/** "If X, Y." → "What happens if X?" → "Y" (a cause and its effect). */
function conditional(sentence: string, say: Phrasing): CardDraft | null {
  if (!say.whatHappens || !say.conditionOpeners) return null;
  const m = /^(\p{L}+)\s+([^,;:]{6,140}),\s+(.{8,})$/u.exec(stripEndPunctuation(sentence));
  if (!m || !say.conditionOpeners.test(m[1] ?? '')) return null;
  if (words(m[3] ?? '').length < 3) return null;
  // "If the parameters come from storage, user input, or the network, …": the comma was a list's, not the clause's.
  if (/^[^,]{1,40},\s*(or|and|o|y|ou|et|oder|und|e)\s/i.test(m[3] ?? '')) return null;
  // "If X, then Y": the answer is Y, without the "then" that only joined it to the question.
  const consequence = (m[3] ?? '').replace(/^(then|alors|dann|entonces|então|allora)\s+/iu, '');
  return { question: say.whatHappens(m[1] ?? '', m[2] ?? ''), answer: capitalize(consequence) };
}

/** Advice on a tool: "Use repeat when you want to preview…" → "When should you use repeat?" (or "Why use X?", with "to"). */
function whenToUse(sentence: string): CardDraft | null {
  const m = /^Use\s+(`[^`]+`|[\w.$]+(?:\(\))?)\s+(when|if|to)\s+(.{8,})$/.exec(stripEndPunctuation(sentence.trim()));
  if (!m?.[1] || !m[2] || !m[3] || words(m[3]).length < 3) return null;
  const tool = m[1].replace(/`/g, '');
  return m[2] === 'to'
    ? { question: `Why use ${tool}?`, answer: capitalize(`to ${m[3]}`) }
    : { question: `When should you use ${tool}?`, answer: capitalize(`${m[2]} ${m[3]}`) };
}

function lowerFirst(text: string): string {
  const first = text.split(' ')[0] ?? '';
  return /^[A-Z][a-z]+$/.test(first) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

const years = String.raw`(?:1[0-9]{3}|20[0-9]{2})(?:\s?(?:BC|BCE|AD|CE))?`;
const quantities = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`;
const units = String.raw`%|\s(?:percent|million|billion|thousand|kilometres|kilometers|km|metres|meters|m\/s²?|kg|grams|g|seconds|s|minutes|hours|days|years|degrees|°C|°F|K|joules|J|newtons|N|volts|V|watts|W|mol|chromosomes|bones|pairs|species|people|miles)\b`;
const numberPattern = new RegExp(
  String.raw`(?<![\p{L}\d.,:/-])(${years}(?![\d,:/-]|\.\d)|(?:${quantities})(?=${units}))`,
  'u',
);

/** A fact with a date or a number becomes a fill-in-the-blank on that number (its unit stays in the question). */
function numberCloze(sentence: string, say: Phrasing): { card: CardDraft; cloze: string | null } | null {
  if (words(sentence).length < 5 || /\?$/.test(sentence.trim())) return null;
  const match = numberPattern.exec(sentence);
  const value = match?.[1];
  if (!match || !value) return null;
  const blanked = `${sentence.slice(0, match.index)}_____${sentence.slice(match.index + value.length)}`;
  return {
    card: { question: say.fill(blanked), answer: value },
    cloze: wrapDeletion(sentence, match.index, value.length),
  };
}

/**
 * A fill-in-the-blank on the sentence's most characteristic term, only if it is one of the document's key
 * concepts: a noun or a name (wink-nlp's tagger, for English), never a generic or function word.
 */
function termCloze(
  sentence: string,
  topTerms: { term: string; score: number }[],
  language: Language,
  say: Phrasing,
): { card: CardDraft; weight: number; cloze: string | null } | null {
  if (/\?$/.test(sentence.trim())) return null;
  if (language === 'ja' || language === 'zh' || language === 'ko') {
    return codeTermCloze(sentence, say);
  }
  if (words(sentence).length < 6) return null;
  const [first] = keyTerms(sentence, topTerms, language);
  if (!first) return null;
  const blanked = `${sentence.slice(0, first.at)}_____${sentence.slice(first.at + first.text.length)}`;
  return {
    card: { question: say.fill(blanked), answer: first.text },
    weight: Math.min(1, first.score / 10),
    cloze: wrapDeletion(sentence, first.at, first.text.length),
  };
}

/**
 * The document's key concepts in a sentence, best first, as they stand in it: nouns and names (wink-nlp's tagger, for
 * English), never a generic or function word; each found once.
 */
function keyTerms(
  sentence: string,
  topTerms: { term: string; score: number }[],
  language: Language,
): { at: number; text: string; score: number }[] {
  const found: { at: number; text: string; score: number }[] = [];
  const foreignStopwords = language === 'en' ? null : stopwordsOf(language);
  for (const { term, score } of topTerms) {
    if (score < 2) break;
    const pattern = new RegExp(
      `(?<![\\p{L}\\p{N}_.-])${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}_-])`,
      'iu',
    );
    const match = pattern.exec(sentence);
    if (!match) continue;
    if (!term.includes(' ') && !isContentWord(term)) continue;
    if (isGenericWord(term) || foreignStopwords?.has(term.toLowerCase())) continue;
    if (language === 'en') {
      const pos = tagOfWord(sentence, match[0]);
      if (pos !== null && pos !== 'NOUN' && pos !== 'PROPN' && pos !== 'X' && pos !== 'NUM') continue;
    }
    const end = match.index + match[0].length;
    if (found.some((other) => match.index < other.at + other.text.length && other.at < end)) continue;
    found.push({ at: match.index, text: match[0], score });
  }
  return found;
}

/** At most this many deletions in one sentence's cloze note, each its own number (its own card). */
const maxDeletionsPerSentence = 3;

/**
 * A one-deletion cloze sentence with the sentence's other key concepts blanked too, one number each in the order
 * they stand (a long enough sentence only, so that what is left still says which fact each blank holds).
 */
function withMoreDeletions(cloze: string, topTerms: { term: string; score: number }[], language: Language): string {
  const one = /^([\s\S]*?)\{\{c1::([^{}]*)\}\}([\s\S]*)$/.exec(cloze);
  if (!one || /\{\{c/.test(one[3] ?? '') || cloze.includes('\n')) return cloze;
  const [, before = '', answer = '', after = ''] = one;
  const sentence = `${before}${answer}${after}`;
  if (words(sentence).length < 12 || language === 'ja' || language === 'zh' || language === 'ko') return cloze;
  const kept = { at: before.length, text: answer };
  const spans = [kept];
  for (const term of keyTerms(sentence, topTerms, language)) {
    if (spans.length >= maxDeletionsPerSentence) break;
    // Two blanks with no word between them ("[...] [...]") are one term cut in two: each would give the other away.
    const touches = (other: { at: number; text: string }) => {
      const [a, b] = other.at < term.at ? [other, term] : [term, other];
      return !/[\p{L}\p{N}]/u.test(sentence.slice(a.at + a.text.length, b.at)) || a.at + a.text.length > b.at;
    };
    if (spans.some(touches)) continue;
    spans.push(term);
  }
  if (spans.length === 1) return cloze;
  spans.sort((a, b) => a.at - b.at);
  let text = sentence;
  // Wrapped from the end, so that the positions before each one stay right.
  for (let k = spans.length - 1; k >= 0; k--) {
    const span = spans[k] as { at: number; text: string };
    text = wrapDeletion(text, span.at, span.text.length, k + 1) ?? text;
  }
  return text;
}

/** In unspaced or agglutinative text, a blank only on an identifier or a Latin-script name inside it. */
function codeTermCloze(
  sentence: string,
  say: Phrasing,
): { card: CardDraft; weight: number; cloze: string | null } | null {
  if (sentence.length < 12) return null;
  const match = /`([^`]{2,40})`|(?<![\w.-])([A-Za-z][\w.-]*[_.(][\w.()-]*|[A-Z][A-Za-z]{3,})(?![\w-])/u.exec(sentence);
  const term = match?.[1] ?? match?.[2];
  if (!match || !term) return null;
  const at = match.index + (match[1] ? 1 : 0);
  const blanked = `${sentence.slice(0, at)}_____${sentence.slice(at + term.length)}`;
  return {
    card: { question: say.fill(blanked), answer: term },
    weight: 0.5,
    cloze: wrapDeletion(sentence, at, term.length),
  };
}
