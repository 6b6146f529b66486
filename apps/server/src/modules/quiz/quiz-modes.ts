import type {
  MatchingQuestion,
  MultipleChoiceQuestion,
  TrueFalseQuestion,
  WrittenQuestion,
} from '@flashcards/shared/api-types';
import { fillMessage } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';

/** A card a quiz is made from. */
export interface QuizCard {
  id: string;
  question: string;
  answer: string;
}

/** A number in [0, 1), like Math.random (injected so tests can fix it). */
export type Random = () => number;

/** Pairs one matching round shows at most. */
export const maxMatchingPairs = 6;
/** Nearest answers (by length, of the same kind) a distractor is drawn from. */
const distractorNeighbours = 8;

type AnswerKind = 'date' | 'number' | 'text';

interface PoolAnswer {
  key: string;
  text: string;
  length: number;
}

// Years 1000–2099 and dates written with / . or - between day, month and year.
const datePattern = /(?<!\d)(?:1\d{3}|20\d{2})(?!\d)|\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}/;
const digit = /\d/;

function kindOf(answer: string): AnswerKind {
  if (!digit.test(answer)) return 'text';
  return datePattern.test(answer) ? 'date' : 'number';
}

/** Two answers with the same key say the same thing to the eye: case, space and punctuation aside. */
export function answerKey(answer: string): string {
  return answer
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * The deck's distinct answers grouped by kind (dates with dates, numbers with numbers, words with words), each group
 * sorted by length, so a card's distractors are found by a binary search instead of a pass over the deck.
 */
export function answerPool(cards: readonly QuizCard[]) {
  const seen = new Set<string>();
  // A card's answer is no distractor for another card that asks the same question.
  const answersOf = new Map<string, Set<string>>();
  const groups: Record<AnswerKind, PoolAnswer[]> = { date: [], number: [], text: [] };
  for (const card of cards) {
    const key = answerKey(card.answer);
    const questionKey = card.question.trim().toLowerCase();
    const answers = answersOf.get(questionKey);
    if (answers) answers.add(key);
    else answersOf.set(questionKey, new Set([key]));
    if (seen.has(key)) continue;
    seen.add(key);
    groups[kindOf(card.answer)].push({ key, text: card.answer.trim(), length: card.answer.length });
  }
  for (const group of Object.values(groups)) group.sort((a, b) => a.length - b.length);
  const everything = [...groups.date, ...groups.number, ...groups.text].sort((a, b) => a.length - b.length);
  return { groups, everything, distinct: seen.size, answersOf };
}

type AnswerPool = ReturnType<typeof answerPool>;

/** The answers of `group` nearest in length to `length` (at most `count`), leaving out those whose key is in `not`. */
function nearest(group: PoolAnswer[], length: number, count: number, not: ReadonlySet<string>): PoolAnswer[] {
  let low = 0;
  let high = group.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((group[middle]?.length ?? 0) < length) low = middle + 1;
    else high = middle;
  }
  const found: PoolAnswer[] = [];
  let left = low - 1;
  let right = low;
  while (found.length < count && (left >= 0 || right < group.length)) {
    const leftGap = left >= 0 ? length - (group[left]?.length ?? 0) : Number.POSITIVE_INFINITY;
    const rightGap = right < group.length ? (group[right]?.length ?? 0) - length : Number.POSITIVE_INFINITY;
    const next = leftGap <= rightGap ? group[left--] : group[right++];
    if (next && !not.has(next.key)) found.push(next);
  }
  return found;
}

/** `count` items of `items` in random order (a partial Fisher–Yates shuffle of a copy). */
export function sample<T>(items: readonly T[], count: number, random: Random): T[] {
  const copy = [...items];
  const take = Math.min(count, copy.length);
  for (let i = 0; i < take; i++) {
    const j = i + Math.floor(random() * (copy.length - i));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy.slice(0, take);
}

/**
 * `count` other answers of the deck for `card`: of its kind and near its length (drawn at random among the nearest),
 * then of any kind when its kind has too few; all distinct from the card's answer and each other. Fewer when the
 * deck has fewer distinct answers.
 */
function distractors(pool: AnswerPool, card: QuizCard, count: number, random: Random): string[] {
  const not = new Set([answerKey(card.answer), ...(pool.answersOf.get(card.question.trim().toLowerCase()) ?? [])]);
  const picked = sample(
    nearest(pool.groups[kindOf(card.answer)], card.answer.length, distractorNeighbours, not),
    count,
    random,
  );
  for (const answer of picked) not.add(answer.key);
  if (picked.length < count) {
    picked.push(
      ...sample(nearest(pool.everything, card.answer.length, distractorNeighbours, not), count - picked.length, random),
    );
  }
  return picked.map((answer) => answer.text);
}

/** Four distinct options per card, one of them its answer; cards that cannot have three distractors are left out. */
export function multipleChoice(cards: readonly QuizCard[], count: number, random: Random): MultipleChoiceQuestion[] {
  const pool = answerPool(cards);
  if (pool.distinct < 4) return [];
  const questions: MultipleChoiceQuestion[] = [];
  for (const card of sample(cards, count, random)) {
    const others = distractors(pool, card, 3, random);
    if (others.length < 3) continue;
    const options = sample([card.answer.trim(), ...others], 4, random);
    questions.push({
      card_id: card.id,
      question: card.question,
      options,
      answer_index: options.indexOf(card.answer.trim()),
    });
  }
  return questions;
}

/** A written wrong option longer than this is no option a quiz can show (the card answer's own cap). */
const maxWrittenDistractorLength = 2000;

/**
 * A multiple-choice question with a model's wrong options in place of the deck's: the written ones that are usable
 * (not empty, within the length cap, not the answer nor another option, case, space and punctuation aside), topped
 * up from the deck's when fewer than three are; the options shuffled again.
 */
export function withWrittenDistractors(
  question: MultipleChoiceQuestion,
  written: readonly string[],
  random: Random,
): MultipleChoiceQuestion {
  const answer = question.options[question.answer_index] ?? '';
  const keys = new Set([answerKey(answer)]);
  const chosen: string[] = [];
  const take = (option: string) => {
    const text = option.trim();
    const key = answerKey(text);
    if (chosen.length >= 3 || !key || text.length > maxWrittenDistractorLength || keys.has(key)) return;
    keys.add(key);
    chosen.push(text);
  };
  for (const option of written) take(option);
  question.options.forEach((option, index) => {
    if (index !== question.answer_index) take(option);
  });
  const options = sample([answer, ...chosen], 4, random);
  return { ...question, options, answer_index: options.indexOf(answer) };
}

/** A statement per card: its question with its own answer (true) or, about half the time, another card's (false). */
export function trueFalse(cards: readonly QuizCard[], count: number, random: Random): TrueFalseQuestion[] {
  const pool = answerPool(cards);
  return sample(cards, count, random).map((card) => {
    const [other] = random() < 0.5 ? distractors(pool, card, 1, random) : [];
    return {
      card_id: card.id,
      statement: fillMessage(serverMessages.quizStatement, {
        question: card.question,
        answer: other ?? card.answer.trim(),
      }),
      is_true: other === undefined,
    };
  });
}

/**
 * Rounds of up to six pairs, as even as can be, from cards whose questions and answers are all distinct (a pair
 * must be told apart from the others). Empty when fewer than four such cards.
 */
export function matching(cards: readonly QuizCard[], count: number, random: Random): MatchingQuestion[] {
  const questionKeys = new Set<string>();
  const answerKeys = new Set<string>();
  const chosen: QuizCard[] = [];
  for (const card of sample(cards, cards.length, random)) {
    if (chosen.length >= count) break;
    const [questionKey, key] = [answerKey(card.question), answerKey(card.answer)];
    if (questionKeys.has(questionKey) || answerKeys.has(key)) continue;
    questionKeys.add(questionKey);
    answerKeys.add(key);
    chosen.push(card);
  }
  if (chosen.length < 4) return [];
  const rounds = Math.ceil(chosen.length / maxMatchingPairs);
  const size = Math.ceil(chosen.length / rounds);
  const questions: MatchingQuestion[] = [];
  for (let start = 0; start < chosen.length; start += size) {
    questions.push({
      pairs: chosen
        .slice(start, start + size)
        .map((card) => ({ card_id: card.id, left: card.question, right: card.answer.trim() })),
    });
  }
  return questions;
}

/** The cards' questions, to be answered by typing and checked with POST /cards/{id}/check. */
export function written(cards: readonly QuizCard[], count: number, random: Random): WrittenQuestion[] {
  return sample(cards, count, random).map((card) => ({ card_id: card.id, question: card.question }));
}
