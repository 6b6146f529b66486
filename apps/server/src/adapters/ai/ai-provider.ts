import type { CardStyle } from '@flashcards/shared/api-types';
import { clozeDeletions, firstClozeCard, isGuessableDeletion, keepsCloze } from './cloze-drafts';

/**
 * A card written by a provider: a question and answer, or a cloze note (`cloze`, its text with `{{cN::…}}`
 * deletions) whose question and answer are its first card as review shows it.
 */
export interface CardDraft {
  question: string;
  answer: string;
  cloze?: string;
  /** The passage of the material the card was made from, as the writer gives it (checked by the pipeline). */
  quote?: string;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface ProviderResult {
  cards: CardDraft[];
  /** Known for real models; undefined for the offline generator. */
  usage?: TokenUsage;
}

/**
 * Writes cards from text and quiz questions from a deck. Implementations: `openai` (any OpenAI-compatible
 * chat-completions server) and `offline` (the built-in extractive generator). Both stop when `signal` aborts.
 * `onCard` hears each well-formed card as soon as it is known (the streamed reply's object is complete), before the
 * whole reply is in; the result still carries every card.
 */
export interface AiProvider {
  /** "offline" or "openai". */
  readonly name: string;
  readonly model: string;
  generateCards(
    input: { text: string; maxCards: number; style: CardStyle },
    signal: AbortSignal,
    onCard?: (card: CardDraft) => void,
  ): Promise<ProviderResult>;
  generateQuiz(input: { cards: CardDraft[]; maxQuestions: number }, signal: AbortSignal): Promise<ProviderResult>;
  /**
   * Judges a typed answer by its meaning (POST /cards/{id}/check, long answers). Only providers with a model have it;
   * it throws AiUnavailableError or AiTimeoutError like the others.
   */
  judgeAnswer?(input: AnswerToJudge, signal: AbortSignal): Promise<AnswerJudgement>;
  /**
   * Writes wrong options for multiple-choice questions (POST /api/quiz/generate): for each item, in order, the
   * plausible wrong answers the model wrote (unchecked: the caller keeps the usable ones). Only providers with a model
   * have it; it throws AiUnavailableError or AiTimeoutError like the others.
   */
  writeDistractors?(input: DistractorRequest, signal: AbortSignal): Promise<string[][]>;
}

/** Questions whose wrong options a model writes, with other answers of the deck to show their style. */
export interface DistractorRequest {
  items: { question: string; answer: string }[];
  /** Wrong options wanted per item. */
  count: number;
  examples: string[];
}

export interface AnswerToJudge {
  question: string;
  expected: string;
  typed: string;
}

/** A model's verdict on a typed answer; `explanation` is one line on what is off (said for `close`). */
export interface AnswerJudgement {
  verdict: 'correct' | 'close' | 'wrong';
  explanation: string;
}

/** The provider failed: unreachable, kept answering with errors, or never produced usable output. */
export class AiUnavailableError extends Error {
  override name = 'AiUnavailableError';
}

/** The generation deadline passed before the provider finished. */
export class AiTimeoutError extends Error {
  override name = 'AiTimeoutError';
}

export const cardLimits = { maxQuestionLength: 1000, maxAnswerLength: 2000 } as const;

const normalize = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/**
 * A cloze note from a provider, or null: a text within the length cap with at least one deletion, numbers from 1,
 * and no deletion a learner could guess from grammar alone.
 */
function validCloze(value: unknown): CardDraft | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (!text || text.length > cardLimits.maxAnswerLength) return null;
  const deletions = clozeDeletions(text);
  if (!deletions || deletions.length === 0) return null;
  if (deletions.some((deletion) => isGuessableDeletion(deletion.answer))) return null;
  const card = firstClozeCard(text);
  return card ? { ...card, cloze: text } : null;
}

/**
 * Keeps the well-formed cards: both sides non-empty after trimming, within the length caps, the answer not a
 * repeat of the question; or cloze notes (`{ text }`, see validCloze). Markdown and $…$ math are kept as written.
 * In the `basic` style a cloze note the model wrote anyway is kept as the basic card of its first cloze.
 */
export function validCards(drafts: unknown[], style: CardStyle = 'basic'): CardDraft[] {
  const out: CardDraft[] = [];
  for (const draft of drafts) {
    if (!draft || typeof draft !== 'object') continue;
    const { question, answer, text, quote } = draft as Record<string, unknown>;
    // Kept as given, however long: the pipeline refuses to verify an over-long one and shortens what it shows.
    const source = typeof quote === 'string' && quote.trim() ? { quote: quote.trim() } : {};
    if (typeof text === 'string' && typeof question !== 'string') {
      const cloze = validCloze(text);
      if (cloze)
        out.push({ ...(keepsCloze(style) ? cloze : { question: cloze.question, answer: cloze.answer }), ...source });
      continue;
    }
    if (typeof question !== 'string' || typeof answer !== 'string') continue;
    const q = question.trim();
    const a = answer.trim();
    if (!q || !a || q.length > cardLimits.maxQuestionLength || a.length > cardLimits.maxAnswerLength) continue;
    if (!normalize(q) || !normalize(a) || normalize(q) === normalize(a)) continue;
    out.push({ question: q, answer: a, ...source });
  }
  return out;
}

function words(text: string): Set<string> {
  return new Set(normalize(text).split(' ').filter(Boolean));
}

// A card's normalized question and word sets, computed once: a generation compares every card with every card
// kept before it, and normalizing again for each pair made that the longest work on the server's event loop.
const features = new WeakMap<CardDraft, { question: string; questionWords: Set<string>; answerWords: Set<string> }>();
function featuresOf(card: CardDraft) {
  let known = features.get(card);
  if (!known) {
    known = {
      question: normalize(card.question),
      questionWords: words(card.question),
      answerWords: words(card.answer),
    };
    features.set(card, known);
  }
  return known;
}

function overlap(x: Set<string>, y: Set<string>): number {
  if (x.size === 0 && y.size === 0) return 1;
  let shared = 0;
  for (const word of x) if (y.has(word)) shared++;
  return shared / (x.size + y.size - shared);
}

/** Jaccard similarity of two texts' word sets. */
export function similarity(a: string, b: string): number {
  return overlap(words(a), words(b));
}

/** The card repeats one of `kept`: the same question, or nearly the same question and answer. */
export function isNearDuplicate(card: CardDraft, kept: readonly CardDraft[]): boolean {
  const mine = featuresOf(card);
  return kept.some((other) => {
    const theirs = featuresOf(other);
    return (
      theirs.question === mine.question ||
      (overlap(theirs.questionWords, mine.questionWords) >= 0.8 && overlap(theirs.answerWords, mine.answerWords) >= 0.6)
    );
  });
}

/** Drops exact and near-duplicate cards (same question, or nearly the same question and answer), first kept. */
export function dropNearDuplicates<T extends CardDraft>(cards: T[]): T[] {
  const kept: T[] = [];
  for (const card of cards) {
    if (!isNearDuplicate(card, kept)) kept.push(card);
  }
  return kept;
}
