import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { messages } from '@flashcards/shared/messages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Serves the built web app from one origin with the API: hashed files under /assets/ (cached for a year), other
 * top-level files as they are, and index.html for every other GET that asks for HTML, so that the SPA's own
 * routes (/login, /review, /share/…) load on a reload. Anything else unknown is a JSON 404.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string | undefined): Promise<void> {
  const indexFile = distDir ? path.join(distDir, 'index.html') : undefined;
  const hasBuild = indexFile !== undefined && existsSync(indexFile);
  const indexHtml = hasBuild ? readFileSync(indexFile) : undefined;

  if (hasBuild && distDir) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      cacheControl: false,
      // Source maps (an older build may hold some) would publish the sources: never served.
      allowedPath: (pathName) => !pathName.endsWith('.map'),
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
      },
    });
  }

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    if (indexHtml && (request.method === 'GET' || request.method === 'HEAD') && wantsHtml(request)) {
      return reply.status(200).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
    }
    return reply.status(404).send({ detail: messages.notFound, code: 'not_found' });
  });
}

function wantsHtml(request: FastifyRequest): boolean {
  if (request.url.startsWith('/assets/')) return false;
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html');
}
