/**
 * Objects carry their id as `_id`; requests may also name it `id` (docs/api.md). The one place that reads either.
 * Returns the first of `preferred` (e.g. a request's `deck_id`), `_id` and `id` that is present.
 */
export function idOf(value: unknown, preferred?: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  return (preferred === undefined ? undefined : record[preferred]) ?? record._id ?? record.id;
}

/**
 * For a request schema's `z.preprocess`: a JSON object body with `field` filled from `field`, `_id` or `id`.
 * Anything else passes through unchanged, for the schema to refuse.
 */
export function withIdAlias(field: string): (body: unknown) => unknown {
  return (body) => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
    return { ...body, [field]: idOf(body, field) };
  };
}
