// GET /media/{name} (issue 34) from the database store and from an S3-compatible store (s3rver on loopback), beside
// a static file of the same bytes served by the same Fastify (@fastify/static, as the web app's files are): the
// real app listening on 127.0.0.1 (BENCH_PORT, default 41770), the load from the autocannon CLI in another process
// at 50 connections. SQLite, then PostgreSQL (each-database.ts).
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { createIdGenerator } from '../apps/server/src/adapters/ids';
import { createMediaStore } from '../apps/server/src/adapters/media/media-store';
import { loadConfig } from '../apps/server/src/config';
import { type DatabaseHandle, migrateToLatest } from '../apps/server/src/db/database';
import { startLocalS3 } from '../apps/server/test/support/s3-server';
import { type LoadResult, runLoad } from './support/autocannon';
import { onEachDatabase } from './support/each-database';
import { BENCH_NOW, buildBenchApp, insertBenchUser } from './support/study-account';

const PORT = Number(process.env.BENCH_PORT ?? 41770);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_S ?? 8);
const CONNECTIONS = 50;
const out = (line: string) => process.stdout.write(`${line}\n`);

const load = (url: string, seconds = LOAD_SECONDS) => runLoad(url, { connections: CONNECTIONS, seconds });

/** A 1,024 × 768 photo-like JPEG (noise over a gradient, so it does not compress to nothing): about 100 KB. */
async function figure(): Promise<Buffer> {
  const width = 1024;
  const height = 768;
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let i = 0; i < pixels.length; i++) {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    pixels[i] = ((i / 3) % width) / 4 + (seed % 48);
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 70 })
    .toBuffer();
}

const format = (label: string, result: LoadResult) =>
  `${label}: ${Math.round(result.rps)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, ` +
  `${(result.throughput / 1_000_000).toFixed(0)} MB/s, ${result.bad} not 200`;

async function part(label: string, handle: DatabaseHandle, dataDir: string): Promise<void> {
  await migrateToLatest(handle.db, handle.dialect);
  const newId = createIdGenerator({ now: () => BENCH_NOW });
  const bytes = await figure();
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const webDir = mkdtempSync(path.join(tmpdir(), 'flashcards-bench-web-'));
  writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>bench</title>');
  writeFileSync(path.join(webDir, 'figure.jpg'), bytes);
  const s3 = await startLocalS3();
  const stores = [
    { kind: 'database' as const, env: {} as Record<string, string> },
    { kind: 's3' as const, env: s3.env },
  ];
  out(`${label}: a ${Math.round(bytes.byteLength / 1024)} KB JPEG, ${CONNECTIONS} connections, ${LOAD_SECONDS} s each`);
  try {
    for (const store of stores) {
      const env = {
        LOG_LEVEL: 'silent',
        DATA_DIR: dataDir,
        MEDIA_RATE_LIMIT_PER_MINUTE: '100000000',
        ...store.env,
      };
      const app = await buildBenchApp(handle.db, env, { now: () => BENCH_NOW }, webDir);
      await app.ready();
      const mediaStore = createMediaStore({ kind: store.kind, s3: loadConfig(env).media.s3 });
      // One user per store: a user holds one row per image content.
      const userId = newId();
      await insertBenchUser(handle.db, userId, `bench-${userId}@example.com`);
      const id = newId();
      const name = `${createHash('sha1').update(`${store.kind}:${sha256}`).digest('hex')}.jpg`;
      await handle.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('media')
          .values({
            id,
            user_id: userId,
            name,
            sha256,
            content_type: 'image/jpeg',
            size: bytes.byteLength,
            data: Buffer.alloc(0),
            created_at: BENCH_NOW,
            store: store.kind,
          })
          .execute();
        await mediaStore.put(trx, { id, sha256, contentType: 'image/jpeg' }, bytes);
      });
      mediaStore.close();
      await app.listen({ host: '127.0.0.1', port: PORT });
      const base = `http://127.0.0.1:${PORT}`;
      try {
        const check = await fetch(`${base}/media/${name}`);
        const served = Buffer.from(await check.arrayBuffer());
        if (check.status !== 200 || !served.equals(bytes)) throw new Error(`GET /media: ${check.status}`);
        await load(`${base}/media/${name}`, 2);
        const media = await load(`${base}/media/${name}`);
        await load(`${base}/figure.jpg`, 2);
        const file = await load(`${base}/figure.jpg`);
        out(format(`${label}, GET /media/{name} from ${store.kind}`, media));
        out(format(`${label}, the same bytes as a static file`, file));
        out(
          `${label}, ${store.kind}: media at ${((media.rps / file.rps) * 100).toFixed(0)} % of the static file's req/s`,
        );
      } finally {
        await app.close();
      }
    }
  } finally {
    await s3.close();
    rmSync(webDir, { recursive: true, force: true });
  }
}

await onEachDatabase(part, out);
