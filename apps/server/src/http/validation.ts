import { type ErrorCode, isErrorCode } from '@flashcards/shared/errors';
import { serverMessages } from '@flashcards/shared/server-messages';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifySchemaCompiler,
  FastifyTypeProvider,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { z } from 'zod';
import { AppError } from './app-error';
import { containsNul } from './input-guards';

/**
 * Request schemas are zod schemas declared on the route (`schema: { body, querystring, params }`); Fastify validates
 * with them before the handler runs, and the handler gets their output, typed, through the type provider below.
 */

/** Types `request.body`, `request.query` and `request.params` as the output of the route's zod schemas. */
export interface ZodTypeProvider extends FastifyTypeProvider {
  readonly validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  readonly serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}

/** The app as route modules see it: `app.get(url, { schema }, handler)` types the handler's input from the schema. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

const failureCodes = new WeakMap<z.ZodType, ErrorCode>();

/** A schema whose failures answer with another 422 code of the shared table than validation_failed. */
export function failsWith<T extends z.ZodType>(schema: T, code: ErrorCode): T {
  failureCodes.set(schema, code);
  return schema;
}

/**
 * A request part that fails its schema: 422 validation_failed, the first problem as `detail` (schemas carry the
 * user-facing messages) and every problem in `errors`. A custom rule may name another 422 code of the shared table
 * with `params: { code: 'invalid_deck_id' }`, a whole schema with `failsWith`. A NUL anywhere is refused first
 * (PostgreSQL text cannot hold it).
 */
function checkInput(schema: z.ZodType, input: unknown): { value: unknown } | { error: AppError } {
  if (containsNul(input)) return { error: new AppError('validation_failed', serverMessages.nulCharacter) };
  const result = schema.safeParse(input ?? {});
  if (result.success) return { value: result.data };
  const first = result.error.issues[0];
  const errors = result.error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message }));
  const named = first?.code === 'custom' ? first.params?.code : undefined;
  const code = isErrorCode(named) ? named : 'validation_failed';
  if (code !== 'validation_failed')
    return { error: new AppError(code, first?.message ?? serverMessages.validationFailed) };
  const detail = errors[0]?.message ?? serverMessages.validationFailed;
  return { error: new AppError(failureCodes.get(schema) ?? 'validation_failed', detail, { errors }) };
}

/**
 * Fastify compiles each route's schemas once, at start-up; a zod schema is its own validator. Responses are built by
 * typed presenters and sent with JSON.stringify as before: their schemas are there for the document and the types.
 */
export function registerZodCompilers(app: FastifyInstance): void {
  const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
    ({ schema }) =>
    (input) =>
      checkInput(schema, input);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
}
