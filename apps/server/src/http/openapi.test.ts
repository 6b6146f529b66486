import SwaggerParser from '@apidevtools/swagger-parser';
import { errorCodes } from '@flashcards/shared/errors';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/support/test-app';

const ctx = useTestApp();

const methods = ['get', 'put', 'post', 'delete', 'patch'] as const;

type Document = { openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };

async function fetchDocument(): Promise<Document> {
  const response = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  return response.json();
}

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const document = await fetchDocument();
    expect(document.openapi).toBe('3.1.0');
    // The parser validates against the OpenAPI 3.1 schema and resolves every $ref; it throws on any problem.
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
  });

  it('has every registered route declare its summary, tags and response', () => {
    const undeclared = ctx.app.registeredRoutes
      .filter((route) => !route.schema?.summary || !route.schema.tags || !route.schema.response)
      .map((route) => `${route.method} ${route.path}`);
    expect(undeclared).toEqual([]);
  });

  it('describes exactly the routes Fastify registered, method by method', async () => {
    const document = await fetchDocument();
    const documented = Object.entries(document.paths)
      .flatMap(([path, item]) => methods.filter((method) => method in item).map((method) => `${method} ${path}`))
      .sort();
    const registered = ctx.app.registeredRoutes.map((route) => `${route.method} ${route.path}`).sort();
    expect(registered.length).toBeGreaterThan(30);
    expect(documented).toEqual(registered);
  });

  it('lists the error responses with codes of the shared table and their statuses', async () => {
    const document = await fetchDocument();
    const text = JSON.stringify(document);
    for (const code of Object.keys(errorCodes)) expect(text).toContain(code);
    const signup = document.paths['/signup']?.post;
    expect(Object.keys(signup?.responses ?? {}).sort()).toEqual(['201', '400', '409', '422', '429', '500']);
    const me = document.paths['/users/me']?.get;
    expect(Object.keys(me?.responses ?? {}).sort()).toEqual(['200', '401', '500']);
  });
});
