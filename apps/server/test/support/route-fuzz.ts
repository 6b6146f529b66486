import fc from 'fast-check';
import type { FastifyInstance, InjectOptions, RouteOptions } from 'fastify';
import { multipartBody } from './multipart';

/**
 * Property-based fuzzing of every route: hostile path parameters, query strings, bodies (JSON of every shape, forms,
 * multipart, truncated or mislabelled), and credentials (the attacker's own token, none, garbage). Shared by the
 * CI test (fixed seed, few runs per route) and the bench (more runs).
 */

export interface FuzzRoute {
  method: string;
  url: string;
}

/** Collects routes through the app's onRoute hook (HEAD twins of GET routes are skipped). */
export function routeCollector(): { routes: FuzzRoute[]; onRoute: (route: RouteOptions) => void } {
  const routes: FuzzRoute[] = [];
  return {
    routes,
    onRoute(route) {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        if (method === 'HEAD' || method === 'OPTIONS') continue;
        if (!routes.some((known) => known.method === method && known.url === route.url)) {
          routes.push({ method, url: route.url });
        }
      }
    },
  };
}

/** Ids and codes the fuzzer mixes in: the attacker's own, the victim's (which must stay untouched), and lookalikes. */
export interface FuzzIds {
  own: string[];
  victim: string[];
}

/** Every request field name the API knows, so generated bodies often reach validation deeper than "unknown field". */
const fieldNames = [
  'email',
  'password',
  'name',
  'username',
  'credential',
  'deck_name',
  'deck_id',
  'cards',
  'question',
  'answer',
  'card_id',
  'id',
  '_id',
  'result',
  'daily_new_card_limit',
  'desired_retention',
  'feedback',
  'plan_type',
  'base_url',
  'session_id',
  'customer_email',
  'customer_name',
  'text',
  'current_password',
  'new_password',
  'time_zone',
  'q',
  'limit',
  'cursor',
  'days',
  '__proto__',
  'constructor',
];

const nasty = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '\u202e\u200b\ufeff',
  '🧠'.repeat(300),
  "' OR 1=1 --",
  '"; DROP TABLE cards; --',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '../../../../etc/passwd',
  '%00',
  '%ZZ',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, literally.
  '{{7*7}}${7*7}',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e400',
  '9'.repeat(400),
  '0'.repeat(24),
  'f'.repeat(24),
  'x'.repeat(25_000),
  'pass',
  'fail',
  'monthly',
  'generations',
  'UTC',
  'Europe/Paris',
];

export function hostileString(ids: FuzzIds): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...nasty) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 64 }) },
    { weight: 1, arbitrary: fc.string({ maxLength: 2000 }) },
    { weight: 2, arbitrary: fc.constantFrom(...ids.own, ...ids.victim) },
  );
}

function hostileValue(ids: FuzzIds): fc.Arbitrary<unknown> {
  const leaf = fc.oneof(
    { weight: 4, arbitrary: hostileString(ids) },
    { weight: 1, arbitrary: fc.integer() },
    { weight: 1, arbitrary: fc.constantFrom(0, -1, 1.5, 1e308, Number.MAX_SAFE_INTEGER, 20, 9999, 0.9) },
    { weight: 1, arbitrary: fc.double() },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constant(null) },
  );
  return fc.oneof(
    { weight: 5, arbitrary: leaf },
    { weight: 1, arbitrary: fc.array(leaf, { maxLength: 5 }) },
    { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...fieldNames), leaf, { maxKeys: 4 }) },
    {
      weight: 1,
      arbitrary: fc.array(
        fc.record({ question: hostileString(ids), answer: hostileString(ids) }, { requiredKeys: [] }),
        { maxLength: 3 },
      ),
    },
  );
}

function hostileObject(ids: FuzzIds): fc.Arbitrary<Record<string, unknown>> {
  return fc.dictionary(fc.constantFrom(...fieldNames), hostileValue(ids), { maxKeys: 6 });
}

type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw-json'; text: string }
  | { kind: 'form'; fields: Record<string, string> }
  | { kind: 'multipart'; fields: Record<string, string>; file: boolean; cut: number }
  | { kind: 'wrong-type'; contentType: string; text: string };

function body(ids: FuzzIds): fc.Arbitrary<Body> {
  const stringFields = fc.dictionary(fc.constantFrom(...fieldNames), hostileString(ids), { maxKeys: 5 });
  return fc.oneof(
    fc.constant<Body>({ kind: 'none' }),
    hostileObject(ids).map<Body>((value) => ({ kind: 'json', value })),
    hostileValue(ids).map<Body>((value) => ({ kind: 'json', value })),
    fc
      .tuple(hostileObject(ids), fc.nat({ max: 40 }))
      .map<Body>(([value, cut]) => ({ kind: 'raw-json', text: JSON.stringify(value).slice(0, cut) })),
    fc.constantFrom<Body>(
      { kind: 'raw-json', text: '[[[[[[[[[[[[' },
      { kind: 'raw-json', text: '{"a":' },
      { kind: 'raw-json', text: '{"__proto__":{"x":1}}' },
      { kind: 'raw-json', text: `${'['.repeat(5000)}${']'.repeat(5000)}` },
    ),
    stringFields.map<Body>((fields) => ({ kind: 'form', fields })),
    fc
      .tuple(stringFields, fc.boolean(), fc.nat({ max: 3 }))
      .map<Body>(([fields, file, cut]) => ({ kind: 'multipart', fields, file, cut })),
    fc
      .tuple(
        fc.constantFrom(
          'text/plain',
          'application/xml',
          'multipart/form-data',
          'application/json; charset=latin1',
          'image/png',
        ),
        hostileString(ids),
      )
      .map<Body>(([contentType, text]) => ({ kind: 'wrong-type', contentType, text })),
  );
}

type Credentials = 'own' | 'none' | 'garbage';

export interface FuzzCase {
  params: string[];
  query: Record<string, string>;
  body: Body;
  credentials: Credentials;
}

export function fuzzCase(ids: FuzzIds, paramCount: number): fc.Arbitrary<FuzzCase> {
  const param = fc.oneof(
    { weight: 3, arbitrary: hostileString(ids).map((value) => encodeURIComponent(wellFormed(value))) },
    { weight: 2, arbitrary: fc.constantFrom(...ids.own, ...ids.victim) },
    { weight: 1, arbitrary: fc.constantFrom('%ZZ', '%00', '..%2f..%2fetc', 'a'.repeat(3000), '%E0%A4%A', '%C0%AE') },
  );
  return fc.record({
    params: fc.array(param, { minLength: paramCount, maxLength: paramCount }),
    query: fc.dictionary(fc.constantFrom(...fieldNames), hostileString(ids), { maxKeys: 3 }),
    body: body(ids),
    credentials: fc.constantFrom<Credentials>('own', 'own', 'own', 'none', 'garbage'),
  });
}

/** Lone surrogates replaced by U+FFFD (encodeURIComponent throws on them; a URL cannot carry them anyway). */
function wellFormed(value: string): string {
  return value.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

export function paramCount(url: string): number {
  return (url.match(/[:*]/g) ?? []).length;
}

/** The inject() request for one case. */
export function toRequest(route: FuzzRoute, input: FuzzCase, token: string): InjectOptions {
  let index = 0;
  const path = route.url.replace(/:[A-Za-z_]\w*|\*/g, () => input.params[index++] ?? 'x');
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(input.query)) search.append(key, value);
  const query = search.toString();
  const headers: Record<string, string> = {};
  if (input.credentials === 'own') headers.authorization = `Bearer ${token}`;
  if (input.credentials === 'garbage') headers.authorization = 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.';
  const request: InjectOptions = {
    method: route.method as InjectOptions['method'],
    url: query ? `${path}?${query}` : path,
    headers,
  };
  if (route.method === 'GET' || route.method === 'DELETE') {
    if (input.body.kind === 'json' && route.method === 'DELETE') {
      headers['content-type'] = 'application/json';
      request.payload = JSON.stringify(input.body.value ?? null);
    }
    return request;
  }
  const b = input.body;
  switch (b.kind) {
    case 'none':
      break;
    case 'json':
      headers['content-type'] = 'application/json';
      request.payload = JSON.stringify(b.value ?? null);
      break;
    case 'raw-json':
      headers['content-type'] = 'application/json';
      request.payload = b.text;
      break;
    case 'form':
      headers['content-type'] = 'application/x-www-form-urlencoded';
      request.payload = new URLSearchParams(b.fields).toString();
      break;
    case 'multipart': {
      const parts = Object.entries(b.fields).map(([name, value]) => ({ name, value }));
      if (b.file) parts.push({ name: 'file', value: 'plain text file body', filename: 'notes.txt' } as never);
      const built = multipartBody(parts);
      Object.assign(headers, built.headers);
      // cut 0: whole; otherwise drop the closing boundary or more.
      request.payload =
        b.cut === 0 ? built.payload : built.payload.subarray(0, Math.max(0, built.payload.length - 8 * b.cut));
      break;
    }
    case 'wrong-type':
      headers['content-type'] = b.contentType;
      request.payload = b.text;
      break;
  }
  return request;
}

/** The contract for any answer: never 5xx; every 4xx is { detail: string, code: snake_case }. */
export function checkResponse(
  route: FuzzRoute,
  request: InjectOptions,
  response: { statusCode: number; body: string; headers: Record<string, unknown> },
): void {
  const where = `${request.method} ${String(request.url).slice(0, 200)} → ${response.statusCode} ${response.body.slice(0, 300)}`;
  if (response.statusCode >= 500) throw new Error(`5xx from ${route.method} ${route.url}: ${where}`);
  if (response.statusCode >= 400) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(response.body);
    } catch {
      throw new Error(`error body is not JSON: ${where}`);
    }
    const error = parsed as { detail?: unknown; code?: unknown };
    if (typeof error.detail !== 'string' || error.detail.length === 0 || typeof error.code !== 'string') {
      throw new Error(`error body is not { detail, code }: ${where}`);
    }
    if (!/^[a-z][a-z0-9_]*$/.test(error.code)) throw new Error(`code is not snake_case: ${where}`);
  }
}

export async function fuzzRoute(
  app: FastifyInstance,
  route: FuzzRoute,
  options: { ids: FuzzIds; token: () => Promise<string>; seed: number; numRuns: number },
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(fuzzCase(options.ids, paramCount(route.url)), async (input) => {
      const request = toRequest(route, input, await options.token());
      const response = await app.inject(request);
      checkResponse(route, request, response);
    }),
    { seed: options.seed, numRuns: options.numRuns, endOnFailure: true },
  );
}
