import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The web build's index.html, as the tests' web folders hold it. */
export const INDEX_HTML = '<!doctype html><html><body><div id="root"></div></body></html>';

/**
 * A web build folder in a new temp directory: INDEX_HTML as index.html, and `files` (a path inside the folder → its
 * text). The caller removes it.
 */
export function writeWebDist(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'flashcards-web-'));
  for (const [name, text] of Object.entries({ 'index.html': INDEX_HTML, ...files })) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}
