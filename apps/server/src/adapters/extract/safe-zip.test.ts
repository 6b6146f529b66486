import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { zipFiles } from '../anki/zip-files';
import { UnreadableFileError } from './extracted';
import { maxXmlBytes, readZipEntries } from './safe-zip';

// The caps of readZipEntries, each at its boundary: the declared sizes (in all, XML in all, one XML part), what is
// kept, and the refusal of anything that is not a zip.

const bytes = (size: number, fill = 'a') => Buffer.alloc(size, fill);

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UnreadableFileError);
  return (error as Error).message;
}

describe('readZipEntries', () => {
  it('caps the XML a document may unpack to at 32 MiB', () => {
    expect(maxXmlBytes).toBe(32 * 1024 * 1024);
  });

  it('reads every entry up to exactly the cap, and keeps only the wanted ones (folders never)', async () => {
    const archive = new yazl.ZipFile();
    archive.addBuffer(bytes(600), 'word/document.xml');
    archive.addEmptyDirectory('word/');
    archive.addBuffer(bytes(400, 'b'), 'media/image.png');
    archive.end();
    const zip = await buffer(archive.outputStream);
    const all = await readZipEntries(zip, 1000);
    expect([...all.keys()]).toEqual(['word/document.xml', 'media/image.png']);
    expect(all.get('media/image.png')?.equals(bytes(400, 'b'))).toBe(true);
    const xmlOnly = await readZipEntries(zip, 1000, (name) => name.endsWith('.xml'));
    expect([...xmlOnly.keys()]).toEqual(['word/document.xml']);
    expect(xmlOnly.get('word/document.xml')?.length).toBe(600);
  });

  it('refuses a zip that declares one byte more than the cap in all', async () => {
    const zip = await zipFiles([
      ['word/document.xml', bytes(600)],
      ['media/image.png', bytes(401)],
    ]);
    expect(await refusal(readZipEntries(zip, 1000))).toBe('declares 1001 bytes unpacked (600 of XML), above the cap');
  });

  it('counts .xml and .rels parts, in any case, against the XML caps, and media only against the total', async () => {
    const zip = await zipFiles([
      ['word/document.XML', bytes(300)],
      ['_rels/.rels', bytes(200)],
      ['media/big.png', bytes(5000)],
    ]);
    expect((await readZipEntries(zip, 10_000, () => true, 500, 300)).size).toBe(3);
    expect(await refusal(readZipEntries(zip, 10_000, () => true, 499, 300))).toBe(
      'declares 5500 bytes unpacked (500 of XML), above the cap',
    );
    expect(await refusal(readZipEntries(zip, 10_000, () => true, 500, 299))).toBe(
      'word/document.XML declares 300 bytes, above the part cap',
    );
  });

  it('caps the XML in all at the total cap, and each part at the XML cap, unless told otherwise', async () => {
    const zip = await zipFiles([
      ['a.xml', bytes(300)],
      ['b.xml', bytes(300)],
    ]);
    expect(await refusal(readZipEntries(zip, 599))).toBe('declares 600 bytes unpacked (600 of XML), above the cap');
    expect(await refusal(readZipEntries(zip, 10_000, () => true, 299))).toBe(
      'a.xml declares 300 bytes, above the part cap',
    );
  });

  it('stops inflating once the running total passes the cap, whatever the entries declared', async () => {
    const zip = await zipFiles([['word/document.xml', bytes(2000)]]);
    // Declared 2000 of a 2000 cap passes the check; shrink the declared size in the central directory and the
    // local header so the inflated bytes are larger than declared: yauzl's entry size check stops it.
    const lie = Buffer.from(zip);
    const central = lie.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    lie.writeUInt32LE(100, central + 24);
    lie.writeUInt32LE(100, 22);
    expect(await refusal(readZipEntries(lie, 2000))).not.toBe('');
  });

  it('refuses bytes that are not a zip', async () => {
    expect(await refusal(readZipEntries(Buffer.from('not a zip at all, only some text'), 1000))).not.toBe('');
  });
});
