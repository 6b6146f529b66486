import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { cleanPassages } from './clean-text';
import type { Passage } from './extracted';
import { extractPdf } from './pdf';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/pdf-layout');

const noOcr = { recognize: async () => '' };
/** What the parser process hands on: the PDF's passages, cleaned (parse-worker.ts). */
async function read(bytes: Uint8Array): Promise<Passage[]> {
  const passages = await extractPdf(bytes, {
    maxPages: 20,
    maxOcrPages: 0,
    maxStreamBytes: 50_000_000,
    maxImagePixels: 10_000_000,
    ocr: noOcr,
  });
  return cleanPassages(passages);
}

describe('PDF text joined by layout', () => {
  it('a chapter printed by Chromium: wrapped lines are sentences, paragraphs and headings apart, no print header or footer', async () => {
    // chapter.pdf: chapter.html printed by `chromium --headless --print-to-pdf` with its date/title header and file/page footer.
    const passages = await read(readFileSync(path.join(fixtures, 'chapter.pdf')));
    expect(passages).toEqual([
      {
        page: 1,
        text: [
          'The Causes of the First World War',
          'In 1908 Austria-Hungary annexed Bosnia and Herzegovina, a move that angered Serbia and its ally Russia because many Serbs lived in the annexed provinces and hoped to join a greater Serbian state in the future.',
          'The Triple Alliance of 1882 bound Germany, Austria-Hungary and Italy to support one another if attacked by France or Russia, and it divided the great powers of Europe into two armed camps that feared each other.',
          'The assassination at Sarajevo',
          'On 28 June 1914 Gavrilo Princip, a Bosnian Serb student, shot Archduke Franz Ferdinand, the heir to the Austro-Hungarian throne, during an official visit to Sarajevo, the capital of Bosnia.',
          'Austria-Hungary blamed Serbia for the murder and sent an ultimatum with demands so harsh that no independent state could accept all of them, which the government in Vienna knew very well.',
          'Key terms',
          'Annexation\nSerbia',
        ].join('\n\n'),
      },
      {
        page: 2,
        text: [
          'Mobilisation\nUltimatum',
          'Historians read the sources differently: the first effect of the official reports was significant, and the conflict flowed from fifty baffled offices.',
          "Mobilisation is the gathering of a country's armed forces for war; once Russia mobilised, Germany declared war on Russia on 1 August 1914 and on France two days later.",
        ].join('\n\n'),
      },
    ]);
  });

  it('a TeX-style page: indented paragraphs without gaps, hyphenation at line ends, a running header and page numbers dropped', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.TimesRoman);
    const pages = [
      [
        [0, 'The heart is a muscular organ that pumps blood through the circulatory sys-'],
        [0, 'tem by rhythmic contraction and dilation of its four chambers.'],
        [14, 'The lungs exchange oxygen and carbon dioxide between the air and the'],
        [0, 'blood in millions of tiny air sacs called alveoli.'],
      ],
      [
        [14, 'The kidneys filter waste products from the blood and excrete them in the'],
        [0, 'urine, which passes through the ureters to the bladder.'],
      ],
    ] as const;
    pages.forEach((lines, index) => {
      const page = pdf.addPage([595, 842]);
      page.drawText('Chapter 3. The Human Body', { x: 72, y: 800, size: 9, font });
      lines.forEach(([indent, line], i) => {
        page.drawText(line, { x: 72 + indent, y: 740 - i * 14, size: 11, font });
      });
      page.drawText(String(index + 41), { x: 290, y: 40, size: 9, font });
    });
    const passages = await read(await pdf.save());
    expect(passages).toEqual([
      {
        page: 1,
        text:
          'The heart is a muscular organ that pumps blood through the circulatory system by rhythmic contraction and dilation of its four chambers.\n\n' +
          'The lungs exchange oxygen and carbon dioxide between the air and the blood in millions of tiny air sacs called alveoli.',
      },
      {
        page: 2,
        text: 'The kidneys filter waste products from the blood and excrete them in the urine, which passes through the ureters to the bladder.',
      },
    ]);
  });

  it('rejoins ligatures a PDF split into runs of their own', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([595, 842]);
    // "di" "ff" "erently": three runs placed edge to edge, as printers that draw a ligature glyph apart do.
    let x = 72;
    for (const run of ['Students learn di', 'ff', 'erently and the ', 'ﬁ', 'rst e', 'ﬀ', 'ect lasts.']) {
      page.drawText(run.replace('ﬁ', 'fi').replace('ﬀ', 'ff'), { x, y: 700, size: 12, font });
      x += font.widthOfTextAtSize(run.replace('ﬁ', 'fi').replace('ﬀ', 'ff'), 12);
    }
    expect(await read(await pdf.save())).toEqual([
      { page: 1, text: 'Students learn differently and the first effect lasts.' },
    ]);
  });
});

describe('PDFs printed by pdfLaTeX and LibreOffice Writer (glob(7) and the Apache License, held-out bench documents)', () => {
  it('pdfLaTeX with T1 fonts: ligatures read from their control codes, hyphenated words whole, no running head', async () => {
    // glob-pdflatex.pdf: bench/generator-quality/held-out/glob-latex.pdf (pdflatex, \usepackage[T1]{fontenc}).
    const passages = await read(readFileSync(path.join(fixtures, 'glob-pdflatex.pdf')));
    const text = passages.map((passage) => passage.text).join('\n');
    expect(passages.map((passage) => passage.page)).toEqual([1, 2, 3]);
    expect([...text].filter((char) => char < ' ' && char !== '\n')).toEqual([]);
    expect(text).toContain(
      "If a filename starts with a '.', this character must be matched explicitly. (Thus, rm * will not remove .profile, and tar c * will not archive all your files; tar c . is better.)",
    );
    expect(text).toContain('Matching is defined by:');
    expect(text).toContain('the effect of a wildcard pattern');
    expect(text.split('\n')).not.toContain('glob(7)');
    expect(text).not.toMatch(/^\d+$/m);
  });

  it('LibreOffice Writer: a sentence cut by the page break is whole on its first page, even when it goes on with "copyright"', async () => {
    // apache-libreoffice.pdf: bench/generator-quality/held-out/apache-license.pdf (soffice --convert-to pdf).
    const passages = await read(readFileSync(path.join(fixtures, 'apache-libreoffice.pdf')));
    expect(passages[0]?.text).toMatch(
      /each Contributor hereby grants to You a perpetual, worldwide, non-exclusive, no-charge, royalty-free, irrevocable\s+copyright license to reproduce, prepare Derivative Works of, publicly display, publicly perform, sublicense, and distribute the Work and such Derivative Works in Source or Object form\.$/,
    );
    expect(passages[1]?.text.startsWith('3. Grant of Patent License.')).toBe(true);
  });
});
