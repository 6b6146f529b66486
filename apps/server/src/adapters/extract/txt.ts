import type { Passage } from './extracted';
import { tidyText } from './extracted';

// Control characters other than tab, line feed, form feed and carriage return: never in a text file.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const controlChars = /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/;

/**
 * Decodes a text file: UTF-8 (with or without BOM), UTF-16 LE/BE with BOM, else Latin-1 (windows-1252).
 * Null when the bytes are not text (control characters, NULs).
 */
export function decodeText(bytes: Uint8Array): string | null {
  let text: string;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) text = new TextDecoder('utf-16le').decode(bytes.subarray(2));
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = new TextDecoder('utf-16be').decode(bytes.subarray(2));
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      text = new TextDecoder('windows-1252').decode(bytes);
    }
  }
  return controlChars.test(text) ? null : text;
}

export function extractTxt(bytes: Uint8Array): Passage[] {
  const text = decodeText(bytes);
  if (text === null) return [];
  const tidy = tidyText(text);
  return tidy ? [{ text: tidy }] : [];
}
