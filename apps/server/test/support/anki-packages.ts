import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { schema11 } from '../../src/adapters/anki/schema11';
import { zipFiles } from '../../src/adapters/anki/zip-files';

export { zipFiles };

/**
 * Builds Anki packages for tests, in each of the three collection formats Anki has written, following Anki's own
 * layouts (rslib/src/storage/schema11.sql, the schema 18 upgrades, proto/anki/import_export.proto).
 */

export interface TestNotetype {
  id: number;
  name: string;
  cloze?: boolean;
  fields: string[];
  /** Field tags (Anki 23.10+: the Image Occlusion fields), in field order. */
  fieldTags?: number[];
  /** Anki's OriginalStockKind (6: Image Occlusion). */
  originalStockKind?: number;
  templates: { name: string; qfmt: string; afmt: string }[];
}

export interface TestNote {
  id: number;
  guid: string;
  notetypeId: number;
  fields: string[];
  /** One card per entry: its ordinal and Anki deck id. */
  cards: { ord: number; deckId: number }[];
}

export interface TestPackage {
  notetypes: TestNotetype[];
  /** Deck id → name (`A::B` for a subdeck). */
  decks: Record<number, string>;
  notes: TestNote[];
  /** Media file name → bytes. */
  media?: Record<string, Buffer>;
  /** SQL run on the collection once written (a hostile package's views, triggers, odd tables). */
  sql?: string;
}

export type PackageFormat = 'anki2' | 'anki21' | 'anki21b';

export const basic: TestNotetype = {
  id: 1_600_000_000_001,
  name: 'Basic',
  fields: ['Front', 'Back'],
  templates: [{ name: 'Card 1', qfmt: '{{Front}}', afmt: '{{FrontSide}}\n\n<hr id=answer>\n\n{{Back}}' }],
};

export const reversed: TestNotetype = {
  id: 1_600_000_000_002,
  name: 'Basic (and reversed card)',
  fields: ['Front', 'Back'],
  templates: [
    { name: 'Card 1', qfmt: '{{Front}}', afmt: '{{FrontSide}}\n\n<hr id=answer>\n\n{{Back}}' },
    { name: 'Card 2', qfmt: '{{Back}}', afmt: '{{FrontSide}}\n\n<hr id=answer>\n\n{{Front}}' },
  ],
};

export const cloze: TestNotetype = {
  id: 1_600_000_000_003,
  name: 'Cloze',
  cloze: true,
  fields: ['Text', 'Back Extra'],
  templates: [{ name: 'Cloze', qfmt: '{{cloze:Text}}', afmt: '{{cloze:Text}}<br>\n{{Back Extra}}' }],
};

/** A custom note type: three templates, conditional sections, a `text:` filter and furigana. */
export const vocabulary: TestNotetype = {
  id: 1_600_000_000_004,
  name: 'Vocabulary',
  fields: ['Word', 'Reading', 'Meaning', 'Example', 'Picture'],
  templates: [
    {
      name: 'Recognize',
      qfmt: '<div class="word">{{Word}}</div>{{#Picture}}<div>{{Picture}}</div>{{/Picture}}',
      afmt: '{{FrontSide}}<hr id=answer>{{furigana:Reading}}<br>{{Meaning}}{{#Example}}<br><i>{{Example}}</i>{{/Example}}{{^Example}}<br>(no example){{/Example}}',
    },
    {
      name: 'Recall',
      qfmt: '{{text:Meaning}}',
      afmt: '{{FrontSide}}<hr id=answer>{{Word}}',
    },
    {
      name: 'Example only',
      qfmt: '{{#Example}}Complete: {{Example}}{{/Example}}',
      afmt: '{{FrontSide}}<hr id=answer>{{Word}}',
    },
  ],
};

/** A tiny real PNG (1×1, red). */
export const pngBytes = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC',
  'base64',
);

/** Notes covering the contract's cases: basic, reversed, cloze, custom note type, subdeck, image, sound. */
export function samplePackage(): TestPackage {
  const top = 1_700_000_000_001;
  const sub = 1_700_000_000_002;
  return {
    notetypes: [basic, reversed, cloze, vocabulary],
    decks: { 1: 'Default', [top]: 'Languages', [sub]: 'Languages::Japanese' },
    notes: [
      noteInDeck(top, 1, {
        id: 1,
        guid: 'guidBasic1',
        notetypeId: basic.id,
        fields: ['What is <b>H<sub>2</sub>O</b>?', 'Water [sound:water.mp3]'],
      }),
      noteInDeck(top, 2, { id: 2, guid: 'guidRev1', notetypeId: reversed.id, fields: ['Paris', 'Capital of France'] }),
      noteInDeck(top, 2, {
        id: 3,
        guid: 'guidCloze1',
        notetypeId: cloze.id,
        fields: ['{{c1::Mitochondria}} is the {{c2::powerhouse::what?}} of the cell, \\(E=mc^2\\)', 'Biology'],
      }),
      noteInDeck(sub, 2, {
        id: 4,
        guid: 'guidVocab1',
        notetypeId: vocabulary.id,
        fields: ['猫', '猫[ねこ]', 'cat', '', '<img src="cat.png">'],
      }),
      noteInDeck(sub, 3, {
        id: 5,
        guid: 'guidVocab2',
        notetypeId: vocabulary.id,
        fields: ['犬', '犬[いぬ]', 'dog', 'The dog barks.', ''],
      }),
      noteInDeck(top, 1, { id: 6, guid: 'guidEmpty1', notetypeId: basic.id, fields: ['<br>', 'an answer to nothing'] }),
    ],
    media: { 'cat.png': pngBytes, 'water.mp3': Buffer.from('ID3 not really audio') },
  };
}

/** A Basic note (front, back) with its one card in deck `deckId`. */
export function basicNote(id: number, guid: string, fields: [string, string], deckId = 1): TestNote {
  return { id, guid, notetypeId: basic.id, fields, cards: [{ ord: 0, deckId }] };
}

/** A note whose `count` cards (ordinals 0, 1, …) all sit in one deck. */
function noteInDeck(deckId: number, count: number, note: Omit<TestNote, 'cards'>): TestNote {
  return { ...note, cards: Array.from({ length: count }, (_, ord) => ({ ord, deckId })) };
}

/** Writes a package's collection in the chosen format and zips it with its media, as Anki does. */
export async function buildPackage(pkg: TestPackage, format: PackageFormat = 'anki21'): Promise<Buffer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'anki-fixture-'));
  try {
    const file = path.join(dir, 'collection');
    const db = new SqliteDatabase(file);
    if (format === 'anki21b') writeSchema18(db, pkg);
    else writeSchema11(db, pkg);
    if (pkg.sql) db.exec(pkg.sql);
    db.close();
    const collection = readFileSync(file);
    const files: [string, Buffer][] = [];
    const media = pkg.media ?? {};
    const mediaNames = Object.keys(media);
    if (format === 'anki21b') {
      files.push(['collection.anki21b', rawZstd(collection)]);
      // A legacy dummy collection sits beside it in real packages.
      files.push(['collection.anki2', Buffer.from('not read')]);
      files.push(['meta', proto([[1, 3]])]);
      const entries = mediaNames.map((name) =>
        proto([
          [1, name],
          [2, media[name]?.length ?? 0],
        ]),
      );
      files.push(['media', rawZstd(proto(entries.map((entry) => [1, entry])))]);
      mediaNames.forEach((name, index) => {
        files.push([String(index), rawZstd(media[name] as Buffer)]);
      });
    } else {
      files.push([format === 'anki21' ? 'collection.anki21' : 'collection.anki2', collection]);
      files.push(['media', Buffer.from(JSON.stringify(Object.fromEntries(mediaNames.map((n, i) => [String(i), n]))))]);
      mediaNames.forEach((name, index) => {
        files.push([String(index), media[name] as Buffer]);
      });
    }
    return await zipFiles(files);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function insertNotesAndCards(db: SqliteDatabase.Database, pkg: TestPackage): void {
  const note = db.prepare("INSERT INTO notes VALUES (?, ?, ?, 0, -1, '', ?, ?, 0, 0, '')");
  const card = db.prepare("INSERT INTO cards VALUES (?, ?, ?, ?, 0, -1, 0, 0, ?, 0, 0, 0, 0, 0, 0, 0, 0, '')");
  let cardId = 1;
  db.transaction(() => {
    for (const n of pkg.notes) {
      note.run(n.id, n.guid, n.notetypeId, n.fields.join('\x1f'), n.fields[0] ?? '');
      for (const c of n.cards) card.run(cardId++, n.id, c.deckId, c.ord, cardId);
    }
  })();
}

function writeSchema11(db: SqliteDatabase.Database, pkg: TestPackage): void {
  db.exec(schema11);
  const models = Object.fromEntries(
    pkg.notetypes.map((nt) => [
      String(nt.id),
      {
        id: nt.id,
        name: nt.name,
        type: nt.cloze ? 1 : 0,
        flds: nt.fields.map((name, ord) => ({ name, ord, ...(nt.fieldTags ? { tag: nt.fieldTags[ord] } : {}) })),
        tmpls: nt.templates.map((t, ord) => ({ ...t, ord })),
        css: '',
        ...(nt.originalStockKind ? { originalStockKind: nt.originalStockKind } : {}),
      },
    ]),
  );
  const decks = Object.fromEntries(Object.entries(pkg.decks).map(([id, name]) => [id, { id: Number(id), name }]));
  db.prepare("INSERT INTO col VALUES (1, 0, 0, 0, 11, 0, 0, 0, '{}', ?, ?, '{}', '{}')").run(
    JSON.stringify(models),
    JSON.stringify(decks),
  );
  insertNotesAndCards(db, pkg);
}

function writeSchema18(db: SqliteDatabase.Database, pkg: TestPackage): void {
  db.exec(schema11);
  db.exec(`
    CREATE TABLE notetypes (id integer NOT NULL PRIMARY KEY, name text NOT NULL, mtime_secs integer NOT NULL,
      usn integer NOT NULL, config blob NOT NULL);
    CREATE TABLE fields (ntid integer NOT NULL, ord integer NOT NULL, name text NOT NULL, config blob NOT NULL,
      PRIMARY KEY (ntid, ord)) without rowid;
    CREATE TABLE templates (ntid integer NOT NULL, ord integer NOT NULL, name text NOT NULL,
      mtime_secs integer NOT NULL, usn integer NOT NULL, config blob NOT NULL, PRIMARY KEY (ntid, ord)) without rowid;
    CREATE TABLE decks (id integer PRIMARY KEY NOT NULL, name text NOT NULL, mtime_secs integer NOT NULL,
      usn integer NOT NULL, common blob NOT NULL, kind blob NOT NULL);
  `);
  db.prepare("INSERT INTO col VALUES (1, 0, 0, 0, 18, 0, 0, 0, '', '', '', '', '')").run();
  for (const nt of pkg.notetypes) {
    db.prepare('INSERT INTO notetypes VALUES (?, ?, 0, -1, ?)').run(
      nt.id,
      nt.name,
      proto([
        [1, nt.cloze ? 1 : 0],
        [3, '.card {}'],
        ...(nt.originalStockKind ? [[9, nt.originalStockKind] as [number, number]] : []),
      ]),
    );
    nt.fields.forEach((name, ord) => {
      const tag = nt.fieldTags?.[ord];
      db.prepare('INSERT INTO fields VALUES (?, ?, ?, ?)').run(
        nt.id,
        ord,
        name,
        tag === undefined ? Buffer.alloc(0) : proto([[10, tag]]),
      );
    });
    nt.templates.forEach((t, ord) => {
      db.prepare('INSERT INTO templates VALUES (?, ?, ?, 0, -1, ?)').run(
        nt.id,
        ord,
        t.name,
        proto([
          [1, t.qfmt],
          [2, t.afmt],
        ]),
      );
    });
  }
  for (const [id, name] of Object.entries(pkg.decks)) {
    db.prepare('INSERT INTO decks VALUES (?, ?, 0, -1, ?, ?)').run(
      Number(id),
      name.split('::').join('\x1f'),
      Buffer.alloc(0),
      Buffer.alloc(0),
    );
  }
  insertNotesAndCards(db, pkg);
}

/** A protobuf message from (field, value) pairs: numbers as varints, strings and buffers length-delimited. */
export function proto(fields: [number, number | string | Buffer][]): Buffer {
  const out: number[] = [];
  const varint = (value: number) => {
    let v = value;
    while (v >= 0x80) {
      out.push((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    out.push(v);
  };
  for (const [field, value] of fields) {
    if (typeof value === 'number') {
      varint(field * 8);
      varint(value);
    } else {
      const bytes = typeof value === 'string' ? Buffer.from(value) : value;
      varint(field * 8 + 2);
      varint(bytes.length);
      out.push(...bytes);
    }
  }
  return Buffer.from(out);
}

/**
 * A valid zstd frame made of raw (stored) blocks: every zstd decoder reads it. Enough for tests, where the point
 * is the format, not the ratio.
 */
export function rawZstd(data: Buffer): Buffer {
  const parts: Buffer[] = [Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38])];
  const max = 128 * 1024;
  let at = 0;
  do {
    const size = Math.min(max, data.length - at);
    const last = at + size >= data.length ? 1 : 0;
    const header = (size << 3) | last; // block type 0: raw
    parts.push(Buffer.from([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff]));
    parts.push(data.subarray(at, at + size));
    at += size;
  } while (at < data.length);
  return Buffer.concat(parts);
}

export function randomGuid(): string {
  return randomBytes(8).toString('base64url');
}
