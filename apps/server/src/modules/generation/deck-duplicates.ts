import type { DuplicateOf } from '@flashcards/shared/api-types';
import { stemmer } from 'stemmer';
import type { DeckLookup } from '../study-core/deck-scope';
import { requireOwnDeck } from '../study-core/deck-scope';

/** A card of a deck as the duplicate check reads it. */
export interface DeckCard {
  id: string;
  question: string;
  answer: string;
}

export interface DuplicatesRepo {
  /**
   * The deck's cards holding every term of at least one of `groups` (full-text index, each term also as a word's
   * prefix), best ranked first.
   */
  candidates(
    userId: string,
    deckId: string,
    groups: readonly (readonly string[])[],
    limit: number,
  ): Promise<DeckCard[]>;
  /** How many cards the deck has, and about `size` of them picked at random (all of them in a smaller deck). */
  sample(userId: string, deckId: string, size: number): Promise<{ total: number; cards: FactCard[] }>;
  /** Every card's question and answer in the deck (POST /save-cards' exact check). */
  questionsAndAnswers(userId: string, deckId: string): Promise<FactCard[]>;
}

type FactCard = { question: string; answer: string };

/** Candidates read per generated card: the closer check runs on these only. */
const candidatesPerCard = 12;
/** Index terms asked per card: its rarest content words in the deck carry the most of what it says. */
const termsPerCard = 6;
/** Cards of the deck read to estimate how common each word is there. */
const sampleSize = 500;
/**
 * A word estimated in more of the deck's cards than this is not asked of the index: it finds no fact of its own, and
 * ranking every card that holds it is what made the check slow on a large deck.
 */
const maxCardsPerTerm = 100;
/** Share of the smaller card's content words the two must share to state the same fact. */
const sameFactShare = 0.7;
/** And share of the larger card's: a short card inside a long one is not the same fact. */
const sameFactShareOfLarger = 0.4;

// Words that say nothing of a card's fact in the languages the generator writes; questions are made of them.
const stopWords = new Set(
  (
    'a an and are as at be been by can define describe did do does for from has have how in into is it its ' +
    'name of on or that the their this to was were what when where which who whom why will with ' +
    'fill blank called means meaning state states explain give list main points ' +
    'der die das und ist ein eine le la les et est un une el los las es y que del de en'
  ).split(' '),
);

/** The question and answer in one line, case, space and punctuation aside: equal for exact duplicates. */
export function exactKey(card: { question: string; answer: string }): string {
  const flat = (text: string) =>
    (
      text
        .normalize('NFKC')
        .toLowerCase()
        .match(/[\p{L}\p{N}\p{M}]+/gu) ?? []
    ).join(' ');
  return `${flat(card.question)}\n${flat(card.answer)}`;
}

/** The stems of a card's content words (Porter), the form two wordings of one fact share. */
export function factStems(card: { question: string; answer: string }): Set<string> {
  const words =
    `${card.question} ${card.answer}`
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
  const stems = new Set<string>();
  for (const word of words) {
    if (stopWords.has(word) || (word.length < 2 && !/\d/.test(word))) continue;
    stems.add(/^[a-z]+$/.test(word) ? stemmer(word) : word);
  }
  return stems;
}

/** How far two cards state the same fact: 0 (nothing shared) to 1; exact duplicates are 1. */
export function sameFactScore(a: { question: string; answer: string }, b: { question: string; answer: string }) {
  if (exactKey(a) === exactKey(b)) return 1;
  const mine = factStems(a);
  const theirs = factStems(b);
  if (mine.size === 0 || theirs.size === 0) return 0;
  let shared = 0;
  for (const stem of mine) if (theirs.has(stem)) shared++;
  const small = Math.min(mine.size, theirs.size);
  const large = Math.max(mine.size, theirs.size);
  // One shared word is a topic, not a fact, unless the card has no more to say.
  if (shared < Math.min(2, small)) return 0;
  if (shared / small < sameFactShare || shared / large < sameFactShareOfLarger) return 0;
  return shared / small;
}

/** A card's content words' stems as index terms: letters, digits and marks only, at least three of them. */
function indexTerms(card: FactCard): string[] {
  const terms = new Set<string>();
  for (const stem of factStems(card)) {
    const term = stem.replace(/[^\p{L}\p{N}\p{M}]/gu, '');
    if ([...term].length >= 3) terms.add(term);
  }
  return [...terms];
}

/** How many of a deck's cards hold each term, estimated from a sample of its cards. */
function termCounts(sample: { total: number; cards: FactCard[] }): (term: string) => number {
  const seen = new Map<string, number>();
  for (const card of sample.cards) for (const term of indexTerms(card)) seen.set(term, (seen.get(term) ?? 0) + 1);
  const scale = sample.cards.length === 0 ? 0 : sample.total / sample.cards.length;
  return (term) => (seen.get(term) ?? 0) * scale;
}

/**
 * What the index is asked for a card: its rarest terms in the deck, any one enough (a card stating the same fact
 * shares most of its words, so it holds some of the rare ones); when every term is common in the deck, two of its
 * three rarest together (the same fact shares at least two).
 */
function lookupGroups(card: FactCard, cardsHolding: (term: string) => number): string[][] {
  const terms = indexTerms(card)
    .map((term) => ({ term, cards: cardsHolding(term) }))
    .sort((a, b) => a.cards - b.cards || b.term.length - a.term.length || (a.term < b.term ? -1 : 1));
  const rare = terms.filter((term) => term.cards <= maxCardsPerTerm).slice(0, termsPerCard);
  if (rare.length > 0 || terms.length < 2) return (rare.length > 0 ? rare : terms).map(({ term }) => [term]);
  const [a, b, c] = terms.map(({ term }) => term) as [string, string, string | undefined];
  return c === undefined
    ? [[a, b]]
    : [
        [a, b],
        [a, c],
        [b, c],
      ];
}

/**
 * Duplicates of a deck (POST /create's `deck_id`): for each generated card, the deck's cards that share its rarest
 * words are read from the full-text index (never every card of the deck), and the best of them that states the same
 * fact (its content words' stems mostly shared) is the card it repeats.
 */
export function createDeckDuplicates(deps: { repo: DuplicatesRepo; decks: DeckLookup }) {
  const { repo } = deps;
  return {
    /** deck_not_found unless the deck is the user's. */
    requireDeck: (userId: string, deckId: string) => requireOwnDeck(deps.decks, userId, deckId),

    /**
     * The duplicate check of one generation into a deck: the card of the deck each card repeats, or undefined. The
     * deck's sample is read once, at the first card.
     */
    forDeck(userId: string, deckId: string): (card: FactCard) => Promise<DuplicateOf | undefined> {
      let counts: Promise<(term: string) => number> | undefined;
      return async (card) => {
        counts ??= repo.sample(userId, deckId, sampleSize).then(termCounts);
        const groups = lookupGroups(card, await counts);
        if (groups.length === 0) return undefined;
        const candidates = await repo.candidates(userId, deckId, groups, candidatesPerCard);
        let best: { card: DeckCard; score: number } | undefined;
        for (const candidate of candidates) {
          const score = sameFactScore(card, candidate);
          if (score > 0 && (!best || score > best.score)) best = { card: candidate, score };
        }
        return best ? { card_id: best.card.id, question: best.card.question } : undefined;
      };
    },

    /** The keys (exactKey) of every card of the deck. */
    async exactKeys(userId: string, deckId: string): Promise<Set<string>> {
      return new Set((await repo.questionsAndAnswers(userId, deckId)).map(exactKey));
    },
  };
}

export type DeckDuplicates = ReturnType<typeof createDeckDuplicates>;
