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
import { imageOcclusionFieldTags, imageOcclusionStockKind } from './image-occlusion';
import { schema11 } from './schema11';

/** The note types an export writes, each as Anki's stock note type of the same name. */
export type ApkgNoteType = 'basic' | 'reversed' | 'cloze' | 'occlusion';

export interface ApkgNote {
  /** Stable per note, so exporting twice gives the same notes (Anki then updates rather than duplicates). */
  guid: string;
  type: ApkgNoteType;
  /**
   * HTML, as Anki stores fields, in the stock note type's order: Front, Back; Text, Back Extra; or Occlusion, Image,
   * Header, Back Extra, Comments.
   */
  fields: string[];
  /** The ordinals of the note's cards: 0 (and 1, the reverse) for Basic types, cloze number − 1 for the others. */
  ords: number[];
  createdAt: number;
}

export interface ApkgInput {
  deckName: string;
  /** The notes in order, a page at a time: each page is written before the next is asked for. */
  pages: AsyncIterable<ApkgNote[]>;
  /** Files the notes' `<img src>` name, asked for once every note is written. */
  media: () => Promise<{ name: string; data: Buffer }[]>;
  now: number;
}

/** Anki's default card styling (rslib/src/notetype/styling.css), and the cloze styling Cloze note types add. */
const css = `.card {
    font-family: arial;
    font-size: 20px;
    line-height: 1.5;
    text-align: center;
    color: black;
    background-color: white;
}
`;
const clozeCss = `.cloze {
    font-weight: bold;
    color: blue;
}
.nightMode .cloze {
    color: lightblue;
}
`;
const latexPre =
  '\\documentclass[12pt]{article}\n\\special{papersize=3in,5in}\n\\usepackage[utf8]{inputenc}\n\\usepackage{amssymb,amsmath}\n\\pagestyle{empty}\n\\setlength{\\parindent}{0in}\n\\begin{document}\n';

interface StockNotetype {
  name: string;
  /** 0 standard, 1 cloze. */
  type: 0 | 1;
  /** Anki's OriginalStockKind (proto/anki/notetypes.proto): 1 Basic, 2 Basic (and reversed card), 5 Cloze. */
  originalStockKind: number;
  fields: string[];
  /** Field tags Anki finds fields by (Image Occlusion's ImageOcclusionField), and which fields it keeps undeletable. */
  fieldTags?: { tag: number; preventDeletion: boolean }[];
  templates: { name: string; qfmt: string; afmt: string }[];
  /** Which fields each template needs (schema 11 `req`), for the Anki versions that still read it. */
  req: [number, 'any', number[]][];
}

const answerRule = (field: string) => `{{FrontSide}}\n\n<hr id=answer>\n\n{{${field}}}`;

/**
 * Anki's Image Occlusion template (rslib/src/image_occlusion/notetype.rs, in English): the clozes hidden, the image
 * in a container whose canvas Anki's reviewer draws the masks on.
 */
const occlusionQuestion = `{{#Header}}<div>{{Header}}</div>{{/Header}}
<div style="display: none">{{cloze:Occlusion}}</div>
<div id="err"></div>
<div id="image-occlusion-container">
    {{Image}}
    <canvas id="image-occlusion-canvas"></canvas>
</div>
<script>
try {
    anki.imageOcclusion.setup();
} catch (exc) {
    document.getElementById("err").innerHTML = \`Error loading image occlusion. Is your Anki version up to date?<br><br>\${exc}\`;
}
</script>
`;
const occlusionAnswer = `${occlusionQuestion}
<div><button id="toggle">Toggle Masks</button></div>
{{#Back Extra}}<div>{{Back Extra}}</div>{{/Back Extra}}
`;
/** The mask colours Anki's reviewer reads from the canvas, and the card styling. */
const occlusionCss = `#image-occlusion-canvas {
    --inactive-shape-color: #ffeba2;
    --active-shape-color: #ff8e8e;
    --inactive-shape-border: 1px #212121;
    --active-shape-border: 1px #212121;
    --highlight-shape-color: #ff8e8e00;
    --highlight-shape-border: 1px #ff8e8e;
}

${css}`;

/** Anki's stock note types in English (rslib/src/notetype/stock.rs and image_occlusion/notetype.rs). */
export const stockNotetypes: Record<ApkgNoteType, StockNotetype> = {
  basic: {
    name: 'Basic',
    type: 0,
    originalStockKind: 1,
    fields: ['Front', 'Back'],
    templates: [{ name: 'Card 1', qfmt: '{{Front}}', afmt: answerRule('Back') }],
    req: [[0, 'any', [0]]],
  },
  reversed: {
    name: 'Basic (and reversed card)',
    type: 0,
    originalStockKind: 2,
    fields: ['Front', 'Back'],
    templates: [
      { name: 'Card 1', qfmt: '{{Front}}', afmt: answerRule('Back') },
      { name: 'Card 2', qfmt: '{{Back}}', afmt: answerRule('Front') },
    ],
    req: [
      [0, 'any', [0]],
      [1, 'any', [1]],
    ],
  },
  cloze: {
    name: 'Cloze',
    type: 1,
    originalStockKind: 5,
    fields: ['Text', 'Back Extra'],
    templates: [{ name: 'Cloze', qfmt: '{{cloze:Text}}', afmt: '{{cloze:Text}}<br>\n{{Back Extra}}' }],
    req: [[0, 'any', [0]]],
  },
  occlusion: {
    name: 'Image Occlusion',
    type: 1,
    originalStockKind: imageOcclusionStockKind,
    fields: ['Occlusion', 'Image', 'Header', 'Back Extra', 'Comments'],
    fieldTags: [
      { tag: imageOcclusionFieldTags.occlusions, preventDeletion: true },
      { tag: imageOcclusionFieldTags.image, preventDeletion: true },
      { tag: imageOcclusionFieldTags.header, preventDeletion: true },
      { tag: imageOcclusionFieldTags.backExtra, preventDeletion: true },
      { tag: imageOcclusionFieldTags.comments, preventDeletion: false },
    ],
    templates: [{ name: 'Image Occlusion', qfmt: occlusionQuestion, afmt: occlusionAnswer }],
    req: [[0, 'any', [0]]],
  },
};

const exportedTypes = Object.keys(stockNotetypes) as ApkgNoteType[];

/** Anki's note checksum: the first 8 hex digits of the SHA-1 of the first field's text, as a number. */
export function fieldChecksum(html: string): number {
  return checksumOfText(htmlToPlainText(html));
}

function checksumOfText(text: string): number {
  return Number.parseInt(createHash('sha1').update(text).digest('hex').slice(0, 8), 16);
}

/** Notes written per SQLite transaction; the event loop serves other requests between two. */
const WRITE_BATCH = 500;

/**
 * Writes an .apkg Anki 2.1 and AnkiDroid import with no settings: a `collection.anki2` (schema 11) with one deck,
 * Anki's stock Basic, Basic (and reversed card), Cloze and Image Occlusion note types, each note with its fields and one new card
 * per ordinal, and the images as numbered zip entries with the JSON `media` map.
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

function notetypeJson(kind: ApkgNoteType, id: number, deckId: number, seconds: number) {
  const stock = stockNotetypes[kind];
  return {
    id,
    name: stock.name,
    type: stock.type,
    mod: seconds,
    usn: -1,
    sortf: 0,
    did: deckId,
    tmpls: stock.templates.map((template, ord) => ({ ...template, ord, did: null, bqfmt: '', bafmt: '' })),
    flds: stock.fields.map((name, ord) => ({
      name,
      ord,
      sticky: false,
      rtl: false,
      font: 'Arial',
      size: 20,
      media: [],
      ...(stock.fieldTags?.[ord] ?? {}),
    })),
    css: kind === 'occlusion' ? occlusionCss : stock.type === 1 ? css + clozeCss : css,
    latexPre,
    latexPost: '\\end{document}',
    latexsvg: false,
    tags: [],
    vers: [],
    req: stock.req,
    originalStockKind: stock.originalStockKind,
  };
}

async function writeCollection(db: SqliteDatabase.Database, input: ApkgInput): Promise<void> {
  const { now } = input;
  const seconds = Math.floor(now / 1000);
  // Ids are epoch milliseconds in Anki; the note types and the deck get fixed-width ones from the export time.
  const modelIds = new Map(exportedTypes.map((kind, index) => [kind, now + index]));
  const deckId = now + exportedTypes.length;
  // A private temporary file: no journal to keep.
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec(schema11);
  const models = Object.fromEntries(
    exportedTypes.map((kind) => {
      const id = modelIds.get(kind) as number;
      return [String(id), notetypeJson(kind, id, deckId, seconds)];
    }),
  );
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
    curModel: modelIds.get('basic'),
    nextPos: 1,
    sortType: 'noteFld',
    sortBackwards: false,
    addToCur: true,
  };
  const insertNote = db.prepare("INSERT INTO notes VALUES (?, ?, ?, ?, -1, '', ?, ?, ?, 0, '')");
  const insertCard = db.prepare("INSERT INTO cards VALUES (?, ?, ?, ?, ?, -1, 0, 0, ?, 0, 0, 0, 0, 0, 0, 0, 0, '')");
  // Note and card ids must be unique: creation times, bumped past any repeat.
  let lastId = 0;
  const nextId = (wanted: number) => {
    lastId = Math.max(wanted, lastId + 1);
    return lastId;
  };
  let position = 0;
  const writeBatch = db.transaction((batch: ApkgNote[]) => {
    for (const note of batch) {
      const noteId = nextId(note.createdAt);
      const stock = stockNotetypes[note.type];
      // A note has exactly its type's fields, separated by 0x1f, which a field therefore never holds.
      const fields = stock.fields.map((_name, index) => (note.fields[index] ?? '').replaceAll('\x1f', ''));
      const sortText = htmlToPlainText(fields[0] ?? '');
      insertNote.run(
        noteId,
        note.guid,
        modelIds.get(note.type),
        seconds,
        fields.join('\x1f'),
        sortText,
        checksumOfText(sortText),
      );
      // New cards of one note share their position in the new queue, as Anki gives them.
      position += 1;
      for (const ord of note.ords) insertCard.run(nextId(note.createdAt), noteId, deckId, ord, seconds, position);
    }
  });
  for await (const page of input.pages) {
    for (let start = 0; start < page.length; start += WRITE_BATCH) {
      writeBatch(page.slice(start, start + WRITE_BATCH));
      await nextTurn();
    }
  }
  conf.nextPos = position + 1;
  db.prepare('INSERT INTO col VALUES (1, ?, ?, ?, 11, 0, 0, 0, ?, ?, ?, ?, ?)').run(
    seconds,
    now,
    now,
    JSON.stringify(conf),
    JSON.stringify(models),
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
