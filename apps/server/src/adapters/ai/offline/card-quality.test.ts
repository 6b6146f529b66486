import { describe, expect, it } from 'vitest';
import { isGenericWord, junkReasons } from './card-quality';

// Each junk shape the issue reported (and the ones found on the bench's real documents) is one case; each case
// also shows the rule keeps the good card next to it.
describe('junk rules', () => {
  it.each([
    // malformed
    ['malformed', 'What is X Desktop Group (http?', '//www.freedesktop.org)'],
    ['malformed', 'Fill in the blank: V] [-e|-w|-r] [-s Liste] [-m _____[,...]]', 'System'],
    ['malformed', 'What is a runtime schema library such as zod?', 'A good fit for that'],
    [
      'malformed',
      'What is reschedule(card, reviews, options?)?',
      'These are useful when replaying imported review logs.',
    ],
    [
      'malformed',
      'Fill in the blank: This _____ represents the case where software was written to be turned into a',
      'format',
    ],
    ['malformed', 'Fill in the blank: The _____ is _____.', 'cell'],
    ['malformed', 'What does Fastify do?', 'Supports it out-of-the-box'],
    ['malformed', '空欄を埋めてください：`_____`', 'generatorParameters'],
    ['malformed', 'zodとは何ですか？', 'のようなランタイム schema ライブラリはこの用途に適しています'],
    ['malformed', "Qu'est-ce que <URL ?", 'Https://po4a.org/> par l’équipe de traduction'],
    ['malformed', 'Fill in the blank: These are useful when rebuilding state from _____.', 'persistence'],
    // clause subjects
    ['clause_subject', 'What is if the expression?', 'True'],
    ['clause_subject', 'What is since Python?', 'Version 3'],
    ['clause_subject', 'What is referencing the name a hereafter?', 'An error'],
    ['clause_subject', 'What is the parser repeats the offending line?', 'A syntax error'],
    ['clause_subject', 'Was ist Dies?', 'Das Standardverhalten'],
    ['clause_subject', 'ユーザーの評価がすでに確定している場合とは何ですか？', 'その評価を直接適用します'],
    ['clause_subject', '각 설명서 페이지에(이)란 무엇입니까?', '페이지 안에 간단한 설명이 있습니다'],
    // generic blanks
    ['generic_blank', 'Fill in the blank: Insert an _____ at a given position.', 'item'],
    ['generic_blank', "Fill in the blank: We'll find other uses for del _____.", 'later'],
    ['generic_blank', 'Fill in the blank: The parser repeats the offending _____ and displays an arrow.', 'line'],
    ['generic_blank', 'Fill in the blank: _____ declare our basic server in an external file.', "Let's"],
    [
      'generic_blank',
      'Fill in the blank: _____ parses JSON natively, with the result on the Fastify request.',
      'Fastify',
    ],
    // layout debris
    ['layout_debris', 'Fill in the blank: Words left for manip- ulation of the _____ list.', 'sorted'],
    ['layout_debris', 'Fill in the blank: last updated 2 October _____', '2018'],
    ['layout_debris', 'What is the café menu?', 'A list of dishes served at the cafÃ©'],
    ['layout_debris', 'What is the TypeDoc API docs?', 'open-spaced-repetition.github.io/ts-fsrs'],
    [
      'layout_debris',
      'What is fsrs version?',
      '[![fsrs version](https://img.shields.io/badge/FSRS-v6-blue)](https://x)',
    ],
    ['layout_debris', 'Fill in the blank: Chapter one .......... _____', '12'],
    ['layout_debris', 'Fill in the blank: Read Validation and _____ to learn more.', 'Serialization'],
    ['layout_debris', 'What does the following example do?', 'Returns the parsed body of a request'],
    ['layout_debris', 'Fill in the blank: And create your _____ file(s):', 'server'],
    ['layout_debris', 'Complétez le blanc : Valéry Perrin <valery.perrin.debian@free.fr> le 2 janvier _____.', '2006'],
    ['layout_debris', 'スケジューラーとは何ですか？', '次の補助メソッドも提供します'],
    ['layout_debris', 'What does Fastify do?', 'Offers a platform that solves all of the problems outlined above'],
    // code and prompts
    ['code_prompt', 'Fill in the blank: >>> x = int(input("_____ enter an integer: "))', 'Please'],
    ['code_prompt', 'Fill in the blank: import { createEmptyCard, fsrs, _____ } from "ts-fsrs"', 'Rating'],
    ['code_prompt', 'What is type?', "'object', required: ['animal']"],
    ['code_prompt', 'What is request_retention?', "0.9, maximum_interval: 36500, learning_steps: ['1m', '10m']"],
    ['code_prompt', 'What is url?', "'mongodb://localhost:27017/test_database'"],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a JavaScript template string is the case under test.
    ['code_prompt', 'Fill in the blank: fastify.log.info(`_____ listening on ${address}`)', 'server'],
    // several facts in one answer
    [
      'several_facts',
      'What is myocardial infarction?',
      'Necrosis of heart muscle caused by prolonged ischemia. Troponin I is the most specific marker of myocardial injury. Aspirin irreversibly inhibits cyclooxygenase-1.',
    ],
    ['several_facts', 'What is vocabulary?', 'el perro - the dog\nel gato - the cat\nla casa - the house'],
  ])('%s: "%s" → "%s"', (rule, question, answer) => {
    expect(junkReasons({ question, answer })).toContain(rule);
  });

  it.each([
    ['What is photosynthesis?', 'The process by which green plants use sunlight to make glucose'],
    ['What is the process by which a cell divides into two identical cells called?', 'Mitosis'],
    ['Fill in the blank: The Battle of Hastings took place in _____.', '1066'],
    ['Fill in the blank: The Roman Empire was divided into eastern and western halves by _____.', 'Theodosius'],
    ['What does list.append(x) do?', 'Add an item to the end of the list.'],
    ['What does -a, --and do?', 'Only entries matching all keywords are shown.'],
    ['What happens if no index is specified?', 'a.pop() removes and returns the last item in the list'],
    ['What are the main points of "Parts of a flower"?', '- Petals attract pollinators\n- Sepals protect the bud'],
    ['¿Qué significa «el perro»?', 'the dog'],
    ['「食べる」の意味は何ですか？', 'to eat'],
    ['Was macht -e, --exact?', 'Jedes Schlüsselwort wird genau mit den Seitennamen verglichen.'],
    ['maximum_intervalとは何ですか？', 'カードをどれだけ先までスケジュールできるかの上限です'],
  ])('keeps the good card "%s" → "%s"', (question, answer) => {
    expect(junkReasons({ question, answer })).toEqual([]);
  });

  it('calls the most frequent words of English generic (SUBTLEX-US), and key terms not', () => {
    for (const word of ['item', 'line', 'later', 'please', 'application', 'the'])
      expect(isGenericWord(word)).toBe(true);
    for (const word of ['mitochondria', 'photosynthesis', 'serialization', 'Theodosius', 'glucose'])
      expect(isGenericWord(word)).toBe(false);
  });
});
