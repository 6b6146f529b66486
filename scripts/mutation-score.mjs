// Prints the mutation score per file from a Stryker JSON report (reports/mutation/mutation.json by default), and,
// for a run made with --disableBail (every covering test runs, so `killedBy` lists every test that kills a mutant),
// the score the suite would have without the test files given in --without (comma-separated path fragments).
//
// Usage: node scripts/mutation-score.mjs [report.json] [--without a.test.ts,b.test.ts]
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const withoutAt = args.indexOf('--without');
const without = withoutAt >= 0 ? (args[withoutAt + 1] ?? '').split(',').filter(Boolean) : [];
const file =
  args.find((arg, index) => !arg.startsWith('--') && (withoutAt < 0 || index !== withoutAt + 1)) ??
  'reports/mutation/mutation.json';
const report = JSON.parse(readFileSync(file, 'utf8'));

const leftOut = new Set();
for (const [testFile, { tests }] of Object.entries(report.testFiles ?? {})) {
  if (without.some((fragment) => testFile.includes(fragment))) for (const test of tests) leftOut.add(test.id);
}

const rows = [];
const totals = { all: [0, 0], kept: [0, 0] };
for (const [name, { mutants }] of Object.entries(report.files)) {
  let detected = 0;
  let counted = 0;
  let detectedKept = 0;
  for (const mutant of mutants) {
    if (['Ignored', 'CompileError', 'RuntimeError', 'Pending'].includes(mutant.status)) continue;
    counted += 1;
    if (mutant.status === 'Killed' || mutant.status === 'Timeout') {
      detected += 1;
      const killers = (mutant.killedBy ?? []).filter((id) => !leftOut.has(id));
      if (mutant.status === 'Timeout' || killers.length > 0) detectedKept += 1;
    }
  }
  totals.all[0] += detected;
  totals.all[1] += counted;
  totals.kept[0] += detectedKept;
  totals.kept[1] += counted;
  rows.push([name, detected, detectedKept, counted]);
}
const pct = (a, b) => (b ? ((100 * a) / b).toFixed(2) : '-').padStart(7);
console.log(`${'file'.padEnd(60)} ${'score'.padStart(7)} ${without.length ? 'without'.padStart(7) : ''} mutants`);
for (const [name, detected, kept, counted] of rows) {
  console.log(`${name.padEnd(60)} ${pct(detected, counted)} ${without.length ? pct(kept, counted) : ''} ${counted}`);
}
console.log(`${'all'.padEnd(60)} ${pct(...totals.all)} ${without.length ? pct(...totals.kept) : ''} ${totals.all[1]}`);
