// After `vite build` (the browser's files in dist/) and `vite build --ssr` (src/entry-server.tsx for Node, in
// .ssr/): renders the public pages and the signed-in shell into copies of dist/index.html, under
// dist/prerendered/, with a manifest that the server reads (apps/server/src/http/web-app.ts). The Node build is
// removed afterwards: it is a tool of the build, never served.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const distDir = path.join(webDir, 'dist');
const ssrDir = path.join(webDir, '.ssr');
const outDir = path.join(distDir, 'prerendered');
const emptyRoot = '<div id="root"></div>';

const built = readFileSync(path.join(distDir, 'index.html'), 'utf8');
if (!built.includes(emptyRoot)) throw new Error(`dist/index.html has no ${emptyRoot} to fill`);

/**
 * What a prerendered page needs for its first paint is in the HTML itself: the entry stylesheet inlined (no
 * request before the paint), and the app's code loaded by public/start-app.js after the first frame instead of
 * from the head (where it would share the connection with the paint). start-app.js then also preloads, side by
 * side with the entry, the chunks the entry imports and those of the page's own route (from Vite's manifest), which
 * the browser would otherwise discover one round trip after another.
 */
const viteManifestFile = path.join(distDir, '.vite', 'manifest.json');
const viteManifest = JSON.parse(readFileSync(viteManifestFile, 'utf8'));
// The public pages' light entry is a build of its own (`vite build --mode public`), with its own manifest.
const publicManifest = JSON.parse(readFileSync(path.join(distDir, '.vite', 'public-manifest.json'), 'utf8'));
const entryPreloads = [...built.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);

/** The files a source module needs when imported: its chunk, the chunks it imports (transitively) and their CSS. */
function chunkFiles(key, manifest = viteManifest, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`Vite's manifest has no ${key}`);
  if (seen.has(key)) return [];
  seen.add(key);
  const own = [chunk.file, ...(chunk.css ?? [])].map((file) => `/${file}`);
  return [...own, ...(chunk.imports ?? []).flatMap((imported) => chunkFiles(imported, manifest, seen))];
}

/** The public pages' light entry (src/public-main.tsx): what a visitor's prerendered page loads instead of the app. */
const publicEntry = 'src/public-main.tsx';

function paintFirst(html, pageModule, kind) {
  const entry = html.match(/<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/);
  const stylesheet = html.match(/<link rel="stylesheet" crossorigin href="(\/assets\/[^"]+\.css)">/);
  if (!entry || !stylesheet) throw new Error('dist/index.html lacks the entry script or stylesheet Vite writes');
  const css = readFileSync(path.join(distDir, stylesheet[1]), 'utf8');
  if (css.includes('</style')) throw new Error(`${stylesheet[1]} cannot be inlined: it contains </style`);
  // A visitor's public page loads the light entry and the page's code from its build; a shell loads the app.
  const manifest = kind === 'page' ? publicManifest : viteManifest;
  const entryFile = kind === 'page' ? `/${publicManifest[publicEntry].file}` : entry[1];
  const entryChunks = kind === 'page' ? chunkFiles(publicEntry, manifest) : entryPreloads;
  const preloads = [...new Set([...entryChunks, ...chunkFiles(pageModule, manifest)])].filter(
    (file) => file !== entryFile && file !== stylesheet[1],
  );
  return html
    .replace(
      entry[0],
      () =>
        `<script src="/start-app.js" data-entry="${entryFile}" data-preload="${preloads.join(' ')}" defer></script>`,
    )
    .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
    .replace(stylesheet[0], () => `<style>${css}</style>`);
}

const escapeHtml = (text) =>
  text.replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char]);

/**
 * index.html with the rendered markup in #root (marked for main.tsx and, on a public page, naming the app's entry
 * for public-main.tsx to start when the visitor turns out to be signed in), the page's own title and preloads.
 */
function fill(rendered, kind, pageModule) {
  const appEntry = built.match(/<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/)?.[1];
  const appEntryAttribute = kind === 'page' ? ` data-app-entry="${appEntry}"` : '';
  const withRoot = paintFirst(built, pageModule, kind).replace(
    emptyRoot,
    () => `<div id="root" data-prerendered="${kind}"${appEntryAttribute}>${rendered.html}</div>`,
  );
  if (rendered.title === null) return withRoot;
  return withRoot.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(rendered.title)}</title>`);
}

/** '/best-for/teachers' → 'best-for--teachers.html'. */
const fileName = (page, prefix = '') => `${prefix}${page.slice(1).replaceAll('/', '--')}.html`;

const entry = await import(pathToFileURL(path.join(ssrDir, 'entry-server.js')).href);
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const manifest = { pages: {}, shells: {} };
for (const page of entry.prerenderedPages) {
  const name = fileName(page);
  writeFileSync(path.join(outDir, name), fill(await entry.renderPage(page), 'page', entry.pageModule(page)));
  manifest.pages[page] = name;
}
for (const page of entry.shellPages) {
  const name = fileName(page, 'shell--');
  writeFileSync(path.join(outDir, name), fill(await entry.renderShell(page), 'shell', entry.pageModule(page)));
  manifest.shells[page] = name;
}
writeFileSync(path.join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

/**
 * The installed app opens on /review (the web manifest's start_url) from its service worker: that worker answers it
 * with the review shell, not the empty index.html, so that a repeat visit paints before the app's code has run
 * (the other shells stay out of the precache, which has a size budget). The worker was written by `vite build`,
 * before the shells existed: the shell is copied beside index.html (/review.html, which Workbox's precache answers
 * for /review) and added to the worker's precache list with its content's hash.
 */
const offlineShells = ['/review'];
const workerFile = path.join(distDir, 'sw.js');
if (existsSync(workerFile)) {
  const worker = readFileSync(workerFile, 'utf8');
  const listStart = 'precacheAndRoute([';
  if (worker.split(listStart).length !== 2)
    throw new Error(`dist/sw.js has no single ${listStart} to add the shells to`);
  const entries = offlineShells.map((page) => {
    const name = manifest.shells[page];
    const html = readFileSync(path.join(outDir, name));
    const url = fileName(page);
    writeFileSync(path.join(distDir, url), html);
    return `{url:${JSON.stringify(url)},revision:${JSON.stringify(createHash('md5').update(html).digest('hex'))}},`;
  });
  writeFileSync(
    workerFile,
    worker.replace(listStart, () => `${listStart}${entries.join('')}`),
  );
}
rmSync(ssrDir, { recursive: true, force: true });
// Vite's manifest was read above; it is not part of the site.
rmSync(path.dirname(viteManifestFile), { recursive: true, force: true });
process.stdout.write(
  `Prerendered ${Object.keys(manifest.pages).length} public pages and ${Object.keys(manifest.shells).length} shells into dist/prerendered/\n`,
);
