// Extraction time and peak RSS for a 300-page text PDF and a 10 MB DOCX; and the cost of figures: a 50-slide PPTX
// with 60 pictures (and a logo on every slide) and a 300-page PDF with a picture on each page, each read with
// figures off and on in the same run, alternating, BENCH_ROUNDS times (default 3); BENCH_ONLY=figures for these alone. Each file is extracted in a fresh
// child process, so that its peak RSS (maxRSS) is the extraction's own, not this script's.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { loadConfig } from '../apps/server/src/config';
import { deck, picture } from '../apps/server/test/fixtures/figures/make-figure-fixtures';
import { docxOf, textPdf } from './support/large-documents';

const here = path.dirname(fileURLToPath(import.meta.url));
const work = mkdtempSync(path.join(tmpdir(), 'bench-extract-'));
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
// BENCH_ONLY=figures runs the figure part alone.
const only = process.env.BENCH_ONLY;

interface Result {
  ms: number;
  baselineMb: number;
  maxRssMb: number;
  chars: number;
  passages: number;
  figures: number;
  figureBytes: number;
}

function extractOne(kind: string, file: string, figures: boolean): Result | null {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(here, 'support', 'extract-one.ts'), kind, file, ...(figures ? ['figures'] : [])],
    { encoding: 'utf8' },
  );
  if (run.status !== 0) {
    console.error(run.stderr);
    process.exitCode = 1;
    return null;
  }
  return JSON.parse(run.stdout) as Result;
}

const files: { label: string; kind: string; file: string }[] = [];
const pdfPath = path.join(work, 'book.pdf');
writeFileSync(pdfPath, await textPdf(300));
files.push({ label: '300-page text PDF', kind: 'pdf', file: pdfPath });
const docxPath = path.join(work, 'big.docx');
writeFileSync(docxPath, await docxOf(10 * 1024 * 1024));
files.push({ label: 'DOCX', kind: 'docx', file: docxPath });

for (const { label, kind, file } of only === 'figures' ? [] : files) {
  const result = extractOne(kind, file, false);
  if (!result) continue;
  const size = statSync(file).size / 1e6;
  console.log(
    `${label} (${size.toFixed(1)} MB): extracted ${result.chars.toLocaleString('en')} characters in ` +
      `${result.passages} passages in ${(result.ms / 1000).toFixed(2)} s; peak RSS ${result.maxRssMb.toFixed(0)} MB ` +
      `(${result.baselineMb.toFixed(0)} MB before extracting, with the parsers loaded)`,
  );
}

// 50 slides, one picture each and a second on the first ten: 60 pictures of 1024 × 768, plus the logo on every slide.
const deckPath = path.join(work, 'pictures.pptx');
writeFileSync(
  deckPath,
  await deck(50, 0, (slide, n) => {
    for (let p = 0; p < (n <= 10 ? 2 : 1); p++) {
      const image = picture(n * 10 + p, 1024, 768, 'jpeg').toString('base64');
      slide.addImage({ data: `image/jpeg;base64,${image}`, x: 0.5 + p * 4.5, y: 2, w: 4, h: 3 });
    }
  }),
);

// 300 pages of text, each with a picture of its own.
const figurePdfPath = path.join(work, 'figures.pdf');
{
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= 300; n++) {
    const page = pdf.addPage([595, 842]);
    page.drawText(`Page ${n}: the figure below shows structure number ${n}.`, { x: 50, y: 780, size: 12, font });
    const image = await pdf.embedJpg(picture(n, 800, 600, 'jpeg'));
    page.drawImage(image, { x: 50, y: 300, width: 400, height: 300 });
  }
  writeFileSync(figurePdfPath, await pdf.save());
}

const capMb = loadConfig({}).extraction.memoryBytes / 1e6;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
for (const { label, kind, file } of [
  { label: '50-slide PPTX with 60 pictures', kind: 'pptx', file: deckPath },
  { label: '300-page PDF with a picture on each page', kind: 'pdf', file: figurePdfPath },
]) {
  const off: Result[] = [];
  const on: Result[] = [];
  for (let round = 0; round < rounds; round++) {
    const a = extractOne(kind, file, false);
    const b = extractOne(kind, file, true);
    if (a) off.push(a);
    if (b) on.push(b);
  }
  const last = on.at(-1);
  if (!last || off.length === 0) continue;
  const offMs = median(off.map((r) => r.ms));
  const onMs = median(on.map((r) => r.ms));
  const size = statSync(file).size / 1e6;
  console.log(
    `${label} (${size.toFixed(1)} MB), median of ${rounds}: figures off ${(offMs / 1000).toFixed(2)} s, ` +
      `on ${(onMs / 1000).toFixed(2)} s (+${(((onMs - offMs) / offMs) * 100).toFixed(0)} %); ` +
      `${last.figures} figures, ${(last.figureBytes / 1e6).toFixed(1)} MB stored; peak RSS off ` +
      `${median(off.map((r) => r.maxRssMb)).toFixed(0)} MB, on ${median(on.map((r) => r.maxRssMb)).toFixed(0)} MB ` +
      `(parser memory cap ${capMb.toFixed(0)} MB)`,
  );
}
rmSync(work, { recursive: true, force: true });
