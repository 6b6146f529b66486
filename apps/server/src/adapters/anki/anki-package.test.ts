import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  basic,
  basicNote,
  buildPackage,
  cloze,
  type PackageFormat,
  pngBytes,
  proto,
  rawZstd,
  type TestPackage,
  zipFiles,
} from '../../../test/support/anki-packages';
import { readZipEntries } from '../extract/safe-zip';
import { InvalidPackageError, readAnkiPackage, TooManyCardsError, UnexpectedSchemaError } from './anki-package';

// The reader of Anki packages on its own: what it reads from each of the three collection formats, and each refusal
// with its reason (the import turns them into the API's errors): not a collection, a schema Anki never writes, more
// cards than the room, unreadable parts.

const cap = 16 * 1024 * 1024;
const workDir = mkdtempSync(path.join(os.tmpdir(), 'anki-package-test-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

const tagged = { ...cloze, fieldTags: [1, 2], originalStockKind: 6 };

/** Two note types, a subdeck, three cards (one moved to a filtered deck, so its home deck is `odid`), an image. */
function sample(sql = ''): TestPackage {
  return {
    notetypes: [basic, tagged],
    decks: { 1: 'Default', 2: 'Languages::Japanese' },
    notes: [
      { ...basicNote(20, 'guidB', ['front', 'back'], 2) },
      { id: 10, guid: 'guidC', notetypeId: tagged.id, fields: ['{{c1::a}} {{c2::b}}', 'x'], cards: [] },
    ],
    media: { 'a.png': pngBytes },
    // Cards of note 10 written out of order; note 30 has no card; the first card sits in filtered deck 9.
    sql: `insert into cards values (11, 10, 1, 1, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '');
      insert into cards values (12, 10, 1, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '');
      update cards set did = 9, odid = 2 where nid = 20;
      insert into notes values (30, 'orphan', ${basic.id}, 0, -1, '', 'no${'\x1f'}card', '', 0, 0, '');
      ${sql}`,
  };
}

async function read(pkg: TestPackage, format: PackageFormat = 'anki21', maxCards?: number) {
  return readAnkiPackage(await buildPackage(pkg, format), cap, { workDir, maxCards });
}

async function refusal(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(InvalidPackageError);
  return error as Error;
}

/** The collection (SQLite bytes) of a package built in schema 11. */
async function collectionOf(pkg: TestPackage): Promise<Buffer> {
  return (await readZipEntries(await buildPackage(pkg, 'anki2'), cap)).get('collection.anki2') as Buffer;
}

describe('readAnkiPackage reads', () => {
  for (const format of ['anki2', 'anki21', 'anki21b'] as const) {
    it(`a collection.${format}: note types, decks, the notes cards show, cards by note then template, media`, async () => {
      const { collection, media } = await read(sample(), format);
      expect(collection.notetypes.get(basic.id)).toEqual({
        name: 'Basic',
        cloze: false,
        fields: ['Front', 'Back'],
        fieldTags: [null, null],
        originalStockKind: 0,
        templates: basic.templates,
      });
      expect(collection.notetypes.get(tagged.id)).toEqual({
        name: 'Cloze',
        cloze: true,
        fields: ['Text', 'Back Extra'],
        fieldTags: [1, 2],
        originalStockKind: 6,
        templates: cloze.templates,
      });
      expect([...collection.decks]).toEqual([
        [1, 'Default'],
        [2, 'Languages::Japanese'],
      ]);
      expect([...collection.notes.values()].sort((a, b) => a.id - b.id)).toEqual([
        { id: 10, guid: 'guidC', notetypeId: tagged.id, fields: ['{{c1::a}} {{c2::b}}', 'x'] },
        { id: 20, guid: 'guidB', notetypeId: basic.id, fields: ['front', 'back'] },
      ]);
      expect(collection.cards).toEqual([
        { noteId: 10, deckId: 1, ord: 0 },
        { noteId: 10, deckId: 1, ord: 1 },
        { noteId: 20, deckId: 2, ord: 0 },
      ]);
      expect([...media]).toEqual([['a.png', pngBytes]]);
      // The temporary copy of the collection is gone.
      expect(readdirSync(workDir)).toEqual([]);
    });
  }

  it('schema 11 fields and templates in their ordinal order, whatever order the JSON lists them in', async () => {
    const models = {
      [basic.id]: {
        name: 'Two',
        type: 0,
        flds: [
          { name: 'B', ord: 1, tag: 4 },
          { name: 'A', ord: 0 },
        ],
        tmpls: [
          { name: 'second', ord: 1, qfmt: '{{B}}', afmt: 'b' },
          { name: 'first', ord: 0, qfmt: '{{A}}', afmt: 'a' },
        ],
      },
      '5': { type: 1, flds: 'not a list' },
    };
    const decks = { 1: { name: 'Top' }, 3: {} };
    const pkg = sample(`update col set models = '${JSON.stringify(models)}', decks = '${JSON.stringify(decks)}';`);
    const { collection } = await read(pkg, 'anki2');
    expect(collection.notetypes.get(basic.id)).toEqual({
      name: 'Two',
      cloze: false,
      fields: ['A', 'B'],
      fieldTags: [null, 4],
      originalStockKind: 0,
      templates: [
        { name: 'first', qfmt: '{{A}}', afmt: 'a' },
        { name: 'second', qfmt: '{{B}}', afmt: 'b' },
      ],
    });
    expect(collection.notetypes.get(5)).toEqual({
      name: '',
      cloze: true,
      fields: [],
      fieldTags: [],
      originalStockKind: 0,
      templates: [],
    });
    expect([...collection.decks]).toEqual([
      [1, 'Top'],
      [3, ''],
    ]);
  });

  it('the newest collection a package holds, and the JSON or protobuf media map as the meta says', async () => {
    const older = await collectionOf({
      notetypes: [basic],
      decks: { 1: 'D' },
      notes: [basicNote(1, 'old', ['o', 'o'])],
    });
    const newer = await collectionOf({
      notetypes: [basic],
      decks: { 1: 'D' },
      notes: [basicNote(1, 'new', ['n', 'n'])],
    });
    const guid = async (files: [string, Buffer][]) =>
      [...(await readAnkiPackage(await zipFiles(files), cap, { workDir })).collection.notes.values()][0]?.guid;
    expect(
      await guid([
        ['collection.anki2', older],
        ['collection.anki21', newer],
      ]),
    ).toBe('new');
    expect(
      await guid([
        ['collection.anki21', older],
        ['collection.anki21b', rawZstd(newer)],
      ]),
    ).toBe('new');
    // A zstd collection is inflated whatever its name.
    expect(await guid([['collection.anki2', rawZstd(newer)]])).toBe('new');

    // Meta version 2: a JSON map, media files as they are; the 255th field of a protobuf entry names its zip entry.
    const media = async (meta: number, map: Buffer, files: [string, Buffer][]) =>
      readAnkiPackage(
        await zipFiles([['collection.anki21', newer], ['meta', proto([[1, meta]])], ['media', map], ...files]),
        cap,
        { workDir },
      );
    const json = await media(2, Buffer.from('{"0":"a.png","1":"../b.png","2":"c\\\\d.png","3":"","4":"gone.png"}'), [
      ['0', pngBytes],
      ['1', pngBytes],
      ['2', pngBytes],
      ['3', pngBytes],
    ]);
    expect([...json.media.keys()]).toEqual(['a.png']);
    const entry = proto([
      [1, 'named.png'],
      [255, 7],
    ]);
    const latest = await media(3, rawZstd(proto([[1, entry]])), [['7', rawZstd(pngBytes)]]);
    expect([...latest.media]).toEqual([['named.png', pngBytes]]);
    // Meta version 3 means zstd: a map that is not zstd is refused; below 3 the same bytes are read as JSON.
    const plainMap = proto([[1, proto([[1, 'x.png']])]]);
    expect((await refusal(media(3, plainMap, []))).message).toMatch(/^zstd: /);
    expect((await refusal(media(2, plainMap, []))).message).toBe('unreadable media map');
    // An empty map means no media.
    expect((await media(3, Buffer.alloc(0), [['0', pngBytes]])).media.size).toBe(0);
  });

  it('schema 18 tables only from version 15 on, and only when the note type tables are there', async () => {
    const at15 = await read(sample('update col set ver = 15;'), 'anki21b');
    expect(at15.collection.notetypes.get(basic.id)?.name).toBe('Basic');
    const at14 = await refusal(read(sample('update col set ver = 14;'), 'anki21b'));
    expect(at14.message).toBe('unreadable note types in the collection');
    const noTemplates = await refusal(read(sample('drop table templates;'), 'anki21b'));
    expect(noTemplates.message).toBe('unreadable note types in the collection');
    // A schema 11 collection with a high version number is still read from its JSON.
    const high = await read(sample('update col set ver = 18;'), 'anki21');
    expect(high.collection.notetypes.get(tagged.id)?.fieldTags).toEqual([1, 2]);
  });
});

describe('readAnkiPackage refuses', () => {
  it('what is not a zip, a zip without a collection, and a collection that is not SQLite', async () => {
    await refusal(readAnkiPackage(Buffer.from('not a zip at all'), cap, { workDir }));
    const none = await refusal(readAnkiPackage(await zipFiles([['media', Buffer.from('{}')]]), cap, { workDir }));
    expect(none.message).toBe('no collection in the package');
    const header = Buffer.from('SQLite format 3\0', 'latin1');
    for (const bytes of [Buffer.alloc(200), Buffer.concat([header, Buffer.alloc(83)])]) {
      const error = await refusal(readAnkiPackage(await zipFiles([['collection.anki2', bytes]]), cap, { workDir }));
      expect(error.message).toBe('the collection is not an SQLite database');
    }
    const damaged = await refusal(
      readAnkiPackage(await zipFiles([['collection.anki2', Buffer.concat([header, Buffer.alloc(84, 7)])]]), cap, {
        workDir,
      }),
    );
    expect(damaged.message).toMatch(/^damaged collection: /);
    expect(readdirSync(workDir)).toEqual([]);
  });

  it('views, triggers, unknown and virtual tables, generated columns; Anki’s own indexes and statistics pass', async () => {
    const cases: [string, string][] = [
      ['create view v as select 1;', 'unexpected view v in the collection'],
      ['create trigger t after insert on notes begin select 1; end;', 'unexpected trigger t in the collection'],
      ['create table extra (a);', 'unexpected table extra in the collection'],
      ['create virtual table tags using fts5(a);', 'unexpected table tags in the collection'],
      ['create table tags (a int, b int generated always as (a + 1));', 'generated or hidden columns in tags'],
    ];
    for (const [sql, message] of cases) {
      const error = await refusal(read(sample(sql)));
      expect(error).toBeInstanceOf(UnexpectedSchemaError);
      expect(error.message).toBe(message);
    }
    const fine = await read(sample('create index own on notes (guid); create table tags (tag text); analyze;'));
    expect(fine.collection.cards).toHaveLength(3);
  });

  it('a collection without its col, notes or cards table, or without a col row', async () => {
    for (const table of ['col', 'notes', 'cards']) {
      const error = await refusal(read(sample(`drop table ${table};`)));
      expect(error.message).toBe(`the collection has no ${table} table`);
    }
    expect((await refusal(read(sample('delete from col;')))).message).toBe('the collection has no col row');
  });

  it('note types or decks that are not a JSON object', async () => {
    for (const [sql, message] of [
      ["update col set models = 'not json';", 'unreadable note types in the collection'],
      ["update col set models = '[]';", 'unreadable note types in the collection'],
      ["update col set decks = 'null';", 'unreadable decks in the collection'],
    ] as const) {
      expect((await refusal(read(sample(sql), 'anki2'))).message).toBe(message);
    }
  });

  it('more cards than the room, counting every card, before reading a note', async () => {
    expect((await read(sample(), 'anki21', 3)).collection.cards).toHaveLength(3);
    const error = await refusal(read(sample(), 'anki21', 2));
    expect(error).toBeInstanceOf(TooManyCardsError);
    expect((error as TooManyCardsError).count).toBe(3);
    expect(error.message).toBe('the collection holds 3 cards');
  });

  it('an unreadable meta or media map', async () => {
    const collection = await collectionOf(sample());
    const withParts = async (meta: Buffer | null, map: Buffer) =>
      readAnkiPackage(
        await zipFiles([
          ['collection.anki21', collection],
          ...(meta ? [['meta', meta] as [string, Buffer]] : []),
          ['media', map],
        ]),
        cap,
        { workDir },
      );
    expect((await refusal(withParts(Buffer.from([0x0a, 0x05]), Buffer.from('{}')))).message).toBe('unreadable meta');
    for (const map of ['null', '5', '{"0":']) {
      expect((await refusal(withParts(null, Buffer.from(map)))).message).toBe('unreadable media map');
    }
  });
});
