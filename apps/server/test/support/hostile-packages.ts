import { basic, basicNote, cloze, proto, rawZstd, type TestPackage, zipFiles } from './anki-packages';

/**
 * Hostile Anki packages, after the turn-3 audit's builders (../shared/audit/turn3: mkapkg.mjs, mk18.mjs,
 * zstdenc.mjs): SQL that loops or allocates, zstd frames that lie about their size, templates that nest or repeat.
 */

/** One Basic note with these fields, in one deck; `extra` adds to the package (SQL, media, note types). */
export function oneNote(fields: [string, string], extra: Partial<TestPackage> = {}, guid = 'hostile1'): TestPackage {
  return { notetypes: [basic], decks: { 1: 'Hostile' }, notes: [basicNote(1, guid, fields)], ...extra };
}

/** A note type like Basic whose templates are `qfmt` and `afmt`. */
export function withTemplate(qfmt: string, afmt = '{{Back}}'): TestPackage['notetypes'] {
  return [{ ...basic, templates: [{ name: 'Card 1', qfmt, afmt }] }];
}

/** One cloze note whose text is `text`. */
export function clozeNote(text: string): TestPackage {
  return {
    notetypes: [cloze],
    decks: { 1: 'Hostile' },
    notes: [{ id: 1, guid: 'cloze1', notetypeId: cloze.id, fields: [text, ''], cards: [{ ord: 0, deckId: 1 }] }],
  };
}

/** A view that never ends, as the audit's `fields` (t-sqlloop.mjs): SQLite would run it for ever. */
export const endlessCte = `with recursive r(i) as (select 1 union all select i + 1 from r)`;

const blockHeader = (last: boolean, type: number, size: number) => {
  const value = (last ? 1 : 0) | (type << 1) | (size << 3);
  return Buffer.from([value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff]);
};

/** A zstd frame of raw blocks whose header declares `declared` bytes of content (8-byte field, single segment). */
export function zstdDeclaring(data: Buffer, declared: number, fieldBytes: 4 | 8 = 8): Buffer {
  const size = Buffer.alloc(fieldBytes);
  if (fieldBytes === 8) size.writeBigUInt64LE(BigInt(declared));
  else size.writeUInt32LE(declared);
  const descriptor = (fieldBytes === 8 ? 0xc0 : 0x80) | 0x20;
  return Buffer.concat([
    Buffer.from([0x28, 0xb5, 0x2f, 0xfd, descriptor]),
    size,
    blockHeader(true, 0, data.length),
    data,
  ]);
}

/** `total` zero bytes as zstd RLE blocks (4 bytes per 128 KiB), without a declared size: the audit's bomb shape. */
export function zstdZeros(total: number): Buffer {
  const max = 128 * 1024;
  const parts = [Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, (27 - 10) << 3])];
  for (let at = 0; at < total; at += max)
    parts.push(blockHeader(at + max >= total, 1, Math.min(max, total - at)), Buffer.from([0]));
  return Buffer.concat(parts);
}

/** A package in the latest format whose collection (a valid one, `pkg`'s) sits beside the given extra entries. */
export async function latestFormat(
  collection: Buffer,
  entries: [string, Buffer][],
  media: Record<string, string> = {},
) {
  const map = proto(Object.entries(media).map(([, name]) => [1, proto([[1, name]])]));
  return zipFiles([
    ['collection.anki21b', rawZstd(collection)],
    ['meta', proto([[1, 3]])],
    ['media', rawZstd(map)],
    ...entries,
  ]);
}

/** A PNG whose header declares `width` × `height` pixels, followed by `padding` bytes. */
export function pngDeclaring(width: number, height: number, padding = 0): Buffer {
  const header = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header, 0);
  header.writeUInt32BE(13, 8);
  header.write('IHDR', 12, 'latin1');
  header.writeUInt32BE(width, 16);
  header.writeUInt32BE(height, 20);
  header.writeUInt8(8, 24);
  header.writeUInt8(6, 25);
  return Buffer.concat([header, Buffer.alloc(padding, 7)]);
}
