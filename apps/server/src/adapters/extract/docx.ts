import mammoth from 'mammoth';
import type { Passage } from './extracted';
import { tidyText, UnreadableFileError } from './extracted';
import { maxXmlBytes, readZipEntries } from './safe-zip';

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) ? String.fromCodePoint(code) : whole;
    }
    return entities[name.toLowerCase()] ?? whole;
  });
}

/**
 * Mammoth's HTML as plain text that keeps structure the generator uses: headings as "# …", list items as "- …",
 * table rows as "cell: cell" lines.
 */
export function htmlToText(html: string): string {
  const text = html
    .replace(/<tr[^>]*>([\s\S]*?)<\/tr>/g, (_row, cells: string) => {
      const values = [...cells.matchAll(/<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/g)].map((cell) =>
        (cell[1] ?? '')
          .replace(/<[^>]+>/g, ' ')
          .replace(/\s+/g, ' ')
          .trim(),
      );
      return `\n${values.filter(Boolean).join(': ')}\n`;
    })
    .replace(/<h[1-6][^>]*>/g, '\n# ')
    .replace(/<li[^>]*>/g, '\n- ')
    .replace(/<\/?(p|br|ul|ol|table|h[1-6]|li)[^>]*>/g, '\n')
    .replace(/<[^>]+>/g, '');
  return tidyText(
    decodeEntities(text)
      .replace(/\n(- |# )?(?=\n|$)/g, '')
      .replace(/\n+/g, '\n'),
  );
}

export async function extractDocx(
  bytes: Buffer,
  maxUnzippedBytes: number,
  maxXmlPartBytes: number = maxXmlBytes,
): Promise<Passage[]> {
  // The cap check first: mammoth unpacks the whole document in memory.
  await readZipEntries(bytes, maxUnzippedBytes, () => false, maxXmlBytes, maxXmlPartBytes);
  try {
    const { value } = await mammoth.convertToHtml(
      { buffer: bytes },
      // Images carry no text for cards: skip them instead of inlining them as base64.
      { ignoreEmptyParagraphs: true, convertImage: mammoth.images.imgElement(async () => ({ src: '' })) },
    );
    const text = htmlToText(value);
    return text ? [{ text }] : [];
  } catch (error) {
    throw new UnreadableFileError(String(error));
  }
}
