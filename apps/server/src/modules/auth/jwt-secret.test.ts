import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveJwtSecret } from './jwt-secret';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'flashcards-secret-'));
  dirs.push(dir);
  return dir;
};

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('resolveJwtSecret', () => {
  it('uses JWT_SECRET when it is set, and writes nothing', () => {
    const dir = tempDir();
    expect(resolveJwtSecret('s'.repeat(40), dir)).toBe('s'.repeat(40));
    expect(() => statSync(path.join(dir, 'jwt-secret'))).toThrow();
  });

  it('generates a secret once, keeps it private in DATA_DIR, and returns the same one afterwards', () => {
    const dir = path.join(tempDir(), 'nested', 'data');
    const first = resolveJwtSecret(undefined, dir);
    expect(first.length).toBeGreaterThanOrEqual(64);
    const file = path.join(dir, 'jwt-secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(resolveJwtSecret(undefined, dir)).toBe(first);
    expect(resolveJwtSecret(undefined, tempDir())).not.toBe(first);
  });

  it('refuses a damaged secret file instead of signing with it', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'jwt-secret'), 'short\n');
    expect(() => resolveJwtSecret(undefined, dir)).toThrow(/holds no usable secret/);
  });
});
