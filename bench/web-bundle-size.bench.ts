/**
 * What a visitor's browser downloads before /login is interactive: every script and stylesheet the page loaded
 * by the time the login form's button is on screen, measured in Debian's chromium against the real server
 * (started as `npm start` does, so the web app is built first when stale), each body gzipped here (level 6, what
 * a compressing proxy typically sends). Goal: at most 130 KB of JavaScript; KaTeX and markdown not among it.
 * 1 KB = 1024 bytes.
 */
import { gzipSync } from 'node:zlib';
import { launchBrowser } from '../e2e/support/browser';
import { startServer } from '../e2e/support/server';

const goalJsBytes = 130 * 1024;
const heavyLibraries = /katex|micromark|remark-|rehype-|react-markdown|mdast/i;

interface Loaded {
  path: string;
  kind: 'js' | 'css';
  raw: number;
  gzip: number;
  heavy: string | null;
}

const print = (line = '') => process.stdout.write(`${line}\n`);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const server = await startServer();
const browser = await launchBrowser();
let failed = false;
try {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const loaded: Promise<Loaded | null>[] = [];
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    const url = new URL(response.url());
    if (url.origin !== server.url) return;
    loaded.push(
      response.body().then((body) => {
        const match = body.toString('utf8').match(heavyLibraries);
        return {
          path: url.pathname,
          kind: type === 'script' ? 'js' : 'css',
          raw: body.length,
          gzip: gzipSync(body, { level: 6 }).length,
          heavy: match ? match[0] : null,
        };
      }),
    );
  });

  const started = performance.now();
  await page.goto('/login');
  await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
  const interactiveMs = performance.now() - started;
  const files = (await Promise.all(loaded)).filter((file): file is Loaded => file !== null);

  const js = files.filter((file) => file.kind === 'js');
  const css = files.filter((file) => file.kind === 'css');
  const sum = (list: Loaded[], key: 'raw' | 'gzip') => list.reduce((total, file) => total + file[key], 0);

  print(`${'file'.padEnd(48)} ${'raw'.padStart(10)} ${'gzip'.padStart(10)}`);
  for (const file of [...js, ...css].sort((a, b) => b.gzip - a.gzip)) {
    print(`${file.path.padEnd(48)} ${kb(file.raw).padStart(10)} ${kb(file.gzip).padStart(10)}`);
  }
  print(`\n/login interactive after ${interactiveMs.toFixed(0)} ms (loopback, this machine)`);
  print(`JavaScript: ${js.length} files, ${kb(sum(js, 'raw'))} raw, ${kb(sum(js, 'gzip'))} gzipped (goal ≤ 130 KB)`);
  print(`CSS:        ${css.length} files, ${kb(sum(css, 'raw'))} raw, ${kb(sum(css, 'gzip'))} gzipped`);

  const heavy = files.filter((file) => file.heavy);
  if (heavy.length > 0) {
    print(`FAIL: markdown/KaTeX code in ${heavy.map((file) => `${file.path} (${file.heavy})`).join(', ')}`);
    failed = true;
  } else {
    print('KaTeX and markdown: not loaded');
  }
  if (sum(js, 'gzip') > goalJsBytes) {
    print(`FAIL: ${kb(sum(js, 'gzip'))} of JavaScript is over the 130 KB goal`);
    failed = true;
  }
  await context.close();
} finally {
  await browser.close();
  await server.stop();
}
process.exit(failed ? 1 : 0);
