import { describe, expect, it } from 'vitest';
import { zipFiles } from './support/anki-packages';
import { useBuiltServer } from './support/built-server';
import { DEFAULT_PASSWORD, uniqueEmail } from './support/factories';
import { zstdZeros } from './support/hostile-packages';
import { multipartBody } from './support/multipart';
import { allPids, commandOf, parentOf } from './support/processes';
import { waitFor } from './support/wait-for';

// The built server (as `npm start` runs it) stops on SIGTERM within 10 s while an import is being read: the reading
// runs in a child process, so the server never waits on code it cannot interrupt (audit finding 3: a package whose
// SQL spun in a worker thread left the server unable to exit), and the import's processes end with it.

const start = useBuiltServer('built-server-containment-secret-long-enough-012');

/** The processes descended from `root` (its children, theirs…). */
function descendants(root: number): number[] {
  const all = allPids();
  const found = new Set<number>([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const pid of all) {
      if (!found.has(pid) && found.has(parentOf(pid) ?? -1)) {
        found.add(pid);
        grew = true;
      }
    }
  }
  found.delete(root);
  return [...found];
}

describe('the built server during an import', () => {
  it('exits on SIGTERM within 10 s while a package is being read, and the reading process ends too', {
    timeout: 120_000,
  }, async () => {
    const server = await start();
    const url = server.url;
    const email = uniqueEmail('sigterm');
    const signup = await fetch(`${url}/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: DEFAULT_PASSWORD }),
    });
    expect(signup.status).toBe(201);
    const login = await fetch(`${url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: email, password: DEFAULT_PASSWORD }).toString(),
    });
    const token = ((await login.json()) as { access_token: string }).access_token;
    // 500 MB of zeros in zstd RLE blocks: pure-JavaScript inflation keeps the reading process busy for many seconds.
    const file = await zipFiles([['collection.anki21b', zstdZeros(500 * 1024 * 1024)]]);
    const body = multipartBody([{ name: 'file', value: file, filename: 'spin.apkg' }]);
    const importing = fetch(`${url}/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, ...body.headers },
      body: body.payload,
    }).catch((error: unknown) => error);
    const serverPid = server.child.pid ?? 0;
    // The import broker has started its reading process.
    const broker = await waitFor(
      () => descendants(serverPid).find((pid) => commandOf(pid).includes('import-broker')),
      30_000,
    );
    await waitFor(() => descendants(broker).length > 0, 30_000);
    const family = [broker, ...descendants(broker)];

    const exited = new Promise<string>((resolve) => server.child.once('exit', () => resolve('exited')));
    server.child.kill('SIGTERM');
    const outcome = await Promise.race([
      exited,
      new Promise((resolve) => setTimeout(() => resolve('still running'), 10_000)),
    ]);
    expect(outcome, server.output().slice(-4000)).toBe('exited');
    // The import was answered before the server went: 503 busy (try again), not a dropped connection.
    const answer = await importing;
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(503);
    expect(((await (answer as Response).json()) as { code: string }).code).toBe('busy');
    await waitFor(() => family.every((pid) => commandOf(pid) === ''), 10_000);
  });
});
