import path from 'node:path/posix';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { UnreadableFileError } from './extracted';

/**
 * Reads XML as a stream of tags and text (saxes): one linear pass, whatever the nesting or repetition, so no
 * input can drive it into the quadratic backtracking that regular expressions over XML allow.
 */
export function walkXml(
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

export const attr = (tag: SaxesTagPlain, name: string): string | undefined => tag.attributes[name];

/** Relationship id → target path (resolved against the part's folder). */
export function readRels(xml: string | undefined, baseDir: string): Map<string, { target: string; type: string }> {
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
