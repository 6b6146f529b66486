import mammoth from 'mammoth';
import type { Passage } from './extracted';
import { tidyText, UnreadableFileError } from './extracted';
import type { FigureCandidate } from './figures';
import { attr, readRels, walkXml } from './ooxml';
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
  return (await readDocx(bytes, maxUnzippedBytes, maxXmlPartBytes, false)).passages;
}

/**
 * The text of a DOCX (one passage) and, when `withFigures`, its images (word/media through the document's
 * relationships) in document order, each with the text of the paragraph it sits in or, for an image alone in its
 * paragraph, of the nearest paragraph with text before it (else after it).
 */
export async function readDocx(
  bytes: Buffer,
  maxUnzippedBytes: number,
  maxXmlPartBytes: number,
  withFigures: boolean,
): Promise<{ passages: Passage[]; candidates: FigureCandidate[] }> {
  // The cap check first: mammoth unpacks the whole document in memory.
  const parts = await readZipEntries(
    bytes,
    maxUnzippedBytes,
    (name) =>
      withFigures &&
      (name === 'word/document.xml' || name === 'word/_rels/document.xml.rels' || name.startsWith('word/media/')),
    maxXmlBytes,
    maxXmlPartBytes,
  );
  let passages: Passage[];
  try {
    const { value } = await mammoth.convertToHtml(
      { buffer: bytes },
      // Images carry no text for cards: skip them instead of inlining them as base64.
      { ignoreEmptyParagraphs: true, convertImage: mammoth.images.imgElement(async () => ({ src: '' })) },
    );
    const text = htmlToText(value);
    passages = text ? [{ text }] : [];
  } catch (error) {
    throw new UnreadableFileError(String(error));
  }
  return { passages, candidates: withFigures ? docxCandidates(parts) : [] };
}

const maxNearChars = 300;

function docxCandidates(parts: Map<string, Buffer>): FigureCandidate[] {
  const rels = readRels(parts.get('word/_rels/document.xml.rels')?.toString('utf8'), 'word');
  const paragraphs: { text: string; images: { embed: string; decorative: boolean }[] }[] = [];
  let paragraph: { text: string; images: { embed: string; decorative: boolean }[] } | null = null;
  let inText = false;
  let decorative = false;
  walkXml(parts.get('word/document.xml')?.toString('utf8') ?? '', {
    open(tag) {
      if (tag.name === 'w:p') paragraph = { text: '', images: [] };
      else if (tag.name === 'w:t') inText = true;
      else if (tag.name === 'w:drawing') decorative = false;
      else if (tag.name.endsWith(':decorative') && attr(tag, 'val') === '1') decorative = true;
      else if (tag.name === 'a:blip' && paragraph) {
        const embed = attr(tag, 'r:embed');
        if (embed) paragraph.images.push({ embed, decorative });
      }
    },
    text(text) {
      if (inText && paragraph) paragraph.text += text;
    },
    close(name) {
      if (name === 'w:t') inText = false;
      else if (name === 'w:p' && paragraph) {
        paragraphs.push({ ...paragraph, text: tidyText(paragraph.text) });
        paragraph = null;
      }
    },
  });
  const candidates: FigureCandidate[] = [];
  paragraphs.forEach((p, index) => {
    for (const picture of p.images) {
      const rel = rels.get(picture.embed);
      const image = rel?.type.endsWith('/image') ? parts.get(rel.target) : undefined;
      if (!image) continue;
      const before = paragraphs.slice(0, index).findLast((other) => other.text);
      const after = paragraphs.slice(index + 1).find((other) => other.text);
      const near = (p.text || before?.text || after?.text || '').slice(0, maxNearChars);
      candidates.push({ image, ...(near ? { near } : {}), ...(picture.decorative ? { decorative: true } : {}) });
    }
  });
  return candidates;
}
