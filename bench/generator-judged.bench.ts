// The offline generator judged independently (issue 36): every card of POST /create (AI_PROVIDER=offline) is judged
// by bench/generator-quality/judge.ts, rules written from the learner's side apart from the generator's own filters,
// on two halves reported separately: the tuning documents of generator-quality/documents.ts (the ones the
// generator's rules were written against) and the held-out PDFs of generator-quality/held-out.ts (chosen and keyed
// before any tuning, printed by Chromium, LibreOffice and pdfLaTeX). Key facts count as covered only by a card the
// judge keeps. BENCH_ONLY=tuning|held-out runs one half; BENCH_VERBOSE=1 prints every card with its verdicts;
// BENCH_CARDS_OUT=file.json keeps the cards made, and BENCH_CARDS_IN=file.json judges kept cards again instead of
// generating (to compare two generators, or two versions of the judge, on the same cards).
// BENCH_OPENAI_BASE_URL (with BENCH_OPENAI_API_KEY and BENCH_OPENAI_MODEL) runs the same documents through a model
// instead, any OpenAI-compatible endpoint, through the product's own prompts, schema and quote check: the same
// figures, and the share of cards whose quote was found in the material (`verified`).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { junkReasons } from '../apps/server/src/adapters/ai/offline/card-quality';
import { postMultipart } from '../apps/server/test/support/multipart';
import { createTestApp } from '../apps/server/test/support/test-app';
import { documents, vocabularyLists } from './generator-quality/documents';
import { heldOut } from './generator-quality/held-out';
import { type JudgedCard, judgeCards, letters, type Verdict, verdicts } from './generator-quality/judge';
import { inProcess, signUpAndLogIn } from './support/accounts';
import { buildFile, sourceText, vocabularyLines } from './support/generator-corpus';

const here = path.dirname(fileURLToPath(import.meta.url));
const only = process.env.BENCH_ONLY;
const verbose = process.env.BENCH_VERBOSE === '1';

interface Case {
  id: string;
  kind: string;
  file: () => Promise<{ bytes: Buffer; filename: string }>;
  sourceText: string;
  facts: { fact: string; all: string[] }[];
}

const tuning: Case[] = [...documents, ...vocabularyLists].map((spec) => ({
  id: spec.id,
  kind: spec.fileType,
  file: () => buildFile(spec),
  sourceText: sourceText(spec),
  facts:
    spec.source.from === 'icu-vocabulary'
      ? vocabularyLines(spec.source.locale).map(([word, english]) => ({
          fact: `${word} = ${english}`,
          all: [word, english],
        }))
      : spec.facts,
}));

const held: Case[] = heldOut.map((spec) => ({
  id: spec.id,
  kind: `pdf (${spec.printer})`,
  file: async () => ({
    bytes: readFileSync(path.join(here, 'generator-quality/held-out', `${spec.id}.pdf`)),
    filename: `${spec.id}.pdf`,
  }),
  sourceText: readFileSync(path.join(here, 'generator-quality/held-out', `${spec.id}.txt`), 'utf8'),
  facts: spec.facts,
}));

const modelUrl = process.env.BENCH_OPENAI_BASE_URL;
const provider: Record<string, string> = modelUrl
  ? {
      AI_PROVIDER: 'openai',
      OPENAI_BASE_URL: modelUrl,
      OPENAI_API_KEY: process.env.BENCH_OPENAI_API_KEY ?? 'none',
      AI_MODEL: process.env.BENCH_OPENAI_MODEL ?? 'gpt-4o-mini',
    }
  : { AI_PROVIDER: 'offline' };
console.log(modelUrl ? `model: ${provider.AI_MODEL} at ${modelUrl}` : 'the built-in offline generator');

// Generous time limits: on a busy machine a parse timing out would read as a document without cards.
const ctx = await createTestApp({
  env: {
    ...provider,
    FREE_GENERATIONS_PER_MONTH: '10000',
    EXTRACT_TIMEOUT: '600s',
    AI_TIMEOUT: '900s',
    REQUEST_TIMEOUT: '900s',
  },
});
const token = await signUpAndLogIn(inProcess(ctx.app), 'judged@example.com', 'bench password 123');

interface Row {
  id: string;
  kind: string;
  facts: number;
  covered: number;
  cards: number;
  junk: number;
  ownJunk: number;
  verified: number;
  status: number;
}

const byVerdict = new Map<Verdict, number>(verdicts.map((v) => [v, 0]));
const examples = new Map<Verdict, string>();

const cardsIn = process.env.BENCH_CARDS_IN
  ? (JSON.parse(readFileSync(process.env.BENCH_CARDS_IN, 'utf8')) as Record<
      string,
      { status: number; cards: JudgedCard[] }
    >)
  : null;
const cardsOut: Record<string, { status: number; cards: JudgedCard[] }> = {};

async function generate(c: Case): Promise<{ status: number; cards: JudgedCard[] }> {
  if (cardsIn) return cardsIn[c.id] ?? { status: 0, cards: [] };
  const file = await c.file();
  const response = await postMultipart(ctx.app, '/create', { authorization: `Bearer ${token}` }, [
    { name: 'file', value: file.bytes, filename: file.filename },
  ]);
  const cards = response.statusCode === 200 ? response.json<{ cards: JudgedCard[] }>().cards : [];
  return { status: response.statusCode, cards };
}

async function run(cases: Case[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const c of cases) {
    const response = await generate(c);
    cardsOut[c.id] = response;
    const cards = response.cards;
    const judged = judgeCards(cards, { sourceText: c.sourceText });
    const kept = cards.filter((_, i) => (judged[i] ?? []).length === 0);
    const covered = c.facts.filter((fact) =>
      kept.some((card) => {
        const text = letters(`${card.question} ${card.answer}`);
        return fact.all.every((key) => text.includes(letters(key)));
      }),
    );
    cards.forEach((card, i) => {
      const reasons = judged[i] ?? [];
      for (const r of reasons) {
        byVerdict.set(r, (byVerdict.get(r) ?? 0) + 1);
        if (!examples.has(r)) examples.set(r, `[${c.id}] ${card.question.slice(0, 100)} → ${card.answer.slice(0, 60)}`);
      }
      if (verbose)
        console.log(
          `  [${c.id}] ${reasons.join(',') || 'ok'} | ${card.question} → ${card.answer.replace(/\n/g, ' / ')}`,
        );
    });
    if (verbose)
      for (const fact of c.facts) if (!covered.includes(fact)) console.log(`  [${c.id}] missed: ${fact.fact}`);
    rows.push({
      id: c.id,
      kind: c.kind,
      facts: c.facts.length,
      covered: covered.length,
      cards: cards.length,
      junk: judged.filter((r) => r.length).length,
      ownJunk: cards.filter((card) => junkReasons(card).length).length,
      verified: cards.filter((card) => card.verified !== false).length,
      status: response.status,
    });
  }
  return rows;
}

const pct = (part: number, whole: number) => (whole ? `${((100 * part) / whole).toFixed(0)} %` : '-');
function print(title: string, rows: Row[]) {
  console.log(`\n### ${title}\n`);
  console.log('| document | file | key facts | cards | junk (independent judge) | junk (own filters) | verified |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.id} | ${r.kind} | ${r.covered}/${r.facts} (${pct(r.covered, r.facts)}) | ${r.cards}${r.status === 200 ? '' : ` (HTTP ${r.status})`} | ${r.junk} (${pct(r.junk, r.cards)}) | ${r.ownJunk} (${pct(r.ownJunk, r.cards)}) | ${pct(r.verified, r.cards)} |`,
    );
  const sum = (pick: (r: Row) => number) => rows.reduce((t, r) => t + pick(r), 0);
  console.log(
    `| **all** | | ${sum((r) => r.covered)}/${sum((r) => r.facts)} (${pct(
      sum((r) => r.covered),
      sum((r) => r.facts),
    )}) | ${sum((r) => r.cards)} | ${sum((r) => r.junk)} (${pct(
      sum((r) => r.junk),
      sum((r) => r.cards),
    )}) | ${sum((r) => r.ownJunk)} (${pct(
      sum((r) => r.ownJunk),
      sum((r) => r.cards),
    )}) | ${pct(
      sum((r) => r.verified),
      sum((r) => r.cards),
    )} |`,
  );
}

if (only !== 'held-out') print('Tuning documents (generator-quality/documents.ts)', await run(tuning));
if (only !== 'tuning') print('Held-out documents (generator-quality/held-out.ts)', await run(held));
await ctx.close();
console.log(
  `\njunk by verdict: ${[...byVerdict]
    .filter(([, n]) => n)
    .map(([v, n]) => `${v} ${n}`)
    .join(', ')}`,
);
for (const [v, example] of examples) console.log(`  ${v}: ${example}`);
