import path from 'node:path/posix';
import type { ExtractProgress, Passage } from './extracted';
import { tidyText, UnreadableFileError } from './extracted';
import type { FigureCandidate } from './figures';
import { attr, readRels, walkXml } from './ooxml';
import { maxXmlBytes, readZipEntries } from './safe-zip';

interface ShapeText {
  placeholder: string | null;
  lines: string[];
}

/** The text of each shape (<p:sp>): its placeholder type, and its paragraphs (<a:p>) with runs joined. */
function shapes(xml: string): ShapeText[] {
  const out: ShapeText[] = [];
  let shape: ShapeText | null = null;
  let paragraph: string | null = null;
  let inText = false;
  walkXml(xml, {
    open(tag) {
      switch (tag.name) {
        case 'p:sp':
          shape = { placeholder: null, lines: [] };
          break;
        case 'p:ph':
          if (shape) shape.placeholder = attr(tag, 'type') ?? 'body';
          break;
        case 'a:p':
          if (shape) paragraph = '';
          break;
        case 'a:t':
          inText = paragraph !== null;
          break;
        case 'a:br':
          if (paragraph !== null) paragraph += '\n';
          break;
      }
    },
    text(text) {
      if (inText && paragraph !== null) paragraph += text;
    },
    close(name) {
      if (name === 'a:t') inText = false;
      else if (name === 'a:p' && shape && paragraph !== null) {
        if (paragraph.trim()) shape.lines.push(paragraph.trim());
        paragraph = null;
      } else if (name === 'p:sp' && shape) {
        out.push(shape);
        shape = null;
      }
    },
  });
  return out;
}

const isTitle = (shape: ShapeText) => shape.placeholder === 'title' || shape.placeholder === 'ctrTitle';

/**
 * PPTX: per slide, in presentation order, the title (as a "# " heading), the body text, then the speaker notes
 * (unlabelled paragraphs).
 * One passage per slide, numbered from 1. A slide listed more than once is read once.
 */
export async function extractPptx(
  bytes: Buffer,
  maxUnzippedBytes: number,
  maxXmlPartBytes: number = maxXmlBytes,
  onProgress?: (progress: ExtractProgress) => void,
): Promise<Passage[]> {
  return (await readPptx(bytes, maxUnzippedBytes, maxXmlPartBytes, onProgress, false)).passages;
}

/** What a PPTX gives: its passages, and (when asked) the pictures of its slides, not yet decoded. */
export interface PptxContent {
  passages: Passage[];
  candidates: FigureCandidate[];
  slides: number;
}

/**
 * The passages of extractPptx and, when `withFigures`, the pictures (<p:pic>) of each slide with their slide
 * number, from ppt/media through the slide's relationships.
 */
export async function readPptx(
  bytes: Buffer,
  maxUnzippedBytes: number,
  maxXmlPartBytes: number,
  onProgress: ((progress: ExtractProgress) => void) | undefined,
  withFigures: boolean,
): Promise<PptxContent> {
  const parts = await readZipEntries(
    bytes,
    maxUnzippedBytes,
    (name) =>
      /^ppt\/(presentation\.xml|_rels\/presentation\.xml\.rels|slides\/|notesSlides\/[^/]+\.xml$)/.test(name) ||
      (withFigures && name.startsWith('ppt/media/')),
    maxXmlBytes,
    maxXmlPartBytes,
  );
  const text = (name: string) => parts.get(name)?.toString('utf8');
  const presentation = text('ppt/presentation.xml');
  if (!presentation) throw new UnreadableFileError('no ppt/presentation.xml');
  const presentationRels = readRels(text('ppt/_rels/presentation.xml.rels'), 'ppt');
  const slidePaths = new Set<string>();
  walkXml(presentation, {
    open(tag) {
      const rid = tag.name === 'p:sldId' ? attr(tag, 'r:id') : undefined;
      const target = rid ? presentationRels.get(rid)?.target : undefined;
      if (target && parts.has(target)) slidePaths.add(target);
    },
  });

  const passages: Passage[] = [];
  const candidates: FigureCandidate[] = [];
  [...slidePaths].forEach((slidePath, index) => {
    const slideText = readSlide(slidePath, text);
    if (slideText) passages.push({ text: slideText, slide: index + 1 });
    if (withFigures) {
      for (const picture of slidePictures(slidePath, text)) {
        const image = parts.get(picture.target);
        if (image) candidates.push({ slide: index + 1, image, ...(picture.decorative ? { decorative: true } : {}) });
      }
    }
    onProgress?.({ done: index + 1, total: slidePaths.size });
  });
  return { passages, candidates, slides: slidePaths.size };
}

const slideRelsOf = (slidePath: string, text: (name: string) => string | undefined) =>
  readRels(
    text(path.join(path.dirname(slidePath), '_rels', `${path.basename(slidePath)}.rels`)),
    path.dirname(slidePath),
  );

/** The pictures of a slide in drawing order: the media part each shows, and whether it is marked decorative. */
function slidePictures(
  slidePath: string,
  text: (name: string) => string | undefined,
): { target: string; decorative: boolean }[] {
  const rels = slideRelsOf(slidePath, text);
  const out: { target: string; decorative: boolean }[] = [];
  let picture: { embed?: string; decorative: boolean } | null = null;
  walkXml(text(slidePath) ?? '', {
    open(tag) {
      if (tag.name === 'p:pic') picture = { decorative: false };
      else if (picture && tag.name === 'a:blip') picture.embed = attr(tag, 'r:embed');
      else if (picture && tag.name.endsWith(':decorative') && attr(tag, 'val') === '1') picture.decorative = true;
    },
    close(name) {
      if (name !== 'p:pic' || !picture) return;
      const rel = picture.embed ? rels.get(picture.embed) : undefined;
      if (rel?.type.endsWith('/image') && rel.target.startsWith('ppt/media/')) {
        out.push({ target: rel.target, decorative: picture.decorative });
      }
      picture = null;
    },
  });
  return out;
}

function readSlide(slidePath: string, text: (name: string) => string | undefined): string {
  const slideShapes = shapes(text(slidePath) ?? '');
  const title = slideShapes
    .filter(isTitle)
    .flatMap((s) => s.lines)
    .join(' ');
  const body = slideShapes.filter((s) => !isTitle(s) && s.placeholder !== 'sldNum').flatMap((s) => s.lines);
  const slideRels = slideRelsOf(slidePath, text);
  const notesPath = [...slideRels.values()].find((rel) => rel.type.endsWith('/notesSlide'))?.target;
  const notesXml = notesPath ? text(notesPath) : undefined;
  const notes = notesXml
    ? shapes(notesXml)
        .filter((s) => s.placeholder === 'body')
        .flatMap((s) => s.lines)
    : [];
  const lines = [
    ...(title ? [`# ${title}`] : []),
    ...body,
    // The speaker notes follow as paragraphs of their own, with no label: a label of ours ("Notes:") is not content,
    // and a generator given it made cards of it ("Fill in the blank: Notes: …").
    ...(notes.length ? ['', notes.join('\n\n')] : []),
  ];
  return tidyText(lines.join('\n'));
}
