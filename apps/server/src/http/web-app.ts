import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { serverMessages } from '@flashcards/shared/server-messages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** dist/prerendered/manifest.json, written by the web app's build (apps/web/scripts/prerender.mjs). */
interface PrerenderManifest {
  /** Public pages, prerendered as a visitor sees them: path → file. */
  pages: Record<string, string>;
  /** Signed-in pages' shell (navigation bar, skeleton): path → file. */
  shells: Record<string, string>;
}

/** Each prerendered page's HTML by path, read once at start-up; empty for a build without them. */
function loadPrerendered(distDir: string): Map<string, Buffer> {
  const dir = path.join(distDir, 'prerendered');
  const manifestFile = path.join(dir, 'manifest.json');
  if (!existsSync(manifestFile)) return new Map();
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as PrerenderManifest;
  return new Map(
    Object.entries({ ...manifest.shells, ...manifest.pages }).map(([page, file]) => [
      page,
      readFileSync(path.join(dir, path.basename(file))),
    ]),
  );
}

/**
 * The service worker's own policy: a worker runs under the policy its script came with, and the strict one every
 * non-page answer gets would block the worker's Workbox import and every fetch it makes to fill its caches.
 */
export const serviceWorkerPolicy = "default-src 'none'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

/**
 * Serves the built web app from one origin with the API: hashed files under /assets/ (cached for a year), other
 * top-level files as they are, and for every other GET that asks for HTML the page prerendered for that path (the
 * public pages, the signed-in shell) or else index.html, so that the SPA's own routes (/login, /review,
 * /share/…) load on a reload. Anything else unknown is a JSON 404.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string | undefined): Promise<void> {
  const indexFile = distDir ? path.join(distDir, 'index.html') : undefined;
  const hasBuild = indexFile !== undefined && existsSync(indexFile);
  const indexHtml = hasBuild ? readFileSync(indexFile) : undefined;
  const prerendered = hasBuild && distDir ? loadPrerendered(distDir) : new Map<string, Buffer>();

  if (hasBuild && distDir) {
    app.addHook('onRequest', (request, reply, done) => {
      if (request.url.split('?', 1)[0] === '/sw.js') reply.header('content-security-policy', serviceWorkerPolicy);
      done();
    });
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      cacheControl: false,
      // Source maps (an older build may hold some) would publish the sources: never served. Prerendered pages are
      // served at their own paths only.
      allowedPath: (pathName) => !pathName.endsWith('.map') && !pathName.startsWith('/prerendered/'),
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        // The installed app's service worker is checked afresh on each visit, so a new version is found at once.
        const worker = path.basename(filePath) === 'sw.js';
        res.setHeader(
          'cache-control',
          immutable ? 'public, max-age=31536000, immutable' : worker ? 'no-cache' : 'public, max-age=300',
        );
      },
    });
  }

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    if (indexHtml && (request.method === 'GET' || request.method === 'HEAD') && wantsHtml(request)) {
      const page = prerendered.get(request.url.split('?', 1)[0] ?? '') ?? indexHtml;
      return reply.status(200).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page);
    }
    return reply.status(404).send({ detail: serverMessages.notFound, code: 'not_found' });
  });
}

function wantsHtml(request: FastifyRequest): boolean {
  if (request.url.startsWith('/assets/')) return false;
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html');
}
