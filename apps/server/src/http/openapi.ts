import { STATUS_CODES } from 'node:http';
import { type ErrorCode, errorCodes } from '@flashcards/shared/errors';
import type { FastifyInstance, FastifySchema, preValidationHookHandler } from 'fastify';
import { z } from 'zod';
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
} from 'zod-openapi';
import { apiErrorSchema } from './api-schemas';
import { readFormFields } from './form-fields';

/**
 * The OpenAPI 3.1 document of the API, generated (zod-openapi) from the schemas declared on the routes themselves,
 * which are the ones Fastify validates with (validation.ts). Served at GET /api/openapi.json.
 */

declare module 'fastify' {
  interface FastifySchema {
    /** One line for the document. */
    summary?: string;
    description?: string;
    tags?: [string, ...string[]];
    /** The error codes the route may answer with, besides those the document adds itself (see `operation`). */
    errors?: ErrorCode[];
    /**
     * How `body` comes: JSON by default; `form` fields (url-encoded, multipart without files, or JSON) are read into
     * `request.body` before the body schema applies.
     */
    consumes?: 'form';
    /**
     * The parts of a multipart upload with a file, which the handler streams itself (a file never sits in memory,
     * and its checks come in the order the contract sets): documented, not validated by Fastify.
     */
    parts?: z.ZodObject;
    /** Left out of the document (the web app's files). */
    hide?: boolean;
  }
  interface FastifyInstance {
    /** Every route registered after `collectRoutes`, but hidden ones and the HEAD routes Fastify adds for GETs. */
    registeredRoutes: RegisteredRoute[];
  }
}

export interface RegisteredRoute {
  method: string;
  /** In OpenAPI's spelling: `/decks/{id}`. */
  path: string;
  schema: FastifySchema | undefined;
  onRequest: unknown[];
}

export type OpenApiDocument = ReturnType<typeof createDocument>;

const mediaTypes = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
} as const;

/** Fills `request.body` with a form's fields, for routes whose schema says `consumes: 'form'`. */
const readForm: preValidationHookHandler = async (request) => {
  request.body = await readFormFields(request);
};

/**
 * Records the routes registered from now on (for the document and the test that checks it lists them all), and
 * gives `consumes: 'form'` routes the step that reads their fields.
 */
export function collectRoutes(app: FastifyInstance): void {
  const routes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', routes);
  app.addHook('onRoute', (route) => {
    if (route.schema?.consumes === 'form') {
      route.preValidation = [readForm, ...[route.preValidation ?? []].flat()];
    }
    if (route.schema?.hide) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const path = route.url.replace(/:(\w+)/g, '{$1}');
    const onRequest = [route.onRequest ?? []].flat();
    for (const method of methods) {
      if (method !== 'HEAD') routes.push({ method: method.toLowerCase(), path, schema: route.schema, onRequest });
    }
  });
}

const isVoid = (schema: unknown): boolean => schema instanceof z.ZodVoid;

function successResponse(status: string, schema: z.ZodType): ZodOpenApiResponseObject {
  const meta = z.globalRegistry.get(schema);
  const description = meta?.description ?? STATUS_CODES[Number(status)] ?? status;
  if (isVoid(schema)) return { description };
  const mediaType = typeof meta?.contentMediaType === 'string' ? meta.contentMediaType : mediaTypes.json;
  return { description, content: { [mediaType]: { schema } } };
}

/** One route's operation: its input schemas, its responses, and the error codes it may answer with. */
function operation(route: RegisteredRoute, authenticate: unknown): ZodOpenApiOperationObject {
  const schema = route.schema ?? {};
  if (!schema.summary || !schema.tags || !schema.response) {
    throw new Error(`OpenAPI: ${route.method.toUpperCase()} ${route.path} declares no summary, tags or response`);
  }
  const auth = route.onRequest.includes(authenticate);
  const body = (schema.body ?? schema.parts) as z.ZodType | undefined;
  const bodyType = schema.parts ? 'multipart' : (schema.consumes ?? 'json');
  const query = schema.querystring as z.ZodObject | undefined;
  const params = schema.params as z.ZodObject | undefined;
  const codes = new Set<ErrorCode>([...(schema.errors ?? []), 'internal_error']);
  if (auth) codes.add('not_authenticated');
  if (bodyType === 'json' && body) codes.add('bad_request');
  if (body || query) codes.add('validation_failed');
  const responses: Record<string, ZodOpenApiResponseObject> = {};
  for (const [status, response] of Object.entries(schema.response as Record<string, z.ZodType>)) {
    responses[status] = successResponse(status, response);
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    byStatus.set(errorCodes[code].status, [...(byStatus.get(errorCodes[code].status) ?? []), code]);
  }
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[`${status}`] = {
      description: `\`{ detail, code }\` with code ${list.map((code) => `\`${code}\``).join(', ')}`,
      content: { 'application/json': { schema: apiErrorSchema } },
    };
  }
  return {
    summary: schema.summary,
    ...(schema.description ? { description: schema.description } : {}),
    tags: schema.tags,
    ...(auth ? { security: [{ bearerAuth: [] }] } : {}),
    ...(query || params ? { requestParams: { ...(query ? { query } : {}), ...(params ? { path: params } : {}) } } : {}),
    ...(body ? { requestBody: { required: true, content: { [mediaTypes[bodyType]]: { schema: body } } } } : {}),
    responses,
  };
}

/** The API version in the document; bump it when a response shape changes incompatibly. */
export const apiVersion = '1.0.0';

/** The document of every collected route (Fastify itself refuses a method and path registered twice). */
export function buildOpenApiDocument(app: FastifyInstance): OpenApiDocument {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of app.registeredRoutes) {
    paths[route.path] = { ...paths[route.path], [route.method]: operation(route, app.authenticate) };
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Flashcards API',
      version: apiVersion,
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

/** GET /api/openapi.json: the document, built once on first request. */
export function openApiRoutes(app: FastifyInstance, build: () => unknown): void {
  let document: string | undefined;
  app.get(
    '/api/openapi.json',
    {
      schema: {
        summary: 'This OpenAPI 3.1 document',
        tags: ['Service'],
        response: { 200: z.record(z.string(), z.unknown()).meta({ description: 'The document' }) },
      },
    },
    async (_request, reply) => {
      document ??= JSON.stringify(build());
      return reply.type('application/json; charset=utf-8').send(document);
    },
  );
}
