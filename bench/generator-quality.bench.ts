// Quality of the built-in offline generator on real documents (bench/generator-quality/documents.ts): each file goes
// through POST /create with AI_PROVIDER=offline (extraction, text cleanup, chunking, generation, as a user meets
// them) and the cards are scored: key facts covered by a card that is not junk (noted by hand per document; for a
// vocabulary list, every line), cards made, and the share of junk
// cards by the rules of apps/server/src/adapters/ai/offline/card-quality.ts. Prints one table from one run.
import { type JunkRule, junkReasons, junkRules } from '../apps/server/src/adapters/ai/offline/card-quality';
import { postMultipart } from '../apps/server/test/support/multipart';
import { createTestApp } from '../apps/server/test/support/test-app';
import { type DocumentSpec, documents, vocabularyLists } from './generator-quality/documents';
import { inProcess, signUpAndLogIn } from './support/accounts';
import { buildFile, vocabularyLines } from './support/generator-corpus';

interface Card {
  question: string;
  answer: string;
}

const normalize = (text: string) => text.toLowerCase().normalize('NFC').replace(/\s+/g, ' ');

function factsOf(spec: DocumentSpec): { fact: string; all: string[] }[] {
  if (spec.source.from !== 'icu-vocabulary') return spec.facts;
  return vocabularyLines(spec.source.locale).map(([word, english]) => ({
    fact: `${word} = ${english}`,
    all: [word, english],
  }));
}

/** Covered by a card worth keeping: a junk card (an answer swallowing a whole list, say) covers nothing. */
function covered(fact: { all: string[] }, cards: Card[]): boolean {
  return cards.some((card) => {
    if (junkReasons(card).length) return false;
    const text = normalize(`${card.question} ${card.answer}`);
    return fact.all.every((key) => text.includes(normalize(key)));
  });
}

const ctx = await createTestApp({
  env: { AI_PROVIDER: 'offline', FREE_GENERATIONS_PER_MONTH: '10000' },
});
const token = await signUpAndLogIn(inProcess(ctx.app), 'bench@example.com', 'bench password 123');

interface Row {
  spec: DocumentSpec;
  facts: number;
  covered: number;
  cards: number;
  junk: number;
  status: number;
}

const rows: Row[] = [];
const byRule = new Map<JunkRule, number>(junkRules.map((rule) => [rule, 0]));
const examples: string[] = [];
const verbose = process.env.BENCH_VERBOSE === '1';

for (const spec of [...documents, ...vocabularyLists]) {
  const file = await buildFile(spec);
  const response = await postMultipart(ctx.app, '/create', { authorization: `Bearer ${token}` }, [
    { name: 'file', value: file.bytes, filename: file.filename },
  ]);
  const cards: Card[] = response.statusCode === 200 ? response.json<{ cards: Card[] }>().cards : [];
  const facts = factsOf(spec);
  let junk = 0;
  for (const card of cards) {
    const reasons = junkReasons(card);
    if (reasons.length) junk++;
    for (const reason of reasons) byRule.set(reason, (byRule.get(reason) ?? 0) + 1);
    if (verbose) console.log(`  [${spec.id}] ${reasons.join(',') || 'ok'} | ${card.question} → ${card.answer}`);
    else if (reasons.length && examples.filter((e) => e.startsWith(`[${spec.id}]`)).length < 1 && examples.length < 10)
      examples.push(`[${spec.id}] ${reasons.join(',')}: ${card.question.slice(0, 90)} → ${card.answer.slice(0, 60)}`);
  }
  if (verbose) for (const fact of facts) if (!covered(fact, cards)) console.log(`  [${spec.id}] missed: ${fact.fact}`);
  rows.push({
    spec,
    facts: facts.length,
    covered: facts.filter((fact) => covered(fact, cards)).length,
    cards: cards.length,
    junk,
    status: response.statusCode,
  });
}
await ctx.close();

const pct = (part: number, whole: number) => (whole ? `${((100 * part) / whole).toFixed(0)} %` : '-');
const line = (cells: (string | number)[]) =>
  `| ${cells.map((cell, i) => String(cell).padEnd([26, 5, 4, 16, 6, 12][i] ?? 8)).join(' | ')} |`;
console.log(line(['document', 'type', 'lang', 'key facts', 'cards', 'junk']));
console.log(line(['---', '---', '---', '---', '---', '---']));
for (const row of rows) {
  const status = row.status === 200 ? '' : ` (HTTP ${row.status})`;
  console.log(
    line([
      row.spec.id,
      row.spec.fileType,
      row.spec.language,
      `${row.covered}/${row.facts} (${pct(row.covered, row.facts)})`,
      `${row.cards}${status}`,
      `${row.junk} (${pct(row.junk, row.cards)})`,
    ]),
  );
}
const sum = (pick: (row: Row) => number, which: Row[] = rows) => which.reduce((total, row) => total + pick(row), 0);
const documentsRows = rows.filter((row) => row.spec.source.from !== 'icu-vocabulary');
const vocabularyRows = rows.filter((row) => row.spec.source.from === 'icu-vocabulary');
for (const [label, which] of [
  ['documents', documentsRows],
  ['vocabulary lists', vocabularyRows],
  ['overall', rows],
] as const) {
  console.log(
    line([
      `**${label}**`,
      '',
      '',
      `${sum((r) => r.covered, which)}/${sum((r) => r.facts, which)} (${pct(
        sum((r) => r.covered, which),
        sum((r) => r.facts, which),
      )})`,
      sum((r) => r.cards, which),
      `${sum((r) => r.junk, which)} (${pct(
        sum((r) => r.junk, which),
        sum((r) => r.cards, which),
      )})`,
    ]),
  );
}
console.log(
  `\nvocabulary lists fully carded (every line): ${vocabularyRows.filter((r) => r.covered === r.facts).length}/${vocabularyRows.length} (${vocabularyRows
    .filter((r) => r.covered !== r.facts)
    .map((r) => r.spec.language)
    .join(', ')}${vocabularyRows.some((r) => r.covered !== r.facts) ? ' not' : 'all'})`,
);
console.log(`junk cards by rule: ${[...byRule].map(([rule, n]) => `${rule} ${n}`).join(', ')}`);
if (examples.length) console.log(`examples of junk:\n  ${examples.join('\n  ')}`);
