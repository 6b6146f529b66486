import path from 'node:path/posix';
import { decodeEntities } from './docx';
import type { Passage } from './extracted';
import { tidyText, UnreadableFileError } from './extracted';
import { maxXmlBytes, readZipEntries } from './safe-zip';

/** Relationship id → target path (resolved against the part's folder). */
function readRels(xml: string | undefined, baseDir: string): Map<string, { target: string; type: string }> {
  const rels = new Map<string, { target: string; type: string }>();
  if (!xml) return rels;
  for (const match of xml.matchAll(/<Relationship\b([^>]*)\/?>/g)) {
    const attrs = match[1] ?? '';
    const id = /\bId="([^"]*)"/.exec(attrs)?.[1];
    const target = /\bTarget="([^"]*)"/.exec(attrs)?.[1];
    const type = /\bType="([^"]*)"/.exec(attrs)?.[1] ?? '';
    if (id && target) rels.set(id, { target: path.normalize(path.join(baseDir, target)), type });
  }
  return rels;
}

/** The text of each paragraph (<a:p>) in a piece of DrawingML, runs joined, line breaks kept. */
function paragraphs(xml: string): string[] {
  const out: string[] = [];
  for (const p of xml.matchAll(/<a:p>([\s\S]*?)<\/a:p>|<a:p [^>]*>([\s\S]*?)<\/a:p>/g)) {
    const body = p[1] ?? p[2] ?? '';
    const text = [...body.matchAll(/<a:t>([\s\S]*?)<\/a:t>|<a:t [^>]*>([\s\S]*?)<\/a:t>|<a:br\b[^>]*\/>/g)]
      .map((run) => (run[0].startsWith('<a:br') ? '\n' : decodeEntities(run[1] ?? run[2] ?? '')))
      .join('');
    if (text.trim()) out.push(text.trim());
  }
  return out;
}

interface ShapeText {
  placeholder: string | null;
  lines: string[];
}

function shapes(xml: string): ShapeText[] {
  return [...xml.matchAll(/<p:sp>([\s\S]*?)<\/p:sp>|<p:sp [^>]*>([\s\S]*?)<\/p:sp>/g)].map((m) => {
    const body = m[1] ?? m[2] ?? '';
    const ph = /<p:ph\b([^>]*)\/?>/.exec(body);
    const placeholder = ph ? (/\btype="([^"]*)"/.exec(ph[1] ?? '')?.[1] ?? 'body') : null;
    return { placeholder, lines: paragraphs(body) };
  });
}

/**
 * PPTX: per slide, in presentation order, the title (as a "# " heading), the body text, then the speaker notes.
 * One passage per slide, numbered from 1.
 */
export async function extractPptx(bytes: Buffer, maxUnzippedBytes: number): Promise<Passage[]> {
  const parts = await readZipEntries(
    bytes,
    maxUnzippedBytes,
    (name) => /^ppt\/(presentation\.xml|_rels\/presentation\.xml\.rels|slides\/|notesSlides\/[^/]+\.xml$)/.test(name),
    maxXmlBytes,
  );
  const text = (name: string) => parts.get(name)?.toString('utf8');
  const presentation = text('ppt/presentation.xml');
  if (!presentation) throw new UnreadableFileError('no ppt/presentation.xml');
  const presentationRels = readRels(text('ppt/_rels/presentation.xml.rels'), 'ppt');
  const slideIds = [...presentation.matchAll(/<p:sldId\b[^>]*\br:id="([^"]*)"/g)].map((m) => m[1] ?? '');

  const passages: Passage[] = [];
  slideIds.forEach((rid, index) => {
    const slidePath = presentationRels.get(rid)?.target;
    const slideXml = slidePath ? text(slidePath) : undefined;
    if (!slidePath || !slideXml) return;
    const slideShapes = shapes(slideXml);
    const title = slideShapes
      .filter((s) => s.placeholder === 'title' || s.placeholder === 'ctrTitle')
      .flatMap((s) => s.lines)
      .join(' ');
    const body = slideShapes
      .filter((s) => s.placeholder !== 'title' && s.placeholder !== 'ctrTitle' && s.placeholder !== 'sldNum')
      .flatMap((s) => s.lines);
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
      ...(notes.length ? ['', `Notes: ${notes.join('\n')}`] : []),
    ];
    const slideText = tidyText(lines.join('\n'));
    if (slideText) passages.push({ text: slideText, slide: index + 1 });
  });
  return passages;
}
