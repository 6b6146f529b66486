import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import yauzl from 'yauzl';
import { readZipEntries } from '../extract/safe-zip';
import { protoMessages, protoNumber, protoString, readMessage } from './protobuf';
import { isZstd, zstdDecompress } from './zstd';

/** The package cannot be read: not a zip, no collection, a damaged collection, or over the unpacked-size cap. */
export class InvalidPackageError extends Error {
  override name = 'InvalidPackageError';
}

/** The collection holds database objects Anki never writes (views, triggers, virtual or unknown tables). */
export class UnexpectedSchemaError extends InvalidPackageError {
  override name = 'UnexpectedSchemaError';
}

/** The collection holds more cards than the reader was allowed (the user's room): refused before reading notes. */
export class TooManyCardsError extends InvalidPackageError {
  override name = 'TooManyCardsError';
  constructor(readonly count: number) {
    super(`the collection holds ${count} cards`);
  }
}

export interface ReadOptions {
  /** Where the collection's temporary SQLite file goes (the system's temporary folder by default). */
  workDir?: string;
  /** Cards the collection may hold at most (TooManyCardsError beyond, before any note is read). */
  maxCards?: number;
}

/** The tables Anki's schemas 11 to 18 hold, and SQLite's own statistics tables (after ANALYZE). */
const expectedTables = new Set([
  'col',
  'notes',
  'cards',
  'revlog',
  'graves',
  'deck_config',
  'config',
  'fields',
  'templates',
  'notetypes',
  'decks',
  'tags',
  'sqlite_stat1',
  'sqlite_stat4',
  'sqlite_sequence',
]);

/** Entries of the zip the reader uses: the rest is counted against the budget but not kept. */
const usedEntry = (name: string) =>
  name === 'meta' || name === 'media' || /^collection\.anki2(1b?)?$/.test(name) || /^\d{1,9}$/.test(name);

export interface AnkiNotetype {
  name: string;
  cloze: boolean;
  /** Field names in order. */
  fields: string[];
  /** Each field's tag (Anki 23.10+ marks the Image Occlusion fields so; null where none), in field order. */
  fieldTags?: (number | null)[];
  /** Anki's OriginalStockKind (2.1.62+), 0 when not recorded. */
  originalStockKind?: number;
  /** Card templates by ordinal. */
  templates: { name: string; qfmt: string; afmt: string }[];
}

export interface AnkiNote {
  id: number;
  guid: string;
  notetypeId: number;
  fields: string[];
}

export interface AnkiCard {
  noteId: number;
  deckId: number;
  ord: number;
}

export interface AnkiCollection {
  notetypes: Map<number, AnkiNotetype>;
  /** Deck names with `::` between levels. */
  decks: Map<number, string>;
  notes: Map<number, AnkiNote>;
  /** In the collection's order: by note, then template. */
  cards: AnkiCard[];
}

export interface AnkiPackage {
  collection: AnkiCollection;
  /** Media files by the name notes use. */
  media: Map<string, Buffer>;
}

const collectionNames = ['collection.anki21b', 'collection.anki21', 'collection.anki2'] as const;

/**
 * Reads an .apkg or .colpkg (a zip) in any of the three collection formats Anki has written: `collection.anki2`
 * and `collection.anki21` (schema 11, note types and decks as JSON in `col`, media map as JSON), and
 * `collection.anki21b` (zstd-compressed, schema 18 with note types, fields, templates and decks in tables; media
 * map and media files zstd-compressed, the map a protobuf). The zip goes through the zip-bomb guard; zstd output
 * counts against the same cap.
 */
export async function readAnkiPackage(
  bytes: Buffer,
  maxUnzippedBytes: number,
  options: ReadOptions = {},
): Promise<AnkiPackage> {
  let entries: Map<string, Buffer>;
  let unzipped = 0;
  try {
    entries = await readZipEntries(bytes, maxUnzippedBytes, (name) => {
      // Every entry counts against the budget, kept or not.
      return usedEntry(name);
    });
    // What the zip declared unpacks to (checked by readZipEntries) is spent; zstd output shares what is left.
    unzipped = await unzippedSize(bytes);
  } catch (error) {
    throw new InvalidPackageError(error instanceof Error ? error.message : String(error));
  }
  let budget = maxUnzippedBytes - unzipped;
  const inflate = (data: Buffer): Buffer => {
    try {
      const out = zstdDecompress(data, budget);
      budget -= out.length;
      return out;
    } catch (error) {
      throw new InvalidPackageError(`zstd: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const meta = entries.get('meta');
  let latest = false;
  if (meta) {
    try {
      latest = (protoNumber(readMessage(meta), 1) ?? 0) >= 3;
    } catch {
      throw new InvalidPackageError('unreadable meta');
    }
  }
  const collectionName = collectionNames.find((name) => entries.has(name));
  if (!collectionName) throw new InvalidPackageError('no collection in the package');
  let collectionBytes = entries.get(collectionName) as Buffer;
  if (collectionName === 'collection.anki21b' || isZstd(collectionBytes)) collectionBytes = inflate(collectionBytes);
  const collection = await readCollection(collectionBytes, options.workDir ?? os.tmpdir(), options.maxCards);

  const media = new Map<string, Buffer>();
  const mediaMap = entries.get('media');
  if (mediaMap && mediaMap.length > 0) {
    let names: [string, string][];
    try {
      if (latest || isZstd(mediaMap)) {
        const list = protoMessages(readMessage(inflate(mediaMap)), 1);
        names = list.map((entry, index) => [String(protoNumber(entry, 255) ?? index), protoString(entry, 1)]);
      } else {
        const parsed: unknown = JSON.parse(mediaMap.toString('utf8'));
        if (!parsed || typeof parsed !== 'object') throw new Error('not an object');
        names = Object.entries(parsed as Record<string, unknown>).map(([key, value]) => [key, String(value)]);
      }
    } catch (error) {
      if (error instanceof InvalidPackageError) throw error;
      throw new InvalidPackageError('unreadable media map');
    }
    for (const [zipName, name] of names) {
      const data = entries.get(zipName);
      if (!data || !name || name.includes('/') || name.includes('\\')) continue;
      media.set(name, latest || isZstd(data) ? inflate(data) : data);
    }
  }
  return { collection, media };
}

const sqliteHeader = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Opens the collection from a temporary file in `workDir` (better-sqlite3 reads files), read, then removed; the
 * import puts it beside the upload, so a worker ended mid-read leaves nothing once the upload's folder goes.
 */
async function readCollection(bytes: Buffer, workDir: string, maxCards?: number): Promise<AnkiCollection> {
  if (bytes.length < 100 || !bytes.subarray(0, 16).equals(sqliteHeader)) {
    throw new InvalidPackageError('the collection is not an SQLite database');
  }
  const file = path.join(workDir, `flashcards-anki-${randomBytes(12).toString('hex')}.sqlite`);
  await writeFile(file, bytes, { mode: 0o600 });
  try {
    const db = new SqliteDatabase(file, { fileMustExist: true });
    try {
      db.pragma('trusted_schema = OFF');
      db.pragma('query_only = ON');
      checkSchema(db);
      return readTables(db, maxCards);
    } catch (error) {
      if (error instanceof InvalidPackageError) throw error;
      throw new InvalidPackageError(`damaged collection: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      db.close();
    }
  } catch (error) {
    if (error instanceof InvalidPackageError) throw error;
    throw new InvalidPackageError(`damaged collection: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await rm(file, { force: true });
    await rm(`${file}-wal`, { force: true });
    await rm(`${file}-shm`, { force: true });
    await rm(`${file}-journal`, { force: true });
  }
}

type Row = Record<string, unknown>;

/**
 * Before any other query: the schema may hold only Anki's tables and indexes. A view or a trigger runs the package
 * author's SQL when read (an endless recursive CTE, gigabytes of zeroblob), a virtual table runs a module, and a
 * generated column computes on every read; none of them is in a collection Anki writes.
 */
function checkSchema(db: SqliteDatabase.Database): void {
  const objects = db.prepare('select type, name, tbl_name, sql from sqlite_master').all() as {
    type: string;
    name: string;
    tbl_name: string;
    sql: string | null;
  }[];
  for (const object of objects) {
    const known = expectedTables.has(object.type === 'index' ? object.tbl_name : object.name);
    const virtual = /^\s*create\s+virtual\b/i.test(object.sql ?? '');
    if (!(object.type === 'table' || object.type === 'index') || !known || virtual) {
      throw new UnexpectedSchemaError(`unexpected ${object.type} ${object.name} in the collection`);
    }
  }
  for (const object of objects) {
    if (object.type !== 'table') continue;
    const columns = db.prepare(`select hidden from pragma_table_xinfo(?)`).all(object.name) as { hidden: number }[];
    if (columns.some((column) => column.hidden !== 0)) {
      throw new UnexpectedSchemaError(`generated or hidden columns in ${object.name}`);
    }
  }
}

function readTables(db: SqliteDatabase.Database, maxCards = Number.POSITIVE_INFINITY): AnkiCollection {
  const tables = new Set(
    (db.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[]).map(
      (row) => row.name,
    ),
  );
  for (const required of ['col', 'notes', 'cards']) {
    if (!tables.has(required)) throw new InvalidPackageError(`the collection has no ${required} table`);
  }
  // Refused before a note is read when the cards would not fit the account.
  const cardCount = Number((db.prepare('select count(*) as n from cards').get() as Row).n);
  if (cardCount > maxCards) throw new TooManyCardsError(cardCount);
  const col = db.prepare('select ver, models, decks from col limit 1').get() as Row | undefined;
  if (!col) throw new InvalidPackageError('the collection has no col row');
  const schema18 = tables.has('notetypes') && tables.has('templates') && Number(col.ver) >= 15;
  const { notetypes, decks } = schema18 ? readSchema18(db) : readSchema11(col);

  // Only the notes that cards show, so that the notes read are bounded by the card count too.
  const notes = new Map<number, AnkiNote>();
  const noteRows = db.prepare('select id, guid, mid, flds from notes where id in (select nid from cards)');
  for (const row of noteRows.iterate() as Iterable<Row>) {
    const id = Number(row.id);
    notes.set(id, { id, guid: String(row.guid), notetypeId: Number(row.mid), fields: String(row.flds).split('\x1f') });
  }
  const cards: AnkiCard[] = [];
  for (const row of db.prepare('select nid, did, odid, ord from cards order by nid, ord').iterate() as Iterable<Row>) {
    const odid = Number(row.odid);
    cards.push({ noteId: Number(row.nid), deckId: odid ? odid : Number(row.did), ord: Number(row.ord) });
  }
  return { notetypes, decks, notes, cards };
}

function parseJsonObject(text: unknown, what: string): Record<string, Row> {
  try {
    const parsed: unknown = JSON.parse(String(text));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, Row>;
  } catch {
    // fall through
  }
  throw new InvalidPackageError(`unreadable ${what} in the collection`);
}

/** Schema 11: note types and decks are JSON objects in the `col` row. */
function readSchema11(col: Row): Pick<AnkiCollection, 'notetypes' | 'decks'> {
  const notetypes = new Map<number, AnkiNotetype>();
  for (const [id, model] of Object.entries(parseJsonObject(col.models, 'note types'))) {
    const fieldRows = (Array.isArray(model.flds) ? (model.flds as Row[]) : [])
      .slice()
      .sort((a, b) => Number(a.ord) - Number(b.ord));
    const fields = fieldRows.map((field) => String(field.name ?? ''));
    const fieldTags = fieldRows.map((field) => (typeof field.tag === 'number' ? field.tag : null));
    const templates = (Array.isArray(model.tmpls) ? (model.tmpls as Row[]) : [])
      .slice()
      .sort((a, b) => Number(a.ord) - Number(b.ord))
      .map((template) => ({
        name: String(template.name ?? ''),
        qfmt: String(template.qfmt ?? ''),
        afmt: String(template.afmt ?? ''),
      }));
    notetypes.set(Number(id), {
      name: String(model.name ?? ''),
      cloze: Number(model.type) === 1,
      fields,
      fieldTags,
      originalStockKind: Number(model.originalStockKind ?? 0) || 0,
      templates,
    });
  }
  const decks = new Map<number, string>();
  for (const [id, deck] of Object.entries(parseJsonObject(col.decks, 'decks'))) {
    decks.set(Number(id), String(deck.name ?? ''));
  }
  return { notetypes, decks };
}

/** Schema 18 (collection.anki21b): tables, with protobuf configs; deck names use \x1f between levels. */
function readSchema18(db: SqliteDatabase.Database): Pick<AnkiCollection, 'notetypes' | 'decks'> {
  const notetypes = new Map<number, AnkiNotetype>();
  for (const row of db.prepare('select id, name, config from notetypes').all() as Row[]) {
    const config = readMessage(row.config as Buffer);
    notetypes.set(Number(row.id), {
      name: String(row.name),
      cloze: protoNumber(config, 1) === 1,
      fields: [],
      fieldTags: [] as (number | null)[],
      originalStockKind: protoNumber(config, 9) ?? 0,
      templates: [],
    });
  }
  for (const row of db.prepare('select ntid, ord, name, config from fields order by ntid, ord').all() as Row[]) {
    const notetype = notetypes.get(Number(row.ntid));
    if (!notetype) continue;
    notetype.fields.push(String(row.name));
    notetype.fieldTags?.push(
      row.config instanceof Uint8Array ? (protoNumber(readMessage(row.config), 10) ?? null) : null,
    );
  }
  for (const row of db.prepare('select ntid, ord, name, config from templates order by ntid, ord').all() as Row[]) {
    const config = readMessage(row.config as Buffer);
    notetypes.get(Number(row.ntid))?.templates.push({
      name: String(row.name),
      qfmt: protoString(config, 1),
      afmt: protoString(config, 2),
    });
  }
  const decks = new Map<number, string>();
  for (const row of db.prepare('select id, name from decks').all() as Row[]) {
    decks.set(Number(row.id), String(row.name).split('\x1f').join('::'));
  }
  return { notetypes, decks };
}

/** What a zip's entries declare they unpack to (readZipEntries has checked they do not unpack to more). */
async function unzippedSize(bytes: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('not a zip file'));
      let total = 0;
      zip.on('entry', (entry: yauzl.Entry) => {
        total += entry.uncompressedSize;
        zip.readEntry();
      });
      zip.on('end', () => resolve(total));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}
