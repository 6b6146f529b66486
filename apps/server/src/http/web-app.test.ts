import { rmSync } from 'node:fs';
import { serverMessages } from '@flashcards/shared/server-messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/support/test-app';
import { INDEX_HTML, writeWebDist } from '../../test/support/web-dist';

const page = (text: string, kind = 'page') =>
  `<!doctype html><html><body><div id="root" data-prerendered="${kind}"><h1>${text}</h1></div></body></html>`;
const LOGIN_HTML = page('Turn your notes into flashcards with AI');
const TEACHERS_HTML = page('Flashcards for your class');
const REVIEW_SHELL = page('', 'shell');
const SERVICE_WORKER = "importScripts('./workbox.js');";

let ctx: TestContext;
let webDistDir: string;

beforeAll(async () => {
  webDistDir = writeWebDist({
    'sw.js': SERVICE_WORKER,
    'prerendered/login.html': LOGIN_HTML,
    'prerendered/best-for--teachers.html': TEACHERS_HTML,
    'prerendered/shell--review.html': REVIEW_SHELL,
    'prerendered/manifest.json': JSON.stringify({
      pages: { '/login': 'login.html', '/best-for/teachers': 'best-for--teachers.html' },
      shells: { '/review': 'shell--review.html' },
    }),
  });
  ctx = await createTestApp({ webDistDir });
});

afterAll(async () => {
  await ctx.close();
  rmSync(webDistDir, { recursive: true, force: true });
});

const getHtml = async (url: string, method: 'GET' | 'HEAD' = 'GET') =>
  await ctx.app.inject({ method, url, headers: { accept: 'text/html,*/*;q=0.8' } });

describe('prerendered pages', () => {
  it.each([
    ['/login', LOGIN_HTML],
    ['/login?tab=signup', LOGIN_HTML],
    ['/best-for/teachers', TEACHERS_HTML],
    ['/review', REVIEW_SHELL],
  ])('GET %s asking for HTML gets its prerendered page, as a page', async (url, expected) => {
    const response = await getHtml(url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.body).toBe(expected);
  });

  it.each(['/', '/login/', '/LOGIN', '/best-for/astronauts', '/share/abc123', '/create'])(
    'GET %s, which has no prerendered page, gets index.html',
    async (url) => {
      const response = await getHtml(url);
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(INDEX_HTML);
    },
  );

  it('answers HEAD like GET, without a body', async () => {
    const response = await getHtml('/login', 'HEAD');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toBe('');
  });

  it('serves the prerendered files at their pages only, never under /prerendered/', async () => {
    for (const url of ['/prerendered/login.html', '/prerendered/manifest.json']) {
      const response = await ctx.app.inject({ method: 'GET', url, headers: { accept: 'application/json' } });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ detail: serverMessages.notFound, code: 'not_found' });
    }
  });

  it('keeps API answers JSON for a client that does not ask for HTML', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/login', headers: { accept: 'application/json' } });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: serverMessages.notFound, code: 'not_found' });
  });
});

describe('the service worker', () => {
  it('is served with a policy that lets it import Workbox and fill its caches from this origin, checked afresh', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/sw.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(SERVICE_WORKER);
    expect(response.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
    );
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('leaves the strict policy on the other files', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/sw.js.map' });
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  });
});
