import { type ErrorCode, errorCodes } from '@flashcards/shared/errors';
import type { z } from 'zod';
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject, ZodOpenApiResponseObject } from 'zod-openapi';
import { apiErrorSchema } from './api-schemas';

/** The old per-module path tables, for the modules whose routes do not declare their schemas yet. */

export type ApiPaths = ZodOpenApiPathsObject;

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
