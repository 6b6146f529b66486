import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { htmlToPlainText } from '@flashcards/shared/card-html';
import SqliteDatabase from 'better-sqlite3';
import yazl from 'yazl';
import { schema11 } from './schema11';

export interface ApkgCard {
  /** Stable per card: the note's guid, so exporting twice gives the same notes. */
  guid: string;
  /** HTML, as Anki stores fields. */
  front: string;
  back: string;
  createdAt: number;
}

export interface ApkgInput {
  deckName: string;
  /** The cards in order, a page at a time: each page is written before the next is asked for. */
  pages: AsyncIterable<ApkgCard[]>;
  /** Files the cards' `<img src>` name, asked for once every card is written. */
  media: () => Promise<{ name: string; data: Buffer }[]>;
  now: number;
}

const css = `.card {
  font-family: arial;
  font-size: 20px;
  text-align: center;
  color: black;
  background-color: white;
}
img { max-width: 100%; }
`;

/** Anki's note checksum: the first 8 hex digits of the SHA-1 of the first field's text, as a number. */
export function fieldChecksum(html: string): number {
  return checksumOfText(htmlToPlainText(html));
}

function checksumOfText(text: string): number {
  return Number.parseInt(createHash('sha1').update(text).digest('hex').slice(0, 8), 16);
}

/** Cards written per SQLite transaction; the event loop serves other requests between two. */
const WRITE_BATCH = 500;

/**
 * Writes an .apkg Anki 2.1 and AnkiDroid import with no settings: a `collection.anki2` (schema 11) with one deck,
 * a Basic note type (Front, Back; answer `{{FrontSide}}<hr id=answer>{{Back}}`), one note and one new card per
 * card, and the images as numbered zip entries with the JSON `media` map.
 */
export async function writeApkg(input: ApkgInput): Promise<Buffer> {
  const file = path.join(os.tmpdir(), `flashcards-export-${randomBytes(12).toString('hex')}.anki2`);
  try {
    const db = new SqliteDatabase(file);
    try {
      await writeCollection(db, input);
    } finally {
      db.close();
    }
    return await zip(file, await input.media());
  } finally {
    await rm(file, { force: true });
    await rm(`${file}-journal`, { force: true });
  }
}

async function writeCollection(db: SqliteDatabase.Database, input: ApkgInput): Promise<void> {
  const { now } = input;
  const seconds = Math.floor(now / 1000);
  // Ids are epoch milliseconds in Anki; the note type and deck get fixed-width ones from the export time.
  const modelId = now;
  const deckId = now + 1;
  // A private temporary file: no journal to keep.
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec(schema11);
  const model = {
    id: modelId,
    name: 'Basic',
    type: 0,
    mod: seconds,
    usn: -1,
    sortf: 0,
    did: deckId,
    tmpls: [
      {
        name: 'Card 1',
        ord: 0,
        qfmt: '{{Front}}',
        afmt: '{{FrontSide}}\n\n<hr id=answer>\n\n{{Back}}',
        did: null,
        bqfmt: '',
        bafmt: '',
      },
    ],
    flds: ['Front', 'Back'].map((name, ord) => ({
      name,
      ord,
      sticky: false,
      rtl: false,
      font: 'Arial',
      size: 20,
      media: [],
    })),
    css,
    latexPre:
      '\\documentclass[12pt]{article}\n\\special{papersize=3in,5in}\n\\usepackage[utf8]{inputenc}\n\\usepackage{amssymb,amsmath}\n\\pagestyle{empty}\n\\setlength{\\parindent}{0in}\n\\begin{document}\n',
    latexPost: '\\end{document}',
    tags: [],
    vers: [],
    req: [[0, 'any', [0]]],
  };
  const deckBase = {
    mod: seconds,
    usn: -1,
    lrnToday: [0, 0],
    revToday: [0, 0],
    newToday: [0, 0],
    timeToday: [0, 0],
    collapsed: false,
    browserCollapsed: false,
    desc: '',
    dyn: 0,
    conf: 1,
    extendNew: 0,
    extendRev: 0,
  };
  const decks = {
    '1': { ...deckBase, id: 1, name: 'Default' },
    [String(deckId)]: { ...deckBase, id: deckId, name: input.deckName },
  };
  const dconf = {
    '1': {
      id: 1,
      name: 'Default',
      mod: 0,
      usn: 0,
      maxTaken: 60,
      autoplay: true,
      timer: 0,
      replayq: true,
      dyn: false,
      new: { bury: false, delays: [1, 10], initialFactor: 2500, ints: [1, 4, 0], order: 1, perDay: 20 },
      rev: { bury: false, ease4: 1.3, ivlFct: 1, maxIvl: 36500, perDay: 200, hardFactor: 1.2 },
      lapse: { delays: [10], leechAction: 1, leechFails: 8, minInt: 1, mult: 0 },
    },
  };
  const conf = {
    activeDecks: [1],
    curDeck: 1,
    newSpread: 0,
    collapseTime: 1200,
    timeLim: 0,
    estTimes: true,
    dueCounts: true,
    curModel: modelId,
    nextPos: 1,
    sortType: 'noteFld',
    sortBackwards: false,
    addToCur: true,
  };
  const insertNote = db.prepare("INSERT INTO notes VALUES (?, ?, ?, ?, -1, '', ?, ?, ?, 0, '')");
  const insertCard = db.prepare("INSERT INTO cards VALUES (?, ?, ?, 0, ?, -1, 0, 0, ?, 0, 0, 0, 0, 0, 0, 0, 0, '')");
  // Note and card ids must be unique: creation times, bumped past any repeat.
  let lastId = 0;
  const nextId = (wanted: number) => {
    lastId = Math.max(wanted, lastId + 1);
    return lastId;
  };
  let written = 0;
  const writeBatch = db.transaction((batch: ApkgCard[]) => {
    for (const card of batch) {
      const noteId = nextId(card.createdAt);
      const sortText = htmlToPlainText(card.front);
      insertNote.run(
        noteId,
        card.guid,
        modelId,
        seconds,
        `${card.front}\x1f${card.back}`,
        sortText,
        checksumOfText(sortText),
      );
      written += 1;
      insertCard.run(nextId(card.createdAt), noteId, deckId, seconds, written);
    }
  });
  for await (const page of input.pages) {
    for (let start = 0; start < page.length; start += WRITE_BATCH) {
      writeBatch(page.slice(start, start + WRITE_BATCH));
      await nextTurn();
    }
  }
  conf.nextPos = written + 1;
  db.prepare('INSERT INTO col VALUES (1, ?, ?, ?, 11, 0, 0, 0, ?, ?, ?, ?, ?)').run(
    seconds,
    now,
    now,
    JSON.stringify(conf),
    JSON.stringify({ [String(modelId)]: model }),
    JSON.stringify(decks),
    JSON.stringify(dconf),
    '{}',
  );
}

/**
 * The package: the collection read from its file in chunks (yazl deflates it on the thread pool and sums its CRC a
 * chunk at a time), the images stored as they are (already compressed), and the media map naming them by index.
 */
function zip(collectionFile: string, media: { name: string; data: Buffer }[]): Promise<Buffer> {
  const archive = new yazl.ZipFile();
  archive.addReadStream(createReadStream(collectionFile), 'collection.anki2');
  media.forEach((file, index) => {
    archive.addBuffer(file.data, String(index), { compress: false });
  });
  const map = Object.fromEntries(media.map((file, index) => [String(index), file.name]));
  archive.addBuffer(Buffer.from(JSON.stringify(map)), 'media');
  archive.end();
  return buffer(archive.outputStream);
}
