// Hostile files made on the fly, the shapes a security audit used to take the server down. Shared by the tests
// (test/hostile-uploads.test.ts) and the benchmark (bench/hostile-uploads.bench.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDeflate, deflateSync } from 'node:zlib';
import JSZip from 'jszip';
import { PDFDocument } from 'pdf-lib';
import PptxGenJS from 'pptxgenjs';
import { pngChunk } from './png-chunk';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');

function pngHeader(width: number, height: number, bitDepth: number, colorType: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = bitDepth;
  ihdr[9] = colorType;
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), pngChunk('IHDR', ihdr)]);
}

/** 74 bytes: a PNG header claiming 30000×30000 RGB pixels, then a cut-off IDAT and no IEND. */
export function truncatedHugePng(): Buffer {
  const png = Buffer.concat([pngHeader(30_000, 30_000, 8, 2), pngChunk('IDAT', deflateSync(Buffer.alloc(64)))]);
  return png.subarray(0, 74);
}

/** A real JPEG (the OCR fixture) with its entropy-coded data overwritten by garbage and its end cut off: ~2 KB. */
export function corruptJpeg(): Buffer {
  const jpeg = Buffer.from(readFileSync(path.join(fixtures, 'ocr-sample.jpg')));
  const cut = jpeg.subarray(0, Math.min(jpeg.length, 2048));
  for (let i = Math.floor(cut.length / 2); i < cut.length; i += 7) cut[i] = 0xff;
  return Buffer.from(cut);
}

/** A white W×H PNG, 1 bit per pixel grey (small on disk whatever its size: 8000×8000 is about 10 KB). */
export function whitePng(width: number, height: number): Buffer {
  const row = Buffer.alloc(1 + Math.ceil(width / 8), 0xff);
  row[0] = 0;
  const raw = Buffer.alloc(row.length * height);
  for (let y = 0; y < height; y++) row.copy(raw, y * row.length);
  return Buffer.concat([
    pngHeader(width, height, 1, 0),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A minimal, valid OLE compound file (512-byte sectors): sector 0 the FAT, sector 1 the directory (a root entry
 * only). `mutate` breaks it in one place.
 */
export function compoundFile(mutate: (header: Buffer, fat: Buffer, directory: Buffer) => void): Buffer {
  const header = Buffer.alloc(512);
  Buffer.from('d0cf11e0a1b11ae1', 'hex').copy(header, 0);
  header.writeUInt16LE(0x3e, 24);
  header.writeUInt16LE(3, 26);
  header.writeUInt16LE(0xfffe, 28);
  header.writeUInt16LE(9, 30);
  header.writeUInt16LE(6, 32);
  header.writeUInt32LE(1, 44); // FAT sectors
  header.writeUInt32LE(1, 48); // directory starts at sector 1
  header.writeUInt32LE(4096, 56);
  header.writeUInt32LE(0xfffffffe, 60); // no mini FAT
  header.writeUInt32LE(0, 64);
  header.writeUInt32LE(0xfffffffe, 68); // no DIFAT sectors
  header.writeUInt32LE(0, 72);
  for (let i = 0; i < 109; i++) header.writeUInt32LE(0xffffffff, 76 + i * 4);
  header.writeUInt32LE(0, 76); // the FAT is sector 0
  const fat = Buffer.alloc(512, 0xff);
  fat.writeUInt32LE(0xfffffffd, 0); // sector 0: a FAT sector
  fat.writeUInt32LE(0xfffffffe, 4); // sector 1: the directory, one sector long
  const directory = Buffer.alloc(512);
  const name = Buffer.from('Root Entry\0', 'utf16le');
  name.copy(directory, 0);
  directory.writeUInt16LE(name.length, 64);
  directory[66] = 5; // root
  directory.writeUInt32LE(0xffffffff, 68);
  directory.writeUInt32LE(0xffffffff, 72);
  directory.writeUInt32LE(0xffffffff, 76);
  directory.writeUInt32LE(0xfffffffe, 116);
  mutate(header, fat, directory);
  return Buffer.concat([header, fat, directory]);
}

/** 1.5 KB: the directory's sector chain loops (sector 1 → 1 is caught by word-extractor, so 1 → 2 → 1). */
export function loopingOleDoc(): Buffer {
  const file = compoundFile((_header, fat) => {
    fat.writeUInt32LE(2, 4);
    fat.writeUInt32LE(1, 8);
  });
  return Buffer.concat([file, Buffer.alloc(512)]);
}

/** A compound file whose header says sectors are 2^30 bytes: a reader allocating one sector asks for 1 GiB. */
export function hugeSectorDoc(): Buffer {
  return compoundFile((header) => header.writeUInt16LE(30, 30));
}

async function basePptx(): Promise<JSZip> {
  const pptx = new PptxGenJS();
  pptx.addSlide().addText('Mitochondria are the organelles that produce most of the chemical energy of the cell.', {
    x: 1,
    y: 1,
    w: 8,
    h: 1,
  });
  return JSZip.loadAsync(Buffer.from((await pptx.write({ outputType: 'nodebuffer' })) as ArrayBuffer));
}

async function zipToBuffer(zip: JSZip): Promise<Buffer> {
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 } });
}

/**
 * A PPTX whose slide holds `count` shape openings (<p:sp>, never closed: 100,000 are 600 KB of XML in a few KB),
 * the shape that sent lazy regular expressions into quadratic time.
 */
export async function manyShapesPptx(count: number): Promise<Buffer> {
  const zip = await basePptx();
  const slide = (await zip.file('ppt/slides/slide1.xml')?.async('string')) ?? '';
  const shapes = '<p:sp>'.repeat(count);
  zip.file('ppt/slides/slide1.xml', slide.replace('</p:spTree>', `${shapes}</p:spTree>`));
  return zipToBuffer(zip);
}

/** A PPTX whose presentation lists its one slide `count` times. */
export async function repeatedSlidePptx(count: number): Promise<Buffer> {
  const zip = await basePptx();
  const presentation = (await zip.file('ppt/presentation.xml')?.async('string')) ?? '';
  const rid = /<p:sldId\b[^>]*r:id="([^"]+)"/.exec(presentation)?.[1] ?? 'rId2';
  const ids = Array.from({ length: count }, (_, i) => `<p:sldId id="${256 + i}" r:id="${rid}"/>`).join('');
  zip.file(
    'ppt/presentation.xml',
    presentation.replace(/<p:sldIdLst>[\s\S]*?<\/p:sldIdLst>/, `<p:sldIdLst>${ids}</p:sldIdLst>`),
  );
  return zipToBuffer(zip);
}

/** Deflates `size` zero bytes, a megabyte at a time (the file stays small, nothing large is held in memory). */
async function deflatedZeros(size: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const megabyte = Buffer.alloc(1 << 20);
  for (let written = 0; written < size; written += megabyte.length) {
    if (!deflate.write(megabyte)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat(chunks);
}

/** A one-page PDF whose content stream is ~256 KB deflated and `inflatedBytes` (256 MB) inflated. */
export async function inflatingPdf(inflatedBytes = 256 * 1024 * 1024): Promise<Buffer> {
  const stream = await deflatedZeros(inflatedBytes);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  const offsets: number[] = [];
  let at = parts[0]?.length ?? 0;
  const push = (buffer: Buffer) => {
    parts.push(buffer);
    at += buffer.length;
  };
  objects.forEach((body, i) => {
    offsets.push(at);
    push(Buffer.from(`${i + 1} 0 obj\n${body}\nendobj\n`));
  });
  offsets.push(at);
  push(Buffer.from(`4 0 obj\n<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`));
  push(stream);
  push(Buffer.from('\nendstream\nendobj\n'));
  const xref = at;
  push(
    Buffer.from(
      `xref\n0 5\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}` +
        `trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
    ),
  );
  return Buffer.concat(parts);
}

/** `pages` blank pages of 14400×14400 points (200 inches a side, the largest PDF allows): nothing to read. */
export async function blankGiantPagesPdf(pages = 12): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  for (let i = 0; i < pages; i++) pdf.addPage([14_400, 14_400]);
  return Buffer.from(await pdf.save());
}

/** The audit's hostile uploads, each with a file name and how /create must refuse it (test and bench share it). */
export const hostileUploads: {
  name: string;
  filename: string;
  make: () => Buffer | Promise<Buffer>;
  /** `unreadable`: the parser failed or was stopped; `noText`: it was read and held no text. */
  refusal: 'unreadable' | 'noText';
}[] = [
  {
    name: 'a truncated PNG claiming 30000×30000',
    filename: 'photo.png',
    make: truncatedHugePng,
    refusal: 'unreadable',
  },
  { name: 'a corrupt JPEG', filename: 'photo.jpg', make: corruptJpeg, refusal: 'unreadable' },
  { name: 'a .doc whose sector chain loops', filename: 'notes.doc', make: loopingOleDoc, refusal: 'unreadable' },
  { name: 'a .doc with a 2^30-byte sector size', filename: 'notes.doc', make: hugeSectorDoc, refusal: 'unreadable' },
  {
    name: 'a slide of 100,000 <p:sp>',
    filename: 'slides.pptx',
    make: () => manyShapesPptx(100_000),
    refusal: 'unreadable',
  },
  { name: 'a PDF stream inflating to 256 MB', filename: 'doc.pdf', make: () => inflatingPdf(), refusal: 'unreadable' },
  { name: 'a PDF of 12 blank giant pages', filename: 'doc.pdf', make: () => blankGiantPagesPdf(12), refusal: 'noText' },
  { name: 'an 8000×8000 PNG', filename: 'scan.png', make: () => whitePng(8000, 8000), refusal: 'unreadable' },
];
