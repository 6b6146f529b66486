// Extraction time and peak RSS for a 300-page text PDF and a 10 MB DOCX. Each file is extracted in a fresh child
// process, so that its peak RSS (maxRSS) is the extraction's own, not this script's.
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Document, Packer, Paragraph } from 'docx';
import { PDFDocument, StandardFonts } from 'pdf-lib';

const here = path.dirname(fileURLToPath(import.meta.url));
const work = mkdtempSync(path.join(tmpdir(), 'bench-extract-'));

const vocabulary = Array.from({ length: 5000 }, () =>
  Array.from({ length: randomInt(3, 11) }, () => String.fromCharCode(97 + randomInt(26))).join(''),
);
const sentence = (words: number) =>
  `${Array.from({ length: words }, () => vocabulary[randomInt(vocabulary.length)]).join(' ')}.`;

async function textPdf(pages: number): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = pdf.addPage([595, 842]);
    for (let line = 0; line < 45; line++) page.drawText(sentence(12), { x: 40, y: 800 - line * 17, size: 10, font });
  }
  return Buffer.from(await pdf.save());
}

async function docxOf(targetBytes: number): Promise<Buffer> {
  // Random words compress about 2:1, so the XML inside is about twice the file.
  const paragraphs: Paragraph[] = [];
  let bytes = 0;
  while (bytes < targetBytes * 2.08) {
    const text = Array.from({ length: 8 }, () => sentence(14)).join(' ');
    bytes += text.length + 60;
    paragraphs.push(new Paragraph(text));
  }
  return Packer.toBuffer(new Document({ sections: [{ children: paragraphs }] }));
}

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
