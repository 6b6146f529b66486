import { gradeAnswer } from './packages/shared/src/grader/grade-answer';
import { answerDiff } from './packages/shared/src/grader/answer-diff';
import { tokenize } from './packages/shared/src/grader/answer-tokens';
import { isEnglishWord } from './apps/server/src/adapters/word-list';
const cases = [['the movment of water across a semipermeable membrane', 'The movement of water across a semipermeable membrane'],['Neon, helium, argon, xenon, krypton, radon','helium, neon, argon, krypton, xenon and radon'],['6.022e23 per mole','6.022 × 10^23 per mole']];
for (let r = 0; r < 4; r++) for (const [typed, exp] of cases) {
  let t = performance.now(); for (let i = 0; i < 2000; i++) tokenize(exp); const a = (performance.now() - t)/2;
  t = performance.now(); for (let i = 0; i < 2000; i++) gradeAnswer(typed, exp, { isWord: isEnglishWord }); const b = (performance.now() - t)/2;
  t = performance.now(); for (let i = 0; i < 2000; i++) answerDiff(exp, typed); const c = (performance.now() - t)/2;
  if (r === 3) console.log(`tokenize ${a.toFixed(1)}µs grade ${b.toFixed(1)}µs diff ${c.toFixed(1)}µs`);
}
