// Builds the files of bench/generator-quality from their real sources (see bench/generator-quality/documents.ts):
// markdown from npm packages, man pages rendered by man(1), vocabulary from ICU; printed to PDF by Chromium (with the
// browser's running header and footer, as a learner's "Save as PDF" makes them), or laid out as DOCX / PPTX.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import { micromark } from 'micromark';
import { chromium } from 'playwright-core';
import PptxGenJS from 'pptxgenjs';
import type { DocumentSpec } from '../generator-quality/documents';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The document's text as its source gives it (markdown, a rendered man page, or a vocabulary list). */
export function sourceText(spec: DocumentSpec): string {
  const source = spec.source;
  switch (source.from) {
    case 'npm': {
      return readFileSync(path.join(repoRoot, 'node_modules', source.path), 'utf8');
    }
    case 'man':
      return execFileSync('sh', ['-c', `man -l "$0" | col -b`, source.path], {
        encoding: 'utf8',
        env: { ...process.env, MANWIDTH: '80', LANG: 'C.UTF-8' },
        stdio: ['ignore', 'pipe', 'ignore'],
      });
    case 'icu-vocabulary':
      return vocabularyLines(source.locale)
        .map(([word, english]) => `${word}${source.separator}${english}`)
        .join('\n');
  }
}

/** Weekday and month names in `locale` with their English names (for English: with their Spanish names). */
export function vocabularyLines(locale: string): [string, string][] {
  const other = locale === 'en' ? 'es' : 'en';
  const days = Array.from({ length: 7 }, (_, i) => new Date(Date.UTC(2024, 0, 1 + i, 12)));
  const months = Array.from({ length: 12 }, (_, i) => new Date(Date.UTC(2024, i, 15, 12)));
  const name = (lang: string, date: Date, option: 'weekday' | 'month') =>
    new Intl.DateTimeFormat(lang, { [option]: 'long', timeZone: 'UTC' }).format(date);
  return [
    ...days.map((d): [string, string] => [name(locale, d, 'weekday'), name(other, d, 'weekday')]),
    ...months.map((d): [string, string] => [name(locale, d, 'month'), name(other, d, 'month')]),
  ];
}

export const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Chromium's "Save as PDF" of `html` titled `title`, written first to `file` (whose name the footer shows). */
export async function chromiumPdf(html: string, title: string, file: string): Promise<Buffer> {
  writeFileSync(
    file,
    `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${html}</body></html>`,
  );
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(pathToFileURL(file).href);
    const small = 'style="font-size:8px; width:100%; padding:0 1cm; display:flex; justify-content:space-between"';
    return await page.pdf({
      format: 'A4',
      displayHeaderFooter: true,
      headerTemplate: `<div ${small}><span class="date"></span><span class="title"></span></div>`,
      footerTemplate: `<div ${small}><span class="url"></span><span><span class="pageNumber"></span>/<span class="totalPages"></span></span></div>`,
      margin: { top: '1.5cm', bottom: '1.5cm', left: '1.5cm', right: '1.5cm' },
    });
  } finally {
    await browser.close();
  }
}

interface Block {
  type: 'heading' | 'paragraph' | 'bullet' | 'code';
  text: string;
  level?: number;
}

/** Markdown as a word processor or slide author would lay it out: headings, paragraphs, bullets, code. */
function markdownBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let code: string[] | null = null;
  const flush = () => {
    if (paragraph.length) blocks.push({ type: 'paragraph', text: paragraph.join(' ') });
    paragraph = [];
  };
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) {
      if (code) {
        blocks.push({ type: 'code', text: code.join('\n') });
        code = null;
      } else {
        flush();
        code = [];
      }
      continue;
    }
    if (code) {
      code.push(line);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const bullet = /^\s*[-*]\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      blocks.push({ type: 'heading', text: stripInline(heading[2] ?? ''), level: heading[1]?.length ?? 1 });
    } else if (bullet) {
      flush();
      blocks.push({ type: 'bullet', text: stripInline(bullet[1] ?? '') });
    } else if (!line.trim() || /^\s*<[^>]+>\s*$/.test(line)) flush();
    else paragraph.push(stripInline(line.trim()));
  }
  flush();
  return blocks;
}

/** What a reader sees of inline markdown: link text, no backticks or emphasis marks. */
function stripInline(text: string): string {
  return text
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/(^|\W)[*_]([^*_]+)[*_](?=\W|$)/g, '$1$2');
}

async function toDocx(blocks: Block[]): Promise<Buffer> {
  const headingLevels = [HeadingLevel.HEADING_1, HeadingLevel.HEADING_2, HeadingLevel.HEADING_3];
  const children = blocks.flatMap((block) => {
    if (block.type === 'heading')
      return [new Paragraph({ text: block.text, heading: headingLevels[Math.min(2, (block.level ?? 1) - 1)] })];
    if (block.type === 'bullet') return [new Paragraph({ text: block.text, bullet: { level: 0 } })];
    if (block.type === 'code')
      return block.text
        .split('\n')
        .map((line) => new Paragraph({ children: [new TextRun({ text: line, font: 'Courier New' })] }));
    return [new Paragraph({ text: block.text })];
  });
  return await Packer.toBuffer(new Document({ sections: [{ children }] }));
}

async function toPptx(blocks: Block[]): Promise<Buffer> {
  const pptx = new PptxGenJS();
  let slide: ReturnType<PptxGenJS['addSlide']> | null = null;
  let body: { text: string; options: Record<string, unknown> }[] = [];
  const flush = () => {
    if (slide && body.length) slide.addText(body, { x: 0.5, y: 1.2, w: 9, h: 4, fontSize: 12, valign: 'top' });
    body = [];
  };
  for (const block of blocks) {
    if (block.type === 'heading' || !slide) {
      flush();
      slide = pptx.addSlide();
      if (block.type === 'heading') {
        slide.addText(block.text, { x: 0.5, y: 0.3, w: 9, h: 0.8, fontSize: 24, bold: true });
        continue;
      }
    }
    for (const line of block.text.split('\n')) {
      body.push({
        text: line,
        options: {
          breakLine: true,
          ...(block.type === 'bullet' ? { bullet: true } : {}),
          ...(block.type === 'code' ? { fontFace: 'Courier New' } : {}),
        },
      });
    }
  }
  flush();
  return (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
}

const workDir = mkdtempSync(path.join(tmpdir(), 'generator-quality-'));

/** The file a learner would upload for this document, built from its real source. */
export async function buildFile(spec: DocumentSpec): Promise<{ bytes: Buffer; filename: string }> {
  const text = sourceText(spec);
  const isMarkdown = spec.source.from === 'npm';
  const blocks: Block[] = isMarkdown
    ? markdownBlocks(text)
    : text.split('\n').map((line) => ({ type: 'paragraph', text: line }));
  const name = spec.id;
  switch (spec.fileType) {
    case 'txt':
      return { bytes: Buffer.from(text, 'utf8'), filename: `${name}.txt` };
    case 'pdf': {
      const html = isMarkdown
        ? micromark(text, { allowDangerousHtml: true })
        : `<pre style="font-size:11px">${escapeHtml(text)}</pre>`;
      const file = path.join(workDir, `${name.replace(/\W+/g, '-')}.html`);
      return { bytes: await chromiumPdf(html, name, file), filename: `${name}.pdf` };
    }
    case 'docx':
      return { bytes: await toDocx(blocks), filename: `${name}.docx` };
    case 'pptx':
      return { bytes: await toPptx(blocks), filename: `${name}.pptx` };
  }
}
