import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AlignmentType, Document, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import PptxGenJS from 'pptxgenjs';
import { describe, expect, it } from 'vitest';
import { testParserLimits } from '../../../test/support/parser-limits';
import { docxZipBomb } from '../../../test/support/zip-bomb';
import { sourceOfCard } from '../../modules/generation/source-attribution';
import { createOfflineProvider } from '../ai/offline/offline-provider';
import { zipFiles } from '../anki/zip-files';
import { detectFileKind } from './detect-file-type';
import { UnreadableFileError } from './extracted';
import { createInProcessExtractor, type ParserLimits } from './extractor';
import { createTesseractOcr, localEnglishDataPath } from './image-ocr';
import { readZipEntries } from './safe-zip';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures');
const fixture = (name: string) => readFileSync(path.join(fixtures, name));

/** The parsers in this process (the server runs the same code in its isolated workers). */
function testExtractor(limits: Partial<ParserLimits> & { timeoutMs: number }) {
  return createInProcessExtractor({ ...testParserLimits, ...limits }, createTesseractOcr());
}

const extractor = testExtractor({
  timeoutMs: 60_000,
  maxPdfPages: 50,
  maxOcrPages: 2,
  maxUnzippedBytes: 50 * 1024 * 1024,
});

async function textPdf(pages: string[][]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage([595, 842]);
    lines.forEach((line, i) => {
      page.drawText(line, { x: 50, y: 780 - i * 20, size: 12, font });
    });
  }
  return Buffer.from(await pdf.save());
}

async function docxWithTableAndList(): Promise<Buffer> {
  const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });
  const doc = new Document({
    numbering: {
      config: [
        {
          reference: 'bullets',
          levels: [{ level: 0, format: 'bullet', text: '•', alignment: AlignmentType.LEFT }],
        },
      ],
    },
    sections: [
      {
        children: [
          new Paragraph({ children: [new TextRun('Cell biology')], heading: 'Heading1' }),
          new Paragraph('The nucleus is the organelle that holds the genetic material.'),
          new Paragraph({ text: 'Ribosomes make proteins', numbering: { reference: 'bullets', level: 0 } }),
          new Paragraph({ text: 'Lysosomes digest waste', numbering: { reference: 'bullets', level: 0 } }),
          new Table({
            rows: [
              new TableRow({ children: [cell('Term'), cell('Meaning')] }),
              new TableRow({ children: [cell('Cytoplasm'), cell('The jelly-like fluid inside the cell')] }),
            ],
          }),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

async function pptxWithNotes(): Promise<Buffer> {
  const pptx = new PptxGenJS();
  pptx.defineSlideMaster({
    title: 'TITLED',
    objects: [{ placeholder: { options: { name: 'title', type: 'title', x: 0.5, y: 0.3, w: 9, h: 1 }, text: '' } }],
  });
  const first = pptx.addSlide({ masterName: 'TITLED' });
  first.addText('The water cycle', { placeholder: 'title', x: 0.5, y: 0.3, w: 9, h: 1 });
  first.addText('Evaporation turns water into vapour', { x: 0.5, y: 1.5, w: 9, h: 1 });
  first.addNotes('Mention that the sun drives evaporation.');
  const second = pptx.addSlide();
  second.addText('Condensation forms clouds', { x: 0.5, y: 1.5, w: 9, h: 1 });
  second.addNotes('Clouds are tiny droplets.');
  return Buffer.from((await pptx.write({ outputType: 'nodebuffer' })) as ArrayBuffer);
}

describe('detectFileKind', () => {
  it('decides by content, whatever a name would say', async () => {
    expect(await detectFileKind(await textPdf([['Hello']]))).toBe('pdf');
    expect(await detectFileKind(await docxWithTableAndList())).toBe('docx');
    expect(await detectFileKind(await pptxWithNotes())).toBe('pptx');
    expect(await detectFileKind(fixture('sample.doc'))).toBe('doc');
    expect(await detectFileKind(fixture('ocr-sample.png'))).toBe('png');
    expect(await detectFileKind(fixture('ocr-sample.jpg'))).toBe('jpg');
    expect(await detectFileKind(Buffer.from('plain words\n'))).toBe('txt');
  });

  it('decides the same for a file on disk, also a DOCX whose content list comes after its first 64 KiB', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'detect-'));
    const onDisk = (name: string, bytes: Buffer) => {
      writeFileSync(path.join(dir, name), bytes);
      return { path: path.join(dir, name) };
    };
    try {
      const docx = await docxWithTableAndList();
      expect(await detectFileKind(onDisk('a.docx', docx))).toBe('docx');
      expect(await detectFileKind(onDisk('a.pdf', await textPdf([['Hello']])))).toBe('pdf');
      expect(await detectFileKind(onDisk('a.txt', Buffer.from('plain words\n'.repeat(20_000))))).toBe('txt');
      expect(await detectFileKind(onDisk('a.bin', Buffer.alloc(100_000, 1)))).toBeNull();
      // The same DOCX's entries behind 200 KB of incompressible media: only a longer look finds what it is.
      const entries = [...(await readZipEntries(docx, 10_000_000)).entries()];
      const late = await zipFiles([['media/noise.bin', randomBytes(200_000), { compress: false }], ...entries]);
      expect(await detectFileKind(onDisk('late.docx', late))).toBe('docx');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses other formats and binary noise', async () => {
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
    expect(await detectFileKind(gif)).toBeNull();
    expect(await detectFileKind(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00]))).toBeNull();
    expect(await detectFileKind(Buffer.from([0x00, 0x01, 0x02, 0x03]))).toBeNull();
    expect(await detectFileKind(Buffer.alloc(0))).toBeNull();
  });
});

describe('text files', () => {
  it('returns no more than maxChars characters of text: the leading ones, in order', async () => {
    const text = Buffer.from(`${'a'.repeat(70)}\n\n${'b'.repeat(70)}`);
    expect(await extractor.extract('txt', text, { maxChars: 100 })).toEqual([
      { text: `${'a'.repeat(70)}\n\n${'b'.repeat(28)}` },
    ]);
  });

  it('reads UTF-8, UTF-16 with a BOM, and falls back to Latin-1', async () => {
    expect(await extractor.extract('txt', Buffer.from('Café au lait\r\n\r\n\r\nis coffee.', 'utf8'))).toEqual([
      { text: 'Café au lait\n\nis coffee.' },
    ]);
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Ångström is a unit.', 'utf16le')]);
    expect(await extractor.extract('txt', le)).toEqual([{ text: 'Ångström is a unit.' }]);
    const be = Buffer.from(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('Ohm', 'utf16le').swap16()]));
    expect(await extractor.extract('txt', be)).toEqual([{ text: 'Ohm' }]);
    expect(await extractor.extract('txt', Buffer.from('Cr\xe8me br\xfbl\xe9e', 'latin1'))).toEqual([
      { text: 'Crème brûlée' },
    ]);
  });
});

describe('PDF', () => {
  it('keeps the text layer of each page, in order, with page numbers', async () => {
    const pdf = await textPdf([['Page one: the heart pumps blood.'], ['Page two: the lungs exchange gases.']]);
    expect(await extractor.extract('pdf', pdf)).toEqual([
      { text: 'Page one: the heart pumps blood.', page: 1 },
      { text: 'Page two: the lungs exchange gases.', page: 2 },
    ]);
  });

  it('OCRs a scanned page that has no text layer', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    pdf.addPage([595, 842]).drawText('A typed first page about membranes.', { x: 50, y: 780, size: 12, font });
    const image = await pdf.embedPng(fixture('scanned-page.png'));
    pdf.addPage([image.width / 2, image.height / 2]).drawImage(image, {
      x: 0,
      y: 0,
      width: image.width / 2,
      height: image.height / 2,
    });
    const passages = await extractor.extract('pdf', Buffer.from(await pdf.save()));
    expect(passages[0]).toEqual({ text: 'A typed first page about membranes.', page: 1 });
    expect(passages[1]?.page).toBe(2);
    expect(passages[1]?.text.replace(/\s+/g, ' ')).toContain('Osmosis is the movement of water across a membrane');
  }, 60_000);

  it('stops at the page cap', async () => {
    const capped = testExtractor({
      timeoutMs: 60_000,
      maxPdfPages: 2,
      maxOcrPages: 0,
      maxUnzippedBytes: 1024,
    });
    const pdf = await textPdf([['first page'], ['second page'], ['third page']]);
    expect((await capped.extract('pdf', pdf)).map((p) => p.page)).toEqual([1, 2]);
  });

  it('refuses a damaged PDF as unreadable', async () => {
    await expect(extractor.extract('pdf', Buffer.from('%PDF-1.7\nnot really a pdf'))).rejects.toBeInstanceOf(
      UnreadableFileError,
    );
  });
});

describe('Word', () => {
  it('DOCX keeps headings, list items and table rows', async () => {
    const [passage] = await extractor.extract('docx', await docxWithTableAndList());
    expect(passage?.text.split('\n')).toEqual([
      '# Cell biology',
      'The nucleus is the organelle that holds the genetic material.',
      '- Ribosomes make proteins',
      '- Lysosomes digest waste',
      'Term: Meaning',
      'Cytoplasm: The jelly-like fluid inside the cell',
    ]);
  });

  it('DOC (Word 97-2003) gives its body text', async () => {
    const [passage] = await extractor.extract('doc', fixture('sample.doc'));
    expect(passage?.text).toBe(
      'Photosynthesis is the process by which plants make glucose.\nChlorophyll is the green pigment that absorbs light.',
    );
  });

  it('a damaged DOCX is unreadable', async () => {
    const broken = (await docxWithTableAndList()).subarray(0, 2000);
    await expect(extractor.extract('docx', broken)).rejects.toBeInstanceOf(UnreadableFileError);
  });
});

describe('PPTX', () => {
  it('gives each slide title, body and speaker notes, in slide order, with slide numbers', async () => {
    expect(await extractor.extract('pptx', await pptxWithNotes())).toEqual([
      {
        slide: 1,
        text: '# The water cycle\nEvaporation turns water into vapour\n\nMention that the sun drives evaporation.',
      },
      { slide: 2, text: 'Condensation forms clouds\n\nClouds are tiny droplets.' },
    ]);
  });

  it('never cards a label of its own: slide cards from speaker notes carry no "Notes:" and keep their slide', async () => {
    const passages = await extractor.extract('pptx', await pptxWithNotes());
    const { cards } = await createOfflineProvider().generateCards(
      {
        text: passages.map((passage) => passage.text).join('\n\n'),
        maxCards: 10,
        style: 'basic',
      },
      new AbortController().signal,
    );
    expect(cards.length).toBeGreaterThan(0);
    for (const card of cards) expect(`${card.question} ${card.answer}`).not.toMatch(/\bnotes\s*:|\bslide\s+\d/i);
    const fromNotes = cards.find((card) => card.question.includes('the sun drives'));
    // The card's wording is the generator's affair; that it starts at the note's own first word is this test's.
    expect(fromNotes?.question).toMatch(/(^|: )Mention that the sun drives/);
    expect(fromNotes && sourceOfCard(fromNotes, passages)).toEqual({ slide: 1 });
  });
});

describe('images', () => {
  it('reads the text of a PNG offline', async () => {
    const [passage] = await extractor.extract('png', fixture('ocr-sample.png'));
    expect(passage?.text.replace(/\s+/g, ' ')).toBe('Mitochondria produce energy for the cell.');
  }, 60_000);

  it('reads the text of a JPEG offline', async () => {
    const [passage] = await extractor.extract('jpg', fixture('ocr-sample.jpg'));
    expect(passage?.text.replace(/\s+/g, ' ')).toBe('The Nile is a river in Africa.');
  }, 60_000);
});

describe('guards', () => {
  it('refuses a DOCX whose XML alone unpacks past 32 MiB, even under the total cap', async () => {
    const roomy = testExtractor({
      timeoutMs: 60_000,
      maxPdfPages: 10,
      maxOcrPages: 0,
      maxUnzippedBytes: 500 * 1024 * 1024,
    });
    await expect(roomy.extract('docx', docxZipBomb(40 * 1024 * 1024))).rejects.toBeInstanceOf(UnreadableFileError);
    await expect(roomy.extract('docx', docxZipBomb(40 * 1024 * 1024, 1024))).rejects.toBeInstanceOf(
      UnreadableFileError,
    );
  });

  it('uses the English data shipped in node_modules (nothing downloaded)', () => {
    expect(existsSync(path.join(localEnglishDataPath(), 'eng.traineddata.gz'))).toBe(true);
  });

  it('a parser that runs past the time limit is stopped and the file is unreadable', async () => {
    const hasty = testExtractor({
      timeoutMs: 1,
      maxPdfPages: 10,
      maxOcrPages: 1,
      maxUnzippedBytes: 1024 * 1024,
    });
    await expect(hasty.extract('png', fixture('ocr-sample.png'))).rejects.toBeInstanceOf(UnreadableFileError);
  });
});

describe('OCR', () => {
  it('an aborted recognition does not stop the next one', async () => {
    const ocr = createTesseractOcr();
    const controller = new AbortController();
    const first = ocr.recognize(fixture('ocr-sample.png'), controller.signal).catch((error: unknown) => error);
    controller.abort();
    const text = await ocr.recognize(fixture('ocr-sample.jpg'));
    expect(text.replace(/\s+/g, ' ').trim()).toBe('The Nile is a river in Africa.');
    expect(await first).toBeInstanceOf(Error);
  }, 60_000);
});
