// `npm run bench -- interop`: generates an Anki package of 30,000 notes (Basic, reversed and cloze notes in three
// decks, 1,000 distinct images shown by 1,000 notes; with BENCH_PACKAGE=cloze, 30,000 cloze notes making 42,000
// cards, as the large community decks are) and imports it through POST /import into the real server,
// started as its own process on 127.0.0.1 with a temporary SQLite database (or BENCH_DATABASE_URL's PostgreSQL).
// Prints the package size, the time of the import request, the cards written, and the server's peak memory
// (VmHWM: the worker thread that parses is in the same process) before and after.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  basic,
  buildPackage,
  cloze,
  pngBytes,
  reversed,
  type TestNote,
} from '../apps/server/test/support/anki-packages';
import { overHttp, signUpAndLogIn } from './support/accounts';

const NOTES = 30_000;
const IMAGES = 1_000;
const out = (line: string) => process.stdout.write(`${line}\n`);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** A distinct valid PNG per index: the 1×1 image with bytes after IEND (browsers and sniffers ignore them). */
function image(index: number): Buffer {
  const filler = Buffer.alloc(8 * 1024);
  for (let i = 0; i < filler.length; i += 4) filler.writeUInt32LE((index * 2654435761 + i) >>> 0, i);
  return Buffer.concat([pngBytes, Buffer.from(`#${index}#`), filler]);
}

/** 30,000 cloze notes in three decks, two in five with a second cloze number: 42,000 cards, no images. */
function generateClozeNotes(): { notes: TestNote[]; media: Record<string, Buffer> } {
  const decks = [1_700_000_000_101, 1_700_000_000_102, 1_700_000_000_103];
  const notes: TestNote[] = [];
  for (let i = 0; i < NOTES; i++) {
    const deckId = decks[i % decks.length] as number;
    const two = i % 5 < 2;
    const text = two
      ? `The {{c1::enzyme ${i}}} converts <b>substrate ${i}</b> into {{c2::product ${i}::a product}}, \\(k_{${i}}\\).`
      : `Drug ${i} acts on {{c1::receptor ${i}}} in the <i>kidney</i>.`;
    notes.push({
      id: i + 1,
      guid: `cloze${i}`,
      notetypeId: cloze.id,
      fields: [text, i % 3 === 0 ? `Lecture ${i % 40}` : ''],
      cards: (two ? [0, 1] : [0]).map((ord) => ({ ord, deckId })),
    });
  }
  return { notes, media: {} };
}

function generateNotes(): { notes: TestNote[]; media: Record<string, Buffer> } {
  const decks = [1_700_000_000_101, 1_700_000_000_102, 1_700_000_000_103];
  const notes: TestNote[] = [];
  const media: Record<string, Buffer> = {};
  for (let i = 0; i < NOTES; i++) {
    const deckId = decks[i % decks.length] as number;
    const kind = i % 10;
    // Note i of a notetype with these fields, one card per ordinal, all in the note's deck.
    const note = (notetypeId: number, fields: string[], ords: number[]) =>
      notes.push({ id: i + 1, guid: `bench${i}`, notetypeId, fields, cards: ords.map((ord) => ({ ord, deckId })) });
    if (i < IMAGES) {
      media[`img${i}.png`] = image(i);
      note(basic.id, [`Figure ${i}: what does it show? <img src="img${i}.png">`, `Structure <b>${i}</b>`], [0]);
    } else if (kind < 6) {
      note(basic.id, [`What is term number ${i}?`, `It is <i>definition ${i}</i>, see \\(x_{${i}}^2\\).`], [0]);
    } else if (kind < 8) {
      note(reversed.id, [`Word ${i}`, `Meaning ${i}`], [0, 1]);
    } else {
      note(cloze.id, [`The {{c1::capital}} of region ${i} is {{c2::city ${i}::a city}}.`, ''], [0, 1]);
    }
  }
  return { notes, media };
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'interop-bench-'));
  const started = performance.now();
  const clozeOnly = process.env.BENCH_PACKAGE === 'cloze';
  const { notes, media } = clozeOnly ? generateClozeNotes() : generateNotes();
  const pkg = await buildPackage(
    {
      notetypes: [basic, reversed, cloze],
      decks: { 1: 'Default', 1700000000101: 'Bench::A', 1700000000102: 'Bench::B', 1700000000103: 'Bench::C' },
      notes,
      media,
    },
    'anki21',
  );
  const cardCount = notes.reduce((sum, note) => sum + note.cards.length, 0);
  out(
    `package: ${NOTES} ${clozeOnly ? 'cloze ' : ''}notes, ${cardCount} cards, ${Object.keys(media).length} images, ${(pkg.length / 1_048_576).toFixed(1)} MiB (built in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );

  // BENCH_PORT pins the server's port (a machine shared by several people gives each a band); else any free one.
  const port = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : await freePort();
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      DATABASE_URL: databaseUrl ?? '',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT_PER_IP: '1000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/healthz`)).ok) break;
      } catch {
        // not listening yet
      }
      if (i > 600) throw new Error('server did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const peak = () => {
      const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
      const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
      return { hwm: kb('VmHWM') / 1024, rss: kb('VmRSS') / 1024 };
    };
    const email = `bench-${Date.now()}@example.com`;
    const token = await signUpAndLogIn(overHttp(base), email, 'correct horse battery');
    const before = peak();
    out(
      `server before import: peak RSS ${before.hwm.toFixed(0)} MiB (database: ${databaseUrl ? 'PostgreSQL' : 'SQLite'})`,
    );

    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(pkg)]), 'bench.apkg');
    const t0 = performance.now();
    const response = await fetch(`${base}/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const body = (await response.json()) as { cards_imported: number; skipped: number; decks: unknown[] };
    const seconds = (performance.now() - t0) / 1000;
    const after = peak();
    out(
      `import: HTTP ${response.status} in ${seconds.toFixed(1)} s: ${body.cards_imported} cards in ${body.decks.length} decks, ${body.skipped} skipped`,
    );
    out(
      `server after import: peak RSS ${after.hwm.toFixed(0)} MiB (+${(after.hwm - before.hwm).toFixed(0)} MiB), RSS now ${after.rss.toFixed(0)} MiB`,
    );

    const t1 = performance.now();
    const again = await fetch(`${base}/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const againBody = (await again.json()) as { cards_imported: number; skipped: number };
    out(
      `second import (every note skipped): HTTP ${again.status} in ${((performance.now() - t1) / 1000).toFixed(1)} s: ${againBody.cards_imported} imported, ${againBody.skipped} skipped`,
    );
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
