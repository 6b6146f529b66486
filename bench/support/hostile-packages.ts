// The hostile Anki packages of the turn-3 security audit (../shared/audit/turn3: mkapkg.mjs, mk18.mjs, zstdenc.mjs,
// png.mjs), rebuilt here for bench/hostile-uploads-paths.bench.ts: collections in schema 11 (col JSON) or 18 (tables),
// with raw SQL run on them before they are zipped, zstd frames written by hand, and a PNG of any size.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import SqliteDatabase from 'better-sqlite3';
import { schema11 } from '../../apps/server/src/adapters/anki/schema11';
import { zipFiles } from '../../apps/server/src/adapters/anki/zip-files';
import { pngChunk } from '../../apps/server/test/support/png-chunk';

const MB = 1_048_576;

function withCollection(ext: string, build: (db: SqliteDatabase.Database) => void): Buffer {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-apkg-'));
  const file = path.join(dir, `collection.${ext}`);
  try {
    const db = new SqliteDatabase(file);
    try {
      build(db);
    } finally {
      db.close();
    }
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface Model {
  type?: number;
  flds: string[];
  tmpls: { qfmt: string; afmt: string }[];
}

/** A schema 11 collection: one note type (id 1), one deck (id 2), `notes` fields; `sql` runs last. */
export function collection11(model: Model, notes: string[][], deckName = 'Bench deck', sql = ''): Buffer {
  return withCollection('anki2', (db) => {
    db.exec(schema11);
    const models = {
      1: {
        id: 1,
        name: 'Basic',
        type: model.type ?? 0,
        flds: model.flds.map((name, ord) => ({ name, ord })),
        tmpls: model.tmpls.map((tmpl, ord) => ({ name: `Card ${ord + 1}`, ord, ...tmpl })),
      },
    };
    db.prepare('insert into col values (1,0,0,0,11,0,0,0,?,?,?,?,?)').run(
      '{}',
      JSON.stringify(models),
      JSON.stringify({ 2: { id: 2, name: deckName } }),
      '{}',
      '{}',
    );
    const note = db.prepare("insert into notes values (?,?,1,0,0,'',?,'',0,0,'')");
    const card = db.prepare("insert into cards values (?,?,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,'')");
    db.transaction(() => {
      notes.forEach((fields, index) => {
        note.run(index + 1, `b${index}-${randomBytes(4).toString('hex')}`, fields.join('\x1f'));
        card.run(index + 1, index + 1);
      });
    })();
    if (sql) db.exec(sql);
  });
}

const basicModel: Model = {
  flds: ['Front', 'Back'],
  tmpls: [{ qfmt: '{{Front}}', afmt: '{{FrontSide}}<hr id=answer>{{Back}}' }],
};

const varint = (value: number) => {
  const out: number[] = [];
  let rest = BigInt(value);
  do {
    let byte = Number(rest & 0x7fn);
    rest >>= 7n;
    if (rest) byte |= 0x80;
    out.push(byte);
  } while (rest);
  return Buffer.from(out);
};
const pbField = (field: number, wire: number, payload: Buffer | number) =>
  Buffer.concat([
    varint((field << 3) | wire),
    typeof payload === 'number' ? varint(payload) : Buffer.concat([varint(payload.length), payload]),
  ]);

/** A schema 18 collection of one Basic note whose `fields` or `decks` table the caller may replace (by a view). */
export function collection18(overrides: { fields?: string; decks?: string }): Buffer {
  return withCollection('anki21b', (db) => {
    db.exec(`
      create table col (id integer primary key, crt int, mod int, scm int, ver int, dty int, usn int, ls int, conf text,
        models text, decks text, dconf text, tags text);
      insert into col values (1,0,0,0,18,0,0,0,'','','','','');
      create table notes (id integer primary key, guid text, mid int, mod int, usn int, tags text, flds text, sfld text,
        csum int, flags int, data text);
      create table cards (id integer primary key, nid int, did int, ord int, mod int, usn int, type int, queue int, due int,
        ivl int, factor int, reps int, lapses int, left int, odue int, odid int, flags int, data text);
      create table notetypes (id integer primary key, name text, mtime_secs int, usn int, config blob);
      create table templates (ntid int, ord int, name text, mtime_secs int, usn int, config blob);
    `);
    db.exec(overrides.fields ?? 'create table fields (ntid int, ord int, name text, config blob)');
    db.exec(
      overrides.decks ??
        'create table decks (id integer primary key, name text, mtime_secs int, usn int, common blob, kind blob)',
    );
    db.prepare('insert into notetypes values (1, ?, 0, 0, ?)').run('Basic', pbField(1, 0, 0));
    db.prepare('insert into templates values (1, 0, ?, 0, 0, ?)').run(
      'Card 1',
      Buffer.concat([
        pbField(1, 2, Buffer.from('{{Front}}')),
        pbField(2, 2, Buffer.from('{{FrontSide}}<hr id=answer>{{Back}}')),
      ]),
    );
    if (!overrides.fields) db.exec(`insert into fields values (1,0,'Front',x''),(1,1,'Back',x'')`);
    if (!overrides.decks) db.exec(`insert into decks values (1,'Deck',0,0,x'',x'')`);
    db.exec(`insert into notes values (1,'g18',1,0,0,'','q' || char(31) || 'a','',0,0,'')`);
    db.exec(`insert into cards values (1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,'')`);
  });
}

/** Zips a collection (under `name`) with media files, as Anki does (numbered entries and a JSON map). */
export function apkg(collection: Buffer, media: [string, Buffer][] = [], name = 'collection.anki2'): Promise<Buffer> {
  const map = Object.fromEntries(media.map(([file], index) => [String(index), file]));
  return zipFiles([
    [name, collection],
    ...media.map(([, data], index): [string, Buffer] => [String(index), data]),
    ['media', Buffer.from(JSON.stringify(map))],
  ]);
}

/** A zstd frame of raw blocks holding `data`, whose header declares `contentSize` (a bomb when it lies). */
export function zstdDeclaring(data: Buffer, contentSize: number): Buffer {
  const fcs = Buffer.alloc(8);
  fcs.writeBigUInt64LE(BigInt(contentSize));
  const header = Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0xe0]), fcs]);
  const block = (1 | (0 << 1) | (data.length << 3)) >>> 0;
  return Buffer.concat([header, Buffer.from([block & 0xff, (block >> 8) & 0xff, (block >> 16) & 0xff]), data]);
}

/** A valid 2×2 PNG followed by `tailBytes` zeros: what the audit stored as a 200 MB "image" (t-media-huge). */
export function hugePng(tailBytes: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(2, 0);
  ihdr.writeUInt32BE(2, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const raw = Buffer.alloc((2 * 3 + 1) * 2, 7);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', zlib.deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
    Buffer.alloc(tailBytes),
  ]);
}

/** A random word of 3 to 8 letters: 200,000 notes give the index hundreds of thousands of terms, as real decks do. */
function randomWord(): string {
  const length = 3 + Math.floor(Math.random() * 6);
  let word = '';
  for (let index = 0; index < length; index++) word += String.fromCharCode(97 + Math.floor(Math.random() * 26));
  return word;
}

/** `count` Basic notes of random words (so that a search has a real index to walk, as the audit's t-search did). */
export function manyNotes(count: number): Buffer {
  const notes: string[][] = [];
  for (let index = 0; index < count; index++) {
    notes.push([`${randomWord()} ${randomWord()} ${randomWord()} ${index}`, `${randomWord()} ${randomWord()}`]);
  }
  return collection11(basicModel, notes, 'Big deck');
}

/** The audit's hostile packages, each one .apkg. */
export const hostilePackages = {
  /** `fields` is a view over an endless recursive CTE (t-sqlloop.mjs): 1 KB. */
  sqlLoopView: () =>
    apkg(
      collection18({
        fields: `create view fields as with recursive r(i) as (select 1 union all select i + 1 from r)
          select 1 as ntid, 0 as ord, 'x' as name from r where i < 0`,
      }),
    ),
  /** `decks` is a view of `rows` zeroblobs of `mb` MB each (t-blob-view.mjs). */
  zeroblobView: (rows: number, mb: number) =>
    apkg(
      collection18({
        decks: `create view decks as with recursive r(i) as (select 1 union all select i + 1 from r where i < ${rows})
          select i as id, zeroblob(${mb} * 1048576) as name from r`,
      }),
    ),
  /** A collection.anki21b zstd frame that declares `bytes` of content and holds 10 (t-zstd-bombs.mjs). */
  zstdDeclares: (bytes: number) => zipFiles([['collection.anki21b', zstdDeclaring(Buffer.from('0123456789'), bytes)]]),
  /** Template sections nested 20,000 deep (t-templates.mjs). */
  nestedSections: () =>
    apkg(
      collection11(
        {
          flds: ['F', 'B'],
          tmpls: [{ qfmt: `${'{{#F}}'.repeat(20_000)}x${'{{/F}}'.repeat(20_000)}`, afmt: '{{B}}' }],
        },
        [['y', 'b']],
      ),
    ),
  /** `{{F}}` 10,000 times and `{{FrontSide}}` 100 times (t-templates.mjs). */
  amplifiedTemplate: () =>
    apkg(
      collection11({ flds: ['F', 'B'], tmpls: [{ qfmt: '{{F}}'.repeat(10_000), afmt: '{{FrontSide}}'.repeat(100) }] }, [
        [`<b>${'w '.repeat(500)}</b>`, 'b'],
      ]),
    ),
  /** A note showing one image of `mb` MB (t-media-huge.mjs). */
  hugeImage: (mb: number) =>
    apkg(collection11(basicModel, [['<img src="big.png">', 'b']], 'Big image'), [['big.png', hugePng(mb * MB)]]),
  manyNotes: async (count: number) => apkg(manyNotes(count)),
};
