/**
 * What a visitor's browser downloads before /login is interactive: every script and stylesheet the page loaded
 * by the time it is hydrated (React has adopted the prerendered page) and the network is quiet, measured in
 * Debian's chromium against the real server (started as `npm start` does, so the web app is built first when
 * stale), each body gzipped here (level 6, what a compressing proxy typically sends). The page's HTML is counted
 * apart, and so is the entry stylesheet, which the prerendered pages carry inlined in their HTML: its size is that
 * of the <style> element. KaTeX's stylesheet is reported on its own line (it belongs to the card renderer's chunk).
 * Goal (issue #31): at most 100 KB of JavaScript; KaTeX and markdown not among it. 1 KB = 1024 bytes.
 */
import { gzipSync } from 'node:zlib';
import { launchBrowser } from '../e2e/support/browser';
import { startServer } from '../e2e/support/server';

const goalJsBytes = 100 * 1024;
const heavyLibraries = /katex|micromark|remark-|rehype-|react-markdown|mdast/i;

interface Loaded {
  path: string;
  kind: 'js' | 'css';
  raw: number;
  gzip: number;
  heavy: string | null;
  /** A stylesheet declaring KaTeX's fonts: KaTeX's own. */
  katexFonts: boolean;
}

const print = (line = '') => process.stdout.write(`${line}\n`);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

// BENCH_PORT pins the port (a band of ports per person on a shared machine); otherwise any free one.
const server = await startServer({}, { port: process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : undefined });
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
          katexFonts: type === 'stylesheet' && body.includes('font-family:KaTeX_'),
        };
      }),
    );
  });

  const started = performance.now();
  const landing = await page.goto('/login');
  await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
  // The button is in the prerendered HTML: interactive means hydrated, when React has adopted the page's nodes.
  await page.waitForFunction(() =>
    Object.keys(document.getElementById('main') ?? {}).some((key) => key.startsWith('__reactFiber')),
  );
  const interactiveMs = performance.now() - started;
  await page.waitForLoadState('networkidle');
  const files = (await Promise.all(loaded)).filter((file): file is Loaded => file !== null);
  const html = (await landing?.body()) ?? Buffer.alloc(0);
  const inlineCss = Buffer.from(
    await page.evaluate(() => [...document.querySelectorAll('head style')].map((style) => style.textContent).join('')),
  );

  const js = files.filter((file) => file.kind === 'js');
  const css = files.filter((file) => file.kind === 'css');
  const sum = (list: Loaded[], key: 'raw' | 'gzip') => list.reduce((total, file) => total + file[key], 0);

  print(`${'file'.padEnd(48)} ${'raw'.padStart(10)} ${'gzip'.padStart(10)}`);
  for (const file of [...js, ...css].sort((a, b) => b.gzip - a.gzip)) {
    print(`${file.path.padEnd(48)} ${kb(file.raw).padStart(10)} ${kb(file.gzip).padStart(10)}`);
  }
  // KaTeX's own stylesheet is the one declaring its fonts; the entry stylesheet is the one index.html links (or inlines).
  const katexCss = css.filter((file) => file.katexFonts);
  const entryCss = css.filter((file) => !file.katexFonts && /^\/assets\/index-[^/]+\.css$/.test(file.path));
  const otherCss = css.filter((file) => !file.katexFonts && !entryCss.includes(file));
  const entryRaw = inlineCss.length + sum(entryCss, 'raw');
  const entryGzip = (inlineCss.length > 0 ? gzipSync(inlineCss, { level: 6 }).length : 0) + sum(entryCss, 'gzip');
  print(`\n/login hydrated after ${interactiveMs.toFixed(0)} ms (loopback, this machine)`);
  print(`HTML:       ${kb(html.length)} raw, ${kb(gzipSync(html, { level: 6 }).length)} gzipped`);
  print(`JavaScript: ${js.length} files, ${kb(sum(js, 'raw'))} raw, ${kb(sum(js, 'gzip'))} gzipped (goal ≤ 100 KB)`);
  print(
    `Entry CSS:  ${kb(entryRaw)} raw, ${kb(entryGzip)} gzipped (${inlineCss.length > 0 ? 'inlined in the HTML' : `${entryCss.length} file`})`,
  );
  print(`KaTeX CSS:  ${katexCss.length} files, ${kb(sum(katexCss, 'raw'))} raw, ${kb(sum(katexCss, 'gzip'))} gzipped`);
  if (otherCss.length > 0) print(`Other CSS:  ${otherCss.length} files, ${kb(sum(otherCss, 'gzip'))} gzipped`);

  const inlineHeavy = inlineCss.toString('utf8').match(heavyLibraries);
  if (inlineHeavy) {
    print(`FAIL: markdown/KaTeX styles in the inlined entry CSS (${inlineHeavy[0]})`);
    failed = true;
  }
  const heavy = files.filter((file) => file.heavy);
  if (heavy.length > 0) {
    print(`FAIL: markdown/KaTeX code in ${heavy.map((file) => `${file.path} (${file.heavy})`).join(', ')}`);
    failed = true;
  } else {
    print('KaTeX and markdown: not loaded');
  }
  if (sum(js, 'gzip') > goalJsBytes) {
    print(`FAIL: ${kb(sum(js, 'gzip'))} of JavaScript is over the 100 KB goal`);
    failed = true;
  }
  await context.close();
} finally {
  await browser.close();
  await server.stop();
}
process.exit(failed ? 1 : 0);
