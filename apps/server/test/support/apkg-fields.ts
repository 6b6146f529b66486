import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { readZipEntries } from '../../src/adapters/extract/safe-zip';

/** The notes of an exported .apkg: each note's fields (split on Anki's 0x1f), its sort field and checksum. */
export async function exportedNotes(apkg: Buffer): Promise<{ fields: string[]; sfld: string; csum: number }[]> {
  const entries = await readZipEntries(apkg, 200_000_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'apkg-fields-'));
  try {
    const file = path.join(dir, 'collection.anki2');
    writeFileSync(file, entries.get('collection.anki2') as Buffer);
    const db = new SqliteDatabase(file, { readonly: true });
    try {
      const rows = db.prepare('select flds, sfld, csum from notes order by id').all() as {
        flds: string;
        sfld: string;
        csum: number;
      }[];
      return rows.map((row) => ({ fields: row.flds.split('\x1f'), sfld: String(row.sfld), csum: row.csum }));
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
