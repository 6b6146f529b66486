// Large honest documents of random words, made on the fly for the benchmarks: a text PDF of N pages and a DOCX of
// about N bytes (random words compress about 2:1, so its XML is about twice the file).
import { randomInt } from 'node:crypto';
import { Document, Packer, Paragraph } from 'docx';
import { PDFDocument, StandardFonts } from 'pdf-lib';

const vocabulary = Array.from({ length: 5000 }, () =>
  Array.from({ length: randomInt(3, 11) }, () => String.fromCharCode(97 + randomInt(26))).join(''),
);
const sentence = (words: number) =>
  `${Array.from({ length: words }, () => vocabulary[randomInt(vocabulary.length)]).join(' ')}.`;

export async function textPdf(pages: number): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = pdf.addPage([595, 842]);
    for (let line = 0; line < 45; line++) page.drawText(sentence(12), { x: 40, y: 800 - line * 17, size: 10, font });
  }
  return Buffer.from(await pdf.save());
}

export async function docxOf(targetBytes: number): Promise<Buffer> {
  const paragraphs: Paragraph[] = [];
  let bytes = 0;
  while (bytes < targetBytes * 2.08) {
    const text = Array.from({ length: 8 }, () => sentence(14)).join(' ');
    bytes += text.length + 60;
    paragraphs.push(new Paragraph(text));
  }
  return Packer.toBuffer(new Document({ sections: [{ children: paragraphs }] }));
}
