// Child process of extraction.bench.ts: extracts one file with the server's real settings and prints figures.
import { readFileSync } from 'node:fs';
import type { FileKind } from '../../apps/server/src/adapters/extract/extracted';
import { createInProcessExtractor } from '../../apps/server/src/adapters/extract/extractor';
import { createTesseractOcr } from '../../apps/server/src/adapters/extract/image-ocr';
import { loadConfig } from '../../apps/server/src/config';

const [kind, file] = process.argv.slice(2) as [FileKind, string];
const config = loadConfig({});
const extractor = createInProcessExtractor(config.extraction, createTesseractOcr());
const bytes = readFileSync(file);
// Load the parsers first, so the baseline includes them and the peak above it is the extraction's own.
await import('pdfjs-dist/legacy/build/pdf.mjs');
await import('mammoth');
const baselineMb = (process.resourceUsage().maxRSS * 1024) / 1e6;
const started = performance.now();
const passages = await extractor.extract(kind, bytes);
const ms = performance.now() - started;
const chars = passages.reduce((sum, p) => sum + p.text.length, 0);
process.stdout.write(
  JSON.stringify({
    ms,
    baselineMb,
    maxRssMb: (process.resourceUsage().maxRSS * 1024) / 1e6,
    chars,
    passages: passages.length,
  }),
);
