import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { UnreadableFileError } from './extracted';

/**
 * The most XML a DOCX or PPTX may unpack to: about 15 million characters of text, far more than a generation
 * uses, while mammoth's memory (about 16 times the XML) stays near half a gigabyte at worst.
 */
export const maxXmlBytes = 32 * 1024 * 1024;

/**
 * Reads a ZIP (DOCX, PPTX) with a decompression cap, so that a zip bomb is refused within bounded time and
 * memory: the declared sizes must fit under the caps (in all, XML in all, and each XML part), and each entry is inflated as a stream that stops as soon
 * as it yields more than its declared size (yauzl's validateEntrySizes) or the running total passes the cap.
 * Only the entries `wanted` picks are kept in memory. `maxXmlBytes` caps the XML parts alone: parsers hold XML
 * in memory many times over, while images and other media are only counted.
 */
export async function readZipEntries(
  bytes: Buffer,
  maxTotalBytes: number,
  wanted: (name: string) => boolean = () => true,
  maxXmlBytes: number = maxTotalBytes,
  maxXmlPartBytes: number = maxXmlBytes,
): Promise<Map<string, Buffer>> {
  const zip = await new Promise<ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (err, file) =>
      err || !file ? reject(new UnreadableFileError(err?.message ?? 'not a zip file')) : resolve(file),
    ),
  );
  const entries: Entry[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve());
    zip.on('error', (err: Error) => reject(new UnreadableFileError(err.message)));
    zip.readEntry();
  });

  const isXml = (name: string) => /\.(xml|rels)$/i.test(name);
  let declared = 0;
  let declaredXml = 0;
  for (const entry of entries) {
    declared += entry.uncompressedSize;
    if (isXml(entry.fileName)) {
      declaredXml += entry.uncompressedSize;
      if (entry.uncompressedSize > maxXmlPartBytes) {
        zip.close();
        throw new UnreadableFileError(`${entry.fileName} declares ${entry.uncompressedSize} bytes, above the part cap`);
      }
    }
  }
  if (declared > maxTotalBytes || declaredXml > maxXmlBytes) {
    zip.close();
    throw new UnreadableFileError(`declares ${declared} bytes unpacked (${declaredXml} of XML), above the cap`);
  }

  const out = new Map<string, Buffer>();
  let total = 0;
  try {
    for (const entry of entries) {
      if (entry.fileName.endsWith('/')) continue;
      const keep = wanted(entry.fileName);
      const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
        zip.openReadStream(entry, (err, s) => (err || !s ? reject(err ?? new Error('no stream')) : resolve(s))),
      );
      const chunks: Buffer[] = [];
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        total += chunk.length;
        if (total > maxTotalBytes) throw new UnreadableFileError('unpacks to more than the cap');
        if (keep) chunks.push(chunk);
      }
      if (keep) out.set(entry.fileName, Buffer.concat(chunks));
    }
  } catch (error) {
    throw error instanceof UnreadableFileError ? error : new UnreadableFileError(String(error));
  } finally {
    zip.close();
  }
  return out;
}
