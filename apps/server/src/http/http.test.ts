import { rmSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { serverMessages } from '@flashcards/shared/server-messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../test/support/api-error';
import { createTestApp, type TestContext } from '../../test/support/test-app';
import { INDEX_HTML, writeWebDist } from '../../test/support/web-dist';

const BIG_SCRIPT = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word${i}`))};`;

let ctx: TestContext;
let webDistDir: string;

beforeAll(async () => {
  webDistDir = writeWebDist({
    'assets/app-abc123.js': 'console.log("app")',
    'assets/big-abc123.js': BIG_SCRIPT,
    'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
  });
  ctx = await createTestApp({
    webDistDir,
    beforeReady: (app) => {
      app.get('/test/explode', async () => {
        throw new Error('secret internals: SELECT * FROM users at /srv/app/db.ts');
      });
      app.post('/test/echo', async (request) => ({ received: request.body }));
    },
  });
});

afterAll(async () => {
  await ctx.close();
  rmSync(webDistDir, { recursive: true, force: true });
});

describe('GET /healthz', () => {
  it('answers 200 { status: "ok" } once the database answers', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });
});

describe('GET /api/config', () => {
  it('tells the web app what this server offers, and no secret', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/config' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ google_client_id: null, ai_provider: 'offline', payment_mode: 'test' });
  });

  it('names the model when a real AI provider is configured, and says live when Stripe is', async () => {
    const configured = await createTestApp({
      env: {
        OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
        OPENAI_API_KEY: 'sk-secret-value',
        AI_MODEL: 'llama3.1:8b',
        STRIPE_SECRET_KEY: 'sk_test_secret_value',
      },
    });
    try {
      const response = await configured.app.inject({ method: 'GET', url: '/api/config' });
      expect(response.json()).toEqual({ google_client_id: null, ai_provider: 'llama3.1:8b', payment_mode: 'live' });
      expect(response.body).not.toContain('secret');
    } finally {
      await configured.close();
    }
  });
});

describe('the web app on the same origin', () => {
  it.each(['/', '/login', '/review', '/share/abc123', '/best-for/teachers', '/some/unknown/page'])(
    'GET %s asking for HTML gets index.html',
    async (url) => {
      const response = await ctx.app.inject({ method: 'GET', url, headers: { accept: 'text/html,*/*;q=0.8' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toBe(INDEX_HTML);
    },
  );

  it('serves hashed assets with a long cache, and other files as they are', async () => {
    const asset = await ctx.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log("app")');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await ctx.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
  });

  it('compresses what is worth compressing for clients that accept it', async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/assets/big-abc123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(response.rawPayload).toString()).toBe(BIG_SCRIPT);
    const plain = await ctx.app.inject({ method: 'GET', url: '/assets/big-abc123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG_SCRIPT);
  });

  it('answers an unknown API path, a missing asset and a non-GET with a JSON 404', async () => {
    for (const request of [
      { method: 'GET' as const, url: '/decks-that-do-not-exist', headers: { accept: 'application/json' } },
      { method: 'GET' as const, url: '/assets/missing.js', headers: { accept: 'text/html' } },
      { method: 'POST' as const, url: '/login/extra', headers: { accept: 'text/html' } },
    ]) {
      const response = await ctx.app.inject(request);
      expect(response.statusCode, request.url).toBe(404);
      expect(response.json()).toEqual({ detail: serverMessages.notFound, code: 'not_found' });
    }
  });

  it('an API GET route is never shadowed by the web app', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/healthz', headers: { accept: 'text/html' } });
    expect(response.json()).toEqual({ status: 'ok' });
  });
});

describe('the error model', () => {
  it.each([
    {
      what: 'malformed JSON with 400 bad_request',
      request: { url: '/signup', contentType: 'application/json', payload: '{"email": ' },
      expected: [400, 'bad_request', serverMessages.malformedJson],
    },
    {
      what: 'an unsupported content type with 400 bad_request',
      request: { url: '/test/echo', contentType: 'application/x-something', payload: 'x' },
      expected: [400, 'bad_request', serverMessages.unsupportedContentType],
    },
    {
      what: 'a body over the limit with 413 payload_too_large',
      request: {
        url: '/test/echo',
        contentType: 'application/json',
        payload: JSON.stringify({ text: 'x'.repeat(1_100_000) }),
      },
      expected: [413, 'payload_too_large', serverMessages.bodyTooLarge],
    },
  ] as const)('answers $what', async ({ request, expected }) => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: request.url,
      headers: { 'content-type': request.contentType },
      payload: request.payload,
    });
    const [status, code, detail] = expected;
    expectError(response, status, code, detail);
  });

  it('answers an unexpected failure with a generic 500 that reveals nothing inside', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/test/explode' });
    expectError(response, 500, 'internal_error', serverMessages.internalError);
    expect(response.body).not.toMatch(/secret|SELECT|\/srv|stack/);
  });
});

describe('headers', () => {
  it('gives a page the full security headers, with the policy that lets the app and Google sign-in load', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/review', headers: { accept: 'text/html' } });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    expect(response.headers['origin-agent-cluster']).toBe('?1');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain('https://accounts.google.com/gsi/client');
  });

  it.each([
    ['a JSON answer', { method: 'GET' as const, url: '/healthz' }],
    ['an error', { method: 'GET' as const, url: '/decks/stats' }],
    ['an asset', { method: 'GET' as const, url: '/assets/app-abc123.js' }],
  ])('gives %s the strict answer headers: no sources, never framed or sniffed', async (_name, request) => {
    const response = await ctx.app.inject(request);
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(response.headers['cross-origin-opener-policy']).toBeUndefined();
  });

  it('gives every response a request id, keeping a well-formed one the client sent', async () => {
    const generated = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await ctx.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'lb-42.abc' } });
    expect(kept.headers['x-request-id']).toBe('lb-42.abc');
    const replaced = await ctx.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
