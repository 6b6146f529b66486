import { fileTypeFromBuffer } from 'file-type';
import type { FileKind } from './extracted';
import { decodeText } from './txt';

/**
 * Decides a file's type from its bytes. Binary formats by their magic bytes (file-type); an OLE compound file
 * is taken as a Word 97-2003 document (the DOC reader refuses any other kind). Anything without a signature
 * is text when it decodes cleanly (BOM, valid UTF-8, or printable Latin-1). Null when it is none of the accepted
 * types.
 */
export async function detectFileKind(bytes: Uint8Array): Promise<FileKind | null> {
  if (bytes.length === 0) return null;
  const type = await fileTypeFromBuffer(bytes);
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
  return decodeText(bytes) === null ? null : 'txt';
}
