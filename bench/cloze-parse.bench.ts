// `npm run bench -- cloze`: the cloze parser and renderer (packages/shared/src/notes.ts) on ordinary and hostile
// text at the field limit (20,000 characters) and at half of it: time per note, and the ratio between the two sizes,
// which stays near 2 for a parser linear in the text (a backtracking pattern grows with its square or worse).
import { performance } from 'node:perf_hooks';
import { checkNote, noteLimits } from '../packages/shared/src/notes';

const out = (line: string) => process.stdout.write(`${line}\n`);
const max = noteLimits.maxFieldLength;

const inputs: [string, (length: number) => string][] = [
  [
    'prose with 3 deletions',
    (n) => `{{c1::Mitochondria}} make {{c2::ATP}} by {{c3::oxidation}}. ${'word '.repeat(n / 5 - 12)}`,
  ],
  [
    'one deletion per 20 characters, 40 numbers',
    (n) => Array.from({ length: n / 20 }, (_, i) => `{{c${(i % 40) + 1}::word${i}}} `).join(''),
  ],
  ['openers never closed', (n) => '{{c1::a::{{c1::'.repeat(n / 15)],
  ['braces never closed', (n) => `{{c1::${'{'.repeat(n)}`],
  ['colons', (n) => `{{c1::${':'.repeat(n)}`],
  ['digits after {{c', (n) => `{{c${'9'.repeat(n)}`],
  ['nested math', (n) => `{{c1::$${'\\frac{1}{'.repeat(n / 20)}x${'}'.repeat(n / 20)}$}}`],
];

function timePerNote(text: string): { ms: number; ok: boolean; cards: number } {
  const clipped = text.slice(0, max);
  let result = checkNote('cloze', { text: clipped });
  // Warm up first, so the figures are of optimized code.
  for (let i = 0; i < 20; i++) result = checkNote('cloze', { text: clipped });
  const runs = 50;
  const start = performance.now();
  for (let i = 0; i < runs; i++) result = checkNote('cloze', { text: clipped });
  return { ms: (performance.now() - start) / runs, ok: result.ok, cards: result.ok ? result.cards.length : 0 };
}

out('Measured once on this machine (shared with other work: figures vary from run to run).');
out('| input | accepted | cards | ms per note at 10,000 chars | at 20,000 chars | ratio |');
out('|---|---|---|---|---|---|');
for (const [name, make] of inputs) {
  const half = timePerNote(make(max / 2));
  const full = timePerNote(make(max));
  out(
    `| ${name} | ${full.ok ? 'yes' : 'no'} | ${full.cards} | ${half.ms.toFixed(3)} | ${full.ms.toFixed(3)} | ` +
      `${(full.ms / half.ms).toFixed(1)} |`,
  );
}
