// Child process of extraction.bench.ts: extracts one file with the server's real settings and prints figures.
import { readFileSync } from 'node:fs';
import type { FileKind } from '../../apps/server/src/adapters/extract/extracted';
import { createInProcessExtractor } from '../../apps/server/src/adapters/extract/extractor';
import { defaultFigureLimits, type Figure } from '../../apps/server/src/adapters/extract/figures';
import { createTesseractOcr } from '../../apps/server/src/adapters/extract/image-ocr';
import { loadConfig } from '../../apps/server/src/config';

// A third argument `figures` reads the figures too, with the server's caps.
const [kind, file, mode] = process.argv.slice(2) as [FileKind, string, string | undefined];
const config = loadConfig({});
const extractor = createInProcessExtractor(config.extraction, createTesseractOcr());
const bytes = readFileSync(file);
// Load the parsers first, so the baseline includes them and the peak above it is the extraction's own.
await import('pdfjs-dist/legacy/build/pdf.mjs');
await import('mammoth');
await import('sharp');
const baselineMb = (process.resourceUsage().maxRSS * 1024) / 1e6;
const started = performance.now();
let figures: Figure[] = [];
const passages = await extractor.extract(
  kind,
  bytes,
  mode === 'figures'
    ? {
        figures: defaultFigureLimits,
        onFigures: (found) => {
          figures = found;
        },
      }
    : {},
);
const ms = performance.now() - started;
const chars = passages.reduce((sum, p) => sum + p.text.length, 0);
process.stdout.write(
  JSON.stringify({
    ms,
    baselineMb,
    maxRssMb: (process.resourceUsage().maxRSS * 1024) / 1e6,
    chars,
    passages: passages.length,
    figures: figures.length,
    figureBytes: figures.reduce((sum, figure) => sum + figure.data.byteLength, 0),
  }),
);
