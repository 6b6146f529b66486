import formbody from '@fastify/formbody';
import { serverMessages } from '@flashcards/shared/server-messages';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerAuthentication } from './authenticate';
import { registerErrorHandler } from './error-handler';
import { buildOpenApiDocument, collectRoutes } from './openapi';
import type { SessionUser } from './session-user';
import { failsWith, registerZodCompilers, type ZodTypeProvider } from './validation';

const nameSchema = z.object({
  name: z
    .string({ error: (issue) => (issue.input === undefined ? 'Name it.' : 'Not text.') })
    .trim()
    .min(1, { error: 'Name it.' })
    .max(5, { error: 'Too long.' }),
});
const zoneSchema = failsWith(z.object({ zone: z.literal('UTC', { error: 'Not a zone.' }) }), 'invalid_time_zone');

/** A bare app with the project's compilers, route collector and error handler, and three declared routes. */
async function declaredApp(options: { undeclared?: boolean } = {}) {
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  registerZodCompilers(app);
  collectRoutes(app);
  registerErrorHandler(app);
  registerAuthentication(app, async (token) => (token === 'good' ? ({ id: 'u1' } as SessionUser) : null));
  await app.register(formbody);
  const schema = { summary: 'Name a thing', tags: ['Things'] as [string], response: { 201: nameSchema } };
  app.post('/json', { schema: { ...schema, body: nameSchema, errors: ['deck_not_found'] } }, async (request, reply) =>
    reply.status(201).send({ name: request.body.name }),
  );
  app.post(
    '/form',
    { onRequest: app.authenticate, schema: { ...schema, consumes: 'form', body: nameSchema } },
    async (request, reply) => reply.status(201).send({ name: request.body.name }),
  );
  app.put('/zone', { schema: { ...schema, body: zoneSchema } }, async (request, reply) =>
    reply.status(201).send({ name: request.body.zone }),
  );
  if (options.undeclared) app.get('/undeclared', async () => 'x');
  return app;
}

describe('a route that declares its schema', () => {
  it('is validated by Fastify with it: the rule’s message, every problem, and the handler gets the output', async () => {
    const app = await declaredApp();
    const wrong = await app.inject({ method: 'POST', url: '/json', payload: { name: 42 } });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toEqual({
      detail: 'Not text.',
      code: 'validation_failed',
      errors: [{ field: 'name', message: 'Not text.' }],
    });
    const ok = await app.inject({ method: 'POST', url: '/json', payload: { name: '  ab  ' } });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toEqual({ name: 'ab' });
    const nul = await app.inject({ method: 'PUT', url: '/zone', payload: { zone: 'U\u0000' } });
    expect(nul.json()).toEqual({ detail: serverMessages.nulCharacter, code: 'validation_failed' });
    await app.close();
  });

  it('answers with the code failsWith names, keeping the message and the problems', async () => {
    const app = await declaredApp();
    const response = await app.inject({ method: 'PUT', url: '/zone', payload: { zone: 'Mars' } });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      detail: 'Not a zone.',
      code: 'invalid_time_zone',
      errors: [{ field: 'zone', message: 'Not a zone.' }],
    });
    await app.close();
  });

  it('reads a form’s fields before validating them (consumes: form), after authentication', async () => {
    const app = await declaredApp();
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const anonymous = await app.inject({ method: 'POST', url: '/form', headers: form, payload: 'name=ab' });
    expect(anonymous.statusCode).toBe(401);
    const headers = { ...form, authorization: 'Bearer good' };
    const ok = await app.inject({ method: 'POST', url: '/form', headers, payload: 'name=%20ab' });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toEqual({ name: 'ab' });
    // A JSON post to a form route keeps its string fields only, as readFormFields always did: 7 is no name at all.
    const json = await app.inject({
      method: 'POST',
      url: '/form',
      headers: { authorization: 'Bearer good' },
      payload: { name: 7 },
    });
    expect(json.statusCode).toBe(422);
    expect(json.json()).toMatchObject({ detail: 'Name it.', code: 'validation_failed' });
    await app.close();
  });
});

describe('the document built from declared routes', () => {
  it('carries the validated schemas, the media type, the security and the error codes', async () => {
    const app = await declaredApp();
    await app.ready();
    const document = JSON.parse(JSON.stringify(buildOpenApiDocument(app)));
    const json = document.paths['/json'].post;
    expect(json.requestBody.content['application/json'].schema).toEqual({
      type: 'object',
      properties: { name: { type: 'string', minLength: 1, maxLength: 5 } },
      required: ['name'],
    });
    expect(Object.keys(json.responses).sort()).toEqual(['201', '400', '404', '422', '500']);
    expect(json.security).toBeUndefined();
    const form = document.paths['/form'].post;
    expect(Object.keys(form.requestBody.content)).toEqual(['application/x-www-form-urlencoded']);
    expect(form.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(form.responses).sort()).toEqual(['201', '401', '422', '500']);
    await app.close();
  });

  it('refuses to leave out a route that declares no summary, tags or response, naming it', async () => {
    const app = await declaredApp({ undeclared: true });
    await app.ready();
    expect(() => buildOpenApiDocument(app)).toThrow('GET /undeclared declares no summary, tags or response');
    await app.close();
  });
});
