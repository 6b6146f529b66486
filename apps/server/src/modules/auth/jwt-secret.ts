import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The JWT signing secret: JWT_SECRET when set, otherwise one generated on first start and kept in
 * DATA_DIR/jwt-secret (mode 0600) so tokens survive restarts. Several app servers must share JWT_SECRET.
 */
export function resolveJwtSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'jwt-secret');
  try {
    // 'wx' fails if the file exists, so two processes starting together cannot overwrite each other's secret.
    const secret = randomBytes(48).toString('base64url');
    writeFileSync(file, `${secret}\n`, { flag: 'wx', mode: 0o600 });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length < 32) throw new Error(`${file} holds no usable secret; delete it to generate a new one`);
    return existing;
  }
}
