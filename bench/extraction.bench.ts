// Extraction time and peak RSS for a 300-page text PDF and a 10 MB DOCX. Each file is extracted in a fresh child
// process, so that its peak RSS (maxRSS) is the extraction's own, not this script's.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { docxOf, textPdf } from './support/large-documents';

const here = path.dirname(fileURLToPath(import.meta.url));
const work = mkdtempSync(path.join(tmpdir(), 'bench-extract-'));

const files: { label: string; kind: string; file: string }[] = [];
const pdfPath = path.join(work, 'book.pdf');
writeFileSync(pdfPath, await textPdf(300));
files.push({ label: '300-page text PDF', kind: 'pdf', file: pdfPath });
const docxPath = path.join(work, 'big.docx');
writeFileSync(docxPath, await docxOf(10 * 1024 * 1024));
files.push({ label: 'DOCX', kind: 'docx', file: docxPath });

for (const { label, kind, file } of files) {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(here, 'support', 'extract-one.ts'), kind, file],
    {
      encoding: 'utf8',
    },
  );
  if (run.status !== 0) {
    console.error(run.stderr);
    process.exitCode = 1;
    continue;
  }
  const result = JSON.parse(run.stdout) as {
    ms: number;
    baselineMb: number;
    maxRssMb: number;
    chars: number;
    passages: number;
  };
  const size = statSync(file).size / 1e6;
  console.log(
    `${label} (${size.toFixed(1)} MB): extracted ${result.chars.toLocaleString('en')} characters in ` +
      `${result.passages} passages in ${(result.ms / 1000).toFixed(2)} s; peak RSS ${result.maxRssMb.toFixed(0)} MB ` +
      `(${result.baselineMb.toFixed(0)} MB before extracting, with the parsers loaded)`,
  );
}
rmSync(work, { recursive: true, force: true });
