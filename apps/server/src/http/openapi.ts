import { type ErrorCode, errorCodes } from '@flashcards/shared/errors';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
} from 'zod-openapi';
import { apiErrorSchema } from './api-schemas';

/**
 * The OpenAPI 3.1 document of the API, generated from the same zod schemas the routes parse their input with
 * (zod-openapi), served at GET /api/openapi.json. Each module describes its routes in its `*.schemas.ts` as an
 * `ApiPaths` object built with `operation()`; `buildOpenApiDocument` takes the list of them (app.ts). A test
 * compares the document's paths with every route Fastify registered, so a route without a description fails it.
 */

export type ApiPaths = ZodOpenApiPathsObject;
export type OpenApiDocument = ReturnType<typeof createDocument>;

type Body = { type: 'json' | 'form' | 'multipart'; schema: z.ZodType };

export interface OperationSpec {
  summary: string;
  description?: string;
  tags: [string, ...string[]];
  /** Needs `Authorization: Bearer <access_token>`. */
  auth?: boolean;
  body?: Body;
  query?: z.ZodObject;
  params?: z.ZodObject;
  /** The success status, what it means and its JSON body (none for 204, redirects and HTML pages). */
  success: { status: number; description: string; schema?: z.ZodType; contentType?: string };
  /** The error codes this route may answer with, besides the ones every route may (bad_request, internal_error). */
  errors?: ErrorCode[];
}

const mediaTypes = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
} as const;

export const json = (schema: z.ZodType): Body => ({ type: 'json', schema });
export const form = (schema: z.ZodType): Body => ({ type: 'form', schema });
export const multipart = (schema: z.ZodType): Body => ({ type: 'multipart', schema });

/** One route's description: its input schemas, its success and the error codes it may answer. */
export function operation(spec: OperationSpec): ZodOpenApiOperationObject {
  const codes = new Set<ErrorCode>([...(spec.errors ?? []), 'internal_error']);
  if (spec.auth) codes.add('not_authenticated');
  if (spec.body?.type === 'json') codes.add('bad_request');
  if (spec.body || spec.query) codes.add('validation_failed');
  const responses: Record<`${number}`, ZodOpenApiResponseObject> = {
    [`${spec.success.status}`]: {
      description: spec.success.description,
      ...(spec.success.schema
        ? { content: { [spec.success.contentType ?? 'application/json']: { schema: spec.success.schema } } }
        : {}),
    },
  };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes)
    byStatus.set(errorCodes[code].status, [...(byStatus.get(errorCodes[code].status) ?? []), code]);
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[`${status}`] = {
      description: `\`{ detail, code }\` with code ${list.map((code) => `\`${code}\``).join(', ')}`,
      content: { 'application/json': { schema: apiErrorSchema } },
    };
  }
  return {
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: spec.tags,
    ...(spec.auth ? { security: [{ bearerAuth: [] }] } : {}),
    ...(spec.query || spec.params
      ? {
          requestParams: {
            ...(spec.query ? { query: spec.query } : {}),
            ...(spec.params ? { path: spec.params } : {}),
          },
        }
      : {}),
    ...(spec.body
      ? { requestBody: { required: true, content: { [mediaTypes[spec.body.type]]: { schema: spec.body.schema } } } }
      : {}),
    responses,
  };
}

/** The document describes itself too. */
const documentPaths: ApiPaths = {
  '/api/openapi.json': {
    get: operation({
      summary: 'This OpenAPI 3.1 document',
      tags: ['Service'],
      success: { status: 200, description: 'The document', schema: z.record(z.string(), z.unknown()) },
    }),
  },
};

/** Merges the modules' path objects; two modules describing the same method and path is a programming error. */
export function buildOpenApiDocument(modules: ApiPaths[], version: string): OpenApiDocument {
  const paths: ApiPaths = {};
  for (const module of [documentPaths, ...modules]) {
    for (const [path, item] of Object.entries(module)) {
      const existing = paths[path] ?? {};
      for (const method of Object.keys(item)) {
        if (method in existing) throw new Error(`OpenAPI: ${method.toUpperCase()} ${path} is described twice`);
      }
      paths[path] = { ...existing, ...item };
    }
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Flashcards API',
      version,
      description:
        'AI flashcards with spaced repetition. Errors are `{ detail, code }` (docs/api.md lists every code). ' +
        'JSON field names are snake_case; times are ISO-8601 in UTC; ids are 24 lowercase hex characters.',
    },
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    },
    paths,
  });
}

export interface RegisteredRoute {
  method: string;
  /** In OpenAPI's spelling: `/decks/{id}`. */
  path: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered after `trackRoutes` (HEAD routes Fastify adds for GETs left out). */
    registeredRoutes: RegisteredRoute[];
  }
}

/** Records the routes registered from now on, for the test that checks the document covers them all. */
export function trackRoutes(app: FastifyInstance): void {
  const routes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', routes);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const path = route.url.replace(/:(\w+)/g, '{$1}');
    for (const method of methods) if (method !== 'HEAD') routes.push({ method: method.toLowerCase(), path });
  });
}

/** GET /api/openapi.json: the document, built once on first request. */
export function openApiRoutes(app: FastifyInstance, build: () => unknown): void {
  let document: string | undefined;
  app.get('/api/openapi.json', async (_request, reply) => {
    document ??= JSON.stringify(build());
    return reply.type('application/json; charset=utf-8').send(document);
  });
}
