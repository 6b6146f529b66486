import { fileTypeFromBuffer, fileTypeFromFile } from 'file-type';
import { type FileKind, type FileSource, readFileSource } from './extracted';
import { decodeText } from './txt';

/**
 * Decides a file's type from its bytes. Binary formats by their magic bytes (file-type); an OLE compound file
 * is taken as a Word 97-2003 document (the DOC reader refuses any other kind). Anything without a signature
 * is text when it decodes cleanly (BOM, valid UTF-8, or printable Latin-1). Null when it is none of the accepted
 * types.
 */
export async function detectFileKind(file: FileSource): Promise<FileKind | null> {
  if (!('path' in file) && file.length === 0) return null;
  // A file on disk is read only as far as its signature needs (a zip's entries may be some way in).
  const type = 'path' in file ? await fileTypeFromFile(file.path) : await fileTypeFromBuffer(file);
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
