import { open } from 'node:fs/promises';
import { type FileTypeResult, fileTypeFromBuffer, fileTypeFromFile } from 'file-type';
import { type FileKind, type FileSource, readFileSource } from './extracted';
import { decodeText } from './txt';

const headBytes = 65_536;

/**
 * The type of a file on disk from its first 64 KiB, which settles nearly every file at once; a zip that needs a
 * longer look (a DOCX or PPTX whose content list comes later) or a head with no answer is read as far as file-type
 * needs, entry by entry.
 */
async function sniffFile(file: string): Promise<FileTypeResult | undefined> {
  const handle = await open(file);
  let head: Buffer;
  let size: number;
  try {
    size = (await handle.stat()).size;
    head = Buffer.alloc(Math.min(size, headBytes));
    await handle.read(head, 0, head.length, 0);
  } finally {
    await handle.close();
  }
  const type = await fileTypeFromBuffer(head);
  if (size <= head.length || (type && type.ext !== 'zip')) return type;
  return fileTypeFromFile(file);
}

/**
 * Decides a file's type from its bytes. Binary formats by their magic bytes (file-type); an OLE compound file
 * is taken as a Word 97-2003 document (the DOC reader refuses any other kind). Anything without a signature
 * is text when it decodes cleanly (BOM, valid UTF-8, or printable Latin-1). Null when it is none of the accepted
 * types.
 */
export async function detectFileKind(file: FileSource): Promise<FileKind | null> {
  if (!('path' in file) && file.length === 0) return null;
  const type = 'path' in file ? await sniffFile(file.path) : await fileTypeFromBuffer(file);
  if (type) {
    switch (type.ext) {
      case 'pdf':
        return 'pdf';
      case 'docx':
        return 'docx';
      case 'pptx':
        return 'pptx';
      case 'cfb':
      case 'doc':
        return 'doc';
      case 'jpg':
        return 'jpg';
      case 'png':
        return 'png';
      default:
        return null;
    }
  }
  const bytes = await readFileSource(file);
  return bytes.length === 0 || decodeText(bytes) === null ? null : 'txt';
}
