import path from 'node:path/posix';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import type { ExtractProgress, Passage } from './extracted';
import { tidyText, UnreadableFileError } from './extracted';
import { maxXmlBytes, readZipEntries } from './safe-zip';

/**
 * Reads XML as a stream of tags and text (saxes): one linear pass, whatever the nesting or repetition, so no
 * input can drive it into the quadratic backtracking that regular expressions over XML allow.
 */
function walkXml(
  xml: string,
  handlers: {
    open?: (tag: SaxesTagPlain) => void;
    close?: (name: string) => void;
    text?: (text: string) => void;
  },
): void {
  const parser = new SaxesParser();
  if (handlers.open) parser.on('opentag', handlers.open);
  if (handlers.close) parser.on('closetag', (tag) => handlers.close?.(tag.name));
  if (handlers.text) {
    parser.on('text', handlers.text);
    parser.on('cdata', handlers.text);
  }
  try {
    parser.write(xml).close();
  } catch (error) {
    throw new UnreadableFileError(`XML: ${String(error)}`);
  }
}

const attr = (tag: SaxesTagPlain, name: string): string | undefined => tag.attributes[name];

/** Relationship id → target path (resolved against the part's folder). */
function readRels(xml: string | undefined, baseDir: string): Map<string, { target: string; type: string }> {
  const rels = new Map<string, { target: string; type: string }>();
  if (!xml) return rels;
  walkXml(xml, {
    open(tag) {
      if (tag.name !== 'Relationship') return;
      const id = attr(tag, 'Id');
      const target = attr(tag, 'Target');
      if (id && target) {
        rels.set(id, { target: path.normalize(path.join(baseDir, target)), type: attr(tag, 'Type') ?? '' });
      }
    },
  });
  return rels;
}

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
  const parts = await readZipEntries(
    bytes,
    maxUnzippedBytes,
    (name) => /^ppt\/(presentation\.xml|_rels\/presentation\.xml\.rels|slides\/|notesSlides\/[^/]+\.xml$)/.test(name),
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
  [...slidePaths].forEach((slidePath, index) => {
    const slideText = readSlide(slidePath, text);
    if (slideText) passages.push({ text: slideText, slide: index + 1 });
    onProgress?.({ done: index + 1, total: slidePaths.size });
  });
  return passages;
}

function readSlide(slidePath: string, text: (name: string) => string | undefined): string {
  const slideShapes = shapes(text(slidePath) ?? '');
  const title = slideShapes
    .filter(isTitle)
    .flatMap((s) => s.lines)
    .join(' ');
  const body = slideShapes.filter((s) => !isTitle(s) && s.placeholder !== 'sldNum').flatMap((s) => s.lines);
  const slideRels = readRels(
    text(path.join(path.dirname(slidePath), '_rels', `${path.basename(slidePath)}.rels`)),
    path.dirname(slidePath),
  );
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
