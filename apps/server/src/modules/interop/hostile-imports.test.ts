import { request as httpRequest } from 'node:http';
import type { FileImportResponse } from '@flashcards/shared/api-types';
import { fillMessage } from '@flashcards/shared/messages';
import { renderNote } from '@flashcards/shared/notes';
import { serverMessages } from '@flashcards/shared/server-messages';
import type { FastifyInstance } from 'fastify';
import type { Transaction } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  basic,
  basicNote,
  buildPackage,
  type PackageFormat,
  pngBytes,
  type TestPackage,
  zipFiles,
} from '../../../test/support/anki-packages';
import { expectError } from '../../../test/support/api-error';
import { type AuthHeaders, deleteAccount, signUpAndLogIn } from '../../../test/support/factories';
import {
  clozeNote,
  endlessCte,
  latestFormat,
  oneNote,
  pngDeclaring,
  withTemplate,
  zstdDeclaring,
  zstdZeros,
} from '../../../test/support/hostile-packages';
import { multipartBody, postMultipart } from '../../../test/support/multipart';
import { createTestApp, useTestApp } from '../../../test/support/test-app';
import { waitFor } from '../../../test/support/wait-for';
import { zstdDecompress } from '../../adapters/anki/zstd';
import { readZipEntries } from '../../adapters/extract/safe-zip';
import { createIdGenerator } from '../../adapters/ids';
import type { Database } from '../../db/schema';
import { newNote } from '../study-core/note-rows';
import { emptyParseResult, type ParsedNote } from './import-parser';
import { createInteropRepo, IMPORT_WRITE_BATCH, type ImportPlan, ImportUserGoneError } from './interop.repo';

/** A parsed basic note of one card, question `q` and answer `a`, showing these media. */
function parsedBasicNote(deck: string, guid: string | null, media: string[]): ParsedNote {
  return {
    deck,
    guid,
    content: { type: 'basic', fields: { front: 'q', back: 'a' } },
    cards: [{ card_type: 'basic', ord: 0, question: 'q', answer: 'a' }],
    media,
  };
}

// The turn-3 audit's hostile imports (../shared/audit/turn3/security-audit.md, rows 1–4, 10–14, 24, 25, 31 and
// findings 3, 4, 7, 9, 11, 12, 14), each with variants: every one answers a clear 4xx, writes nothing it should not,
// and leaves the server serving another user meanwhile. On PostgreSQL too when DATABASE_URL is set.

const MB = 1024 * 1024;

const ctx = useTestApp({
  env: {
    AUTH_RATE_LIMIT_PER_IP: '1000',
    IMPORT_MAX_BYTES: '4000000',
    IMPORT_MAX_UNZIPPED_BYTES: String(8 * MB),
    IMPORT_MAX_IMAGE_BYTES: '4096',
    IMPORT_MAX_IMAGE_PIXELS: '1000000',
    IMPORT_TIMEOUT: '30s',
  },
});

function uploadTo(app: FastifyInstance, headers: AuthHeaders, file: Buffer, filename: string) {
  return postMultipart(app, '/import', headers, [{ name: 'file', value: file, filename }]);
}

async function written(userId: string) {
  const db = ctx.database.db;
  return {
    decks: await db.selectFrom('decks').select('name').where('user_id', '=', userId).execute(),
    cards: await db.selectFrom('cards').select(['question', 'answer']).where('user_id', '=', userId).execute(),
    media: await db.selectFrom('media').select(['name', 'size']).where('user_id', '=', userId).execute(),
    notes: await db.selectFrom('imported_notes').select('guid').where('user_id', '=', userId).execute(),
  };
}

const nothing = { decks: [], cards: [], media: [], notes: [] };

/** Imports `file` as a fresh user while another user lists their decks: the other answer must be 200. */
async function importWhileOthersAreServed(file: Buffer, filename = 'hostile.apkg') {
  const { headers, user } = await signUpAndLogIn(ctx.app);
  const other = await signUpAndLogIn(ctx.app);
  const importing = uploadTo(ctx.app, headers, file, filename);
  const meanwhile = await ctx.app.inject({ method: 'GET', url: '/decks', headers: other.headers });
  expect(meanwhile.statusCode).toBe(200);
  return { response: await importing, userId: user._id, headers };
}

async function expectRefused(file: Buffer, detail: string, filename = 'hostile.apkg') {
  const { response, userId } = await importWhileOthersAreServed(file, filename);
  expectError(response, 422, 'invalid_package', detail);
  expect(await written(userId)).toEqual(nothing);
}

const pkg = (extra: Partial<TestPackage>, format: PackageFormat = 'anki21') =>
  buildPackage(oneNote(['question', 'answer'], extra), format);

describe('POST /import: SQL in the package never runs (sqlite_master holds only tables and indexes)', () => {
  it.each<[string, string, PackageFormat]>([
    [
      'the audit’s `fields` view over an endless recursive CTE (t-sqlloop.mjs)',
      `drop table fields; create view fields as ${endlessCte} select 1 as ntid, 0 as ord, 'x' as name, x'' as config from r where i < 0`,
      'anki21b',
    ],
    [
      'the audit’s `decks` view of 8 × zeroblob(256 MB) (t-blob-view.mjs)',
      `drop table decks; create view decks as with recursive r(i) as (select 1 union all select i + 1 from r where i < 8)
        select i as id, zeroblob(256 * 1048576) as name, 0 as mtime_secs, 0 as usn, x'' as common, x'' as kind from r`,
      'anki21b',
    ],
    ['an endless view under a name nothing reads', `create view innocent as ${endlessCte} select i from r`, 'anki21'],
    ['a trigger', 'create trigger t after insert on notes begin select 1; end', 'anki21'],
    ['a virtual table', 'create virtual table search using fts5(body)', 'anki21'],
    ['an unknown table', 'create table extra (a)', 'anki2'],
    [
      'a generated column computed on every read',
      `alter table notes rename to old_notes; create table notes (id integer primary key, guid text, mid integer,
        mod integer, usn integer, tags text, flds text, sfld integer, csum integer, flags integer, data text,
        huge blob generated always as (zeroblob(1000000000)) virtual);
        drop table old_notes`,
      'anki21',
    ],
  ])('refuses %s with 422 invalid_package and a clear message', async (_name, sql, format) => {
    await expectRefused(await pkg({ sql }, format), serverMessages.importUnexpectedSchema);
  });
});

describe('POST /import: zip and zstd output share one budget (IMPORT_MAX_UNZIPPED_BYTES)', () => {
  it('refuses a zstd frame that declares 2 GB (t-zstd-bombs.mjs) before inflating it', async () => {
    const file = await zipFiles([['collection.anki21b', zstdDeclaring(Buffer.from('0123456789'), 2_000_000_000)]]);
    await expectRefused(file, serverMessages.invalidPackage);
  });

  it('refuses a media file whose frame declares 4 GB in a 4-byte size field', async () => {
    const collection = await collectionOf(oneNote(['<img src="big.png">', 'a']));
    const file = await latestFormat(collection, [['0', zstdDeclaring(pngBytes, 4_000_000_000, 4)]], { 0: 'big.png' });
    await expectRefused(file, serverMessages.invalidPackage);
  });

  it('refuses zip entries and zstd output that pass the cap only together', async () => {
    // 5 MB of zip entries and a 5 MB zstd media file: each under 8 MB, together over it.
    const collection = await collectionOf(oneNote(['<img src="x.png">', 'a']));
    const file = await latestFormat(
      collection,
      [
        ['filler', Buffer.alloc(5 * MB)],
        ['0', zstdZeros(5 * MB)],
      ],
      { 0: 'x.png' },
    );
    await expectRefused(file, serverMessages.invalidPackage);
  });
});

/** The collection file of a package, as buildPackage writes it for schema 18. */
async function collectionOf(test: TestPackage): Promise<Buffer> {
  const entries = await readZipEntries(await buildPackage(test, 'anki21b'), 50 * MB);
  return zstdDecompress(entries.get('collection.anki21b') as Buffer, 50 * MB);
}

describe('POST /import: hostile templates and clozes answer 422, in linear time (t-templates.mjs)', () => {
  it.each<[string, TestPackage]>([
    [
      'sections nested 20,000 deep',
      oneNote(['q', 'a'], {
        notetypes: withTemplate(`${'{{#Front}}'.repeat(20_000)}{{Front}}${'{{/Front}}'.repeat(20_000)}`),
      }),
    ],
    ['a cloze nested 5,000 deep', clozeNote(`${'{{c1::'.repeat(5_000)}x${'}}'.repeat(5_000)}`)],
    [
      '{{Front}} 10,000 times',
      oneNote(['x'.repeat(200), 'a'], { notetypes: withTemplate('{{Front}}'.repeat(10_000)) }),
    ],
    [
      '{{FrontSide}} 100 times on the answer',
      oneNote(['x'.repeat(19_000), 'a'], {
        notetypes: withTemplate('{{Front}}', '{{FrontSide}}'.repeat(100)),
      }),
    ],
  ])('refuses %s', async (_name, test) => {
    await expectRefused(await buildPackage(test), serverMessages.importTemplateTooComplex);
  });

  it('skips the audit’s cloze nested 20,000 deep as too long: its field is over 100,000 characters', async () => {
    const test = clozeNote(`${'{{c1::'.repeat(20_000)}x${'}}'.repeat(20_000)}`);
    const { response, userId } = await importWhileOthersAreServed(await buildPackage(test));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<FileImportResponse>()).toEqual({
      decks: [],
      cards_imported: 0,
      skipped: 1,
      warnings: [fillMessage(serverMessages.importCardsTooLong, { count: 1, max: 20_000 })],
    });
    expect(await written(userId)).toEqual(nothing);
  });

  it('reads a template of 200,000 unclosed `{{` and a `text:` field of 100,000 `<` (quadratic before)', async () => {
    const test = oneNote(['<'.repeat(100_000), 'answer'], {
      notetypes: withTemplate(`Q {{text:Front}} ${'{{'.repeat(200_000)}`, '{{Back}}'),
    });
    const { response, userId } = await importWhileOthersAreServed(await buildPackage(test));
    expect(response.statusCode, response.body).toBe(201);
    // The question is over the card limit once rendered: skipped as too long, not a failure.
    expect(response.json<FileImportResponse>()).toMatchObject({ cards_imported: 0, skipped: 1 });
    expect((await written(userId)).cards).toEqual([]);
  });
});

describe('POST /import: content limits', () => {
  it('strips NUL from fields and guids (t-nul-import.mjs; 500 on PostgreSQL before)', async () => {
    const test = oneNote(['before\u0000after', 'back\u0000side'], {}, 'g\u0000uid');
    const { response, userId } = await importWhileOthersAreServed(await buildPackage(test));
    expect(response.statusCode, response.body).toBe(201);
    const rows = await written(userId);
    expect(rows.cards).toEqual([{ question: 'beforeafter', answer: 'backside' }]);
    expect(rows.notes).toEqual([{ guid: 'guid' }]);
  });

  it('skips a CSV row whose guid is longer than 64 characters (t-guid-size.mjs)', async () => {
    const csv = `#separator:comma\n#guid column:1\n${'g'.repeat(100_000)},long,guid\nshort,q,a\n`;
    const { response, userId } = await importWhileOthersAreServed(Buffer.from(csv), 'guids.csv');
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<FileImportResponse>()).toMatchObject({ cards_imported: 1, skipped: 1 });
    const rows = await written(userId);
    expect(rows.notes).toEqual([{ guid: 'short' }]);
    expect(rows.cards).toEqual([{ question: 'q', answer: 'a' }]);
  });

  it('reads hostile text headers in linear time: 50,000 named columns, an unknown separator, an unclosed quote', async () => {
    const columns = Array.from({ length: 50_000 }, (_, index) => `c${index}`).join('\t');
    const comments = Array.from({ length: 20_000 }, () => '# nothing').join('\n');
    const text = `#separator:nonsense\n#columns:${columns}\n#tags column:99999999999\n${comments}\nq\ta\n"open\tquote\nnever\tclosed\n`;
    const { response, userId } = await importWhileOthersAreServed(Buffer.from(text), 'hostile.txt');
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<FileImportResponse>()).toMatchObject({
      cards_imported: 1,
      skipped: 1,
      warnings: [
        fillMessage(serverMessages.importLineSkipped, { line: 20_005, reason: serverMessages.importLineEmptyBack }),
      ],
    });
    expect((await written(userId)).cards).toEqual([{ question: 'q', answer: 'a' }]);
  });

  it('skips an .apkg note whose guid is longer than 64 characters', async () => {
    const test = oneNote(['q', 'a'], {}, 'x'.repeat(65));
    const { response, userId } = await importWhileOthersAreServed(await buildPackage(test));
    expect(response.json<FileImportResponse>()).toMatchObject({ cards_imported: 0, skipped: 1 });
    expect(await written(userId)).toEqual({ ...nothing, decks: [] });
  });

  it('leaves out images over IMPORT_MAX_IMAGE_BYTES or IMPORT_MAX_IMAGE_PIXELS, with a warning (t-media-huge.mjs)', async () => {
    const test: TestPackage = {
      notetypes: [basic],
      decks: { 1: 'Images' },
      notes: [
        basicNote(1, 'big', ['big <img src="big.png">', 'a']),
        basicNote(2, 'wide', ['wide <img src="wide.png">', 'b']),
        basicNote(3, 'fine', ['fine <img src="fine.png">', 'c']),
      ],
      media: {
        'big.png': pngDeclaring(10, 10, 5000),
        'wide.png': pngDeclaring(100_000, 100_000),
        'fine.png': pngBytes,
      },
    };
    const { response, userId } = await importWhileOthersAreServed(await buildPackage(test));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<FileImportResponse>().warnings).toEqual([
      fillMessage(serverMessages.importImagesMissing, { count: 2 }),
      fillMessage(serverMessages.importImagesTooLarge, { count: 2, max: '4 KB', pixels: 1_000_000 }),
    ]);
    const rows = await written(userId);
    expect(rows.media).toEqual([{ name: expect.stringMatching(/^[0-9a-f]{40}\.png$/), size: pngBytes.length }]);
    expect(rows.cards).toHaveLength(3);
  });
});

describe('POST /import: per-user media quota (MEDIA_QUOTA_BYTES_PER_USER)', () => {
  it('refuses an import whose images would pass the quota, writing nothing', async () => {
    const quota = await createTestApp({
      shareWith: ctx,
      env: { AUTH_RATE_LIMIT_PER_IP: '1000', MEDIA_QUOTA_BYTES_PER_USER: String(pngBytes.length + 10) },
    });
    try {
      const { headers, user } = await signUpAndLogIn(quota.app);
      const first = oneNote(['<img src="a.png">', 'a'], { media: { 'a.png': pngBytes } });
      expect((await uploadTo(quota.app, headers, await buildPackage(first), 'a.apkg')).statusCode).toBe(201);
      const before = await written(user._id);
      const other = Buffer.from(pngBytes);
      other[other.length - 20] = (other[other.length - 20] ?? 0) ^ 1;
      const second = oneNote(['<img src="b.png">', 'b'], { media: { 'b.png': other } }, 'second');
      const response = await uploadTo(quota.app, headers, await buildPackage(second), 'b.apkg');
      expectError(
        response,
        422,
        'media_quota_exceeded',
        fillMessage(serverMessages.mediaQuotaExceeded, { size: `${pngBytes.length} bytes`, max: '10 bytes' }),
      );
      expect(await written(user._id)).toEqual(before);
    } finally {
      await quota.close();
    }
  });
});

describe('POST /import: one import per user at a time, and IMPORT_RATE_LIMIT_PER_HOUR', () => {
  it('answers 429 import_in_progress to a second import of the same user while another user imports', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reached: () => void = () => {};
    const readingHeld = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const empty = emptyParseResult([parsedBasicNote('Held', null, [])]);
    const holding = await createTestApp({
      shareWith: ctx,
      env: { AUTH_RATE_LIMIT_PER_IP: '1000', IMPORT_RATE_LIMIT_PER_HOUR: '3' },
      importParser: async (input) => {
        if (input.defaultDeckName === 'held') {
          reached();
          await held;
        }
        return empty;
      },
    });
    try {
      const a = await signUpAndLogIn(holding.app);
      const b = await signUpAndLogIn(holding.app);
      const first = uploadTo(holding.app, a.headers, Buffer.from('q,a'), 'held.csv');
      // The first import is being read (it holds the user's import lock) before the second is sent.
      await readingHeld;
      const second = await uploadTo(holding.app, a.headers, Buffer.from('q,a'), 'other.csv');
      expectError(second, 429, 'import_in_progress', serverMessages.importInProgress);
      const another = await uploadTo(holding.app, b.headers, Buffer.from('q,a'), 'other.csv');
      expect(another.statusCode, another.body).toBe(201);
      release();
      expect((await first).statusCode).toBe(201);
      // Three imports an hour, counted before the upload is read: the first and the refused second both count, so
      // the third passes and the fourth does not.
      expect((await uploadTo(holding.app, a.headers, Buffer.from('q,a'), 'x.csv')).statusCode).toBe(201);
      const limited = await uploadTo(holding.app, a.headers, Buffer.from('q,a'), 'x.csv');
      expectError(limited, 429, 'rate_limited', serverMessages.rateLimited);
    } finally {
      release();
      await holding.close();
    }
  });
});

describe('POST /import when the client leaves', () => {
  it('aborts the reading of the file, and frees the user for the next import', async () => {
    const signals: AbortSignal[] = [];
    const held = emptyParseResult();
    const leaving = await createTestApp({
      shareWith: ctx,
      env: { AUTH_RATE_LIMIT_PER_IP: '1000' },
      importParser: (input, options) => {
        if (input.defaultDeckName !== 'leave') return Promise.resolve(held);
        const signal = options?.signal as AbortSignal;
        signals.push(signal);
        return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
      },
    });
    try {
      const url = await leaving.app.listen({ port: 0, host: '127.0.0.1' });
      const { headers } = await signUpAndLogIn(leaving.app);
      const body = multipartBody([{ name: 'file', value: Buffer.from('q,a'), filename: 'leave.csv' }]);
      const request = httpRequest(`${url}/import`, { method: 'POST', headers: { ...headers, ...body.headers } });
      request.on('error', () => {});
      request.end(body.payload);
      await waitFor(() => signals.length === 1, 10_000);
      expect(signals[0]?.aborted).toBe(false);
      request.destroy();
      await waitFor(() => signals[0]?.aborted, 10_000);
      // The lock went with the aborted import: the same user imports again at once.
      const again = await uploadTo(leaving.app, headers, Buffer.from('q,a'), 'next.csv');
      expect(again.statusCode, again.body).toBe(201);
    } finally {
      await leaving.close();
    }
  });
});

// Audit finding 13: the account deleted while one of its imports is read or written.
describe('POST /import when the account is deleted meanwhile', () => {
  async function leftOf(userId: string) {
    const db = ctx.database.db;
    const mediaIds = (await db.selectFrom('media').select('id').where('user_id', '=', userId).execute()).map(
      (row) => row.id,
    );
    return {
      user: await db.selectFrom('users').select('id').where('id', '=', userId).execute(),
      ...(await written(userId)),
      links: await db.selectFrom('card_media').select('card_id').where('user_id', '=', userId).execute(),
      chunks:
        mediaIds.length === 0
          ? []
          : await db.selectFrom('media_chunks').select('media_id').where('media_id', 'in', mediaIds).execute(),
    };
  }
  const gone = { user: [], ...nothing, links: [], chunks: [] };

  it('answers 401 not_authenticated to an import whose account is deleted while its file is read, and keeps nothing', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reading = false;
    const heldImage = `${'d'.repeat(40)}.png`;
    const deleting = await createTestApp({
      shareWith: ctx,
      env: { AUTH_RATE_LIMIT_PER_IP: '1000' },
      importParser: async (input) => {
        reading = true;
        await held;
        return {
          ...emptyParseResult([parsedBasicNote(input.defaultDeckName, 'g1', [heldImage])]),
          media: [{ name: heldImage, sha256: 'd'.repeat(64), contentType: 'image/png', data: pngBytes }],
        };
      },
    });
    try {
      const { headers, user } = await signUpAndLogIn(deleting.app);
      const importing = uploadTo(deleting.app, headers, Buffer.from('q,a'), 'held.csv');
      await waitFor(() => reading, 10_000);
      const deleted = await deleteAccount(deleting.app, headers);
      expect(deleted.statusCode, deleted.body).toBe(204);
      release();
      const response = await importing;
      expectError(response, 401, 'not_authenticated', serverMessages.notAuthenticated);
      expect(await leftOf(user._id)).toEqual(gone);
    } finally {
      release();
      await deleting.close();
    }
  });

  it('stops the reading of the file once the account is deleted, and answers 401 not_authenticated', async () => {
    const signals: AbortSignal[] = [];
    const stopping = await createTestApp({
      shareWith: ctx,
      env: { AUTH_RATE_LIMIT_PER_IP: '1000' },
      importParser: (_input, options) => {
        const signal = options?.signal as AbortSignal;
        signals.push(signal);
        return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
      },
    });
    try {
      const { headers, user } = await signUpAndLogIn(stopping.app);
      const importing = uploadTo(stopping.app, headers, Buffer.from('q,a'), 'endless.csv');
      await waitFor(() => signals.length === 1, 10_000);
      expect(signals[0]?.aborted).toBe(false);
      const deleted = await deleteAccount(stopping.app, headers);
      expect(deleted.statusCode, deleted.body).toBe(204);
      const response = await importing;
      expect(signals[0]?.aborted).toBe(true);
      expectError(response, 401, 'not_authenticated', serverMessages.notAuthenticated);
      expect(await leftOf(user._id)).toEqual(gone);
    } finally {
      await stopping.close();
    }
  });

  it('answers 401 not_authenticated when the account is deleted between two slices of the write, and keeps nothing', async () => {
    const { user } = await signUpAndLogIn(ctx.app);
    const realDb = ctx.database.db;
    let transactions = 0;
    // The account is deleted just before the second card slice: the first slice, the deck and the image are written.
    const racing = new Proxy(realDb, {
      get(target, property, receiver) {
        if (property !== 'transaction') {
          // Kysely's methods read private fields: they run on the real instance.
          const value = Reflect.get(target, property, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        }
        return () => ({
          execute: async <T>(work: (trx: Transaction<Database>) => Promise<T>) => {
            transactions += 1;
            if (transactions === 2) {
              expect((await leftOf(user._id)).cards).toHaveLength(IMPORT_WRITE_BATCH);
              await realDb.deleteFrom('users').where('id', '=', user._id).execute();
            }
            return target.transaction().execute(work);
          },
        });
      },
    });
    const newId = createIdGenerator(ctx.clock);
    const now = ctx.clock.now();
    const deckId = newId();
    const mediaId = newId();
    const notes = Array.from({ length: IMPORT_WRITE_BATCH * 2 }, (_, index) => {
      const content = { type: 'basic', fields: { front: `q${index}`, back: 'a' } } as const;
      return newNote({ userId: user._id, deckId, newId }, content, renderNote(content), now);
    });
    const plan: ImportPlan = {
      userId: user._id,
      now,
      decks: [{ id: deckId, name: 'Racing', daily_new_card_limit: 20 }],
      notes,
      media: [
        {
          id: mediaId,
          name: `${'e'.repeat(40)}.png`,
          sha256: 'e'.repeat(64),
          contentType: 'image/png',
          data: pngBytes,
        },
      ],
      cardMedia: [{ cardId: notes[0]?.cards[0]?.id ?? '', mediaName: `${'e'.repeat(40)}.png` }],
      guids: notes.map((_note, index) => ({ guid: `race-${index}`, deckId })),
    };
    await expect(createInteropRepo(racing).writeImport(plan)).rejects.toBeInstanceOf(ImportUserGoneError);
    expect(transactions).toBe(2);
    expect(await leftOf(user._id)).toEqual(gone);
    expect(
      await realDb.selectFrom('media_chunks').select('media_id').where('media_id', '=', mediaId).execute(),
    ).toEqual([]);
  });
});
