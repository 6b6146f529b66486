import type { ApiError as ApiErrorBody } from '@flashcards/shared/api-types';
import { type ErrorCode, isErrorCode } from '@flashcards/shared/errors';
import { timeouts } from '@flashcards/shared/limits';
import { messages } from '@flashcards/shared/messages';
import type { TokenStore } from './token-store';

/**
 * The one way the web app talks to the server (docs/api.md):
 * - the bearer token is read from storage for every request and sent when present;
 * - every request times out, by default after 60 s (generation passes `timeoutMs: timeouts.generationRequestMs`);
 *   a timeout is only logged ('Request timeout: …') and reaches the caller as an ApiRequestError of kind 'timeout';
 * - a 401 on a request that carried a token ends the session: the token is removed and `onUnauthorized` runs
 *   (the app sends the browser to '/'). A 401 without a token (wrong password at login) is an ordinary error.
 */

export type ApiErrorKind = 'http' | 'timeout' | 'network';

export class ApiRequestError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    readonly status: number | null,
    /** The server's code when it sent one of the shared table's (packages/shared/src/errors.ts). */
    readonly code: ErrorCode | null,
    readonly detail: string | null,
  ) {
    super(detail ?? `${kind} error${status ? ` ${status}` : ''}`);
    this.name = 'ApiRequestError';
  }
}

/** No answer from the server at all (no network, or the connection dropped): offline review takes over. */
export function isOfflineError(error: unknown): boolean {
  return error instanceof ApiRequestError && error.kind === 'network';
}

/** The server's `detail` when it sent one, else the caller's fallback text (section 8's "detail, or …" rule). */
export function errorDetail(error: unknown, fallback: string): string {
  return error instanceof ApiRequestError && error.kind === 'http' && error.detail ? error.detail : fallback;
}

/** The server's error code, to switch on (never on bare statuses). */
export function errorCode(error: unknown): ErrorCode | null {
  return error instanceof ApiRequestError ? error.code : null;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Sent as application/json. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded (POST /login, POST /decks). */
  form?: Record<string, string>;
  /** Sent as multipart/form-data (POST /create). */
  formData?: FormData;
  timeoutMs?: number;
  /**
   * The start-up session check: a 401 there means the stored token is stale. The token is still removed, but the
   * visitor stays on the page they opened (a shared deck, a marketing page) instead of being sent to '/'.
   */
  quietUnauthorized?: boolean;
}

export interface ApiClientDeps {
  tokens: TokenStore;
  onUnauthorized: () => void;
  fetch?: typeof fetch;
  /** Where timeouts are logged. */
  logError?: (message: string) => void;
  baseUrl?: string;
  defaultTimeoutMs?: number;
}

/** A request whose answer is read as it arrives (POST /create's event stream). */
export interface StreamRequestOptions {
  formData: FormData;
  /** `text/event-stream`: the server may still answer JSON (errors before work, servers that do not stream). */
  accept: string;
  /** The caller's own deadline and cancel: nothing here times out by itself. */
  signal: AbortSignal;
}

export interface ApiClient {
  request<T>(path: string, options?: RequestOptions): Promise<T>;
  /**
   * POSTs and resolves with the successful Response, body unread. An error status is read and thrown as
   * ApiRequestError (a 401 ends the session as for `request`); a failed connection throws kind 'network'.
   */
  postStream(path: string, options: StreamRequestOptions): Promise<Response>;
  get<T>(path: string, options?: Omit<RequestOptions, 'method'>): Promise<T>;
  post<T>(path: string, options?: Omit<RequestOptions, 'method'>): Promise<T>;
}

// biome-ignore lint/suspicious/noConsole: a timeout is only logged, by design (docs/api.md).
const consoleError = (message: string) => console.error(message);

export function createApiClient(deps: ApiClientDeps): ApiClient {
  const doFetch = deps.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const logError = deps.logError ?? consoleError;
  const baseUrl = deps.baseUrl ?? '';
  const defaultTimeoutMs = deps.defaultTimeoutMs ?? timeouts.defaultRequestMs;

  async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
    const headers = new Headers({ accept: 'application/json' });
    const token = deps.tokens.get();
    if (token) headers.set('authorization', `Bearer ${token}`);

    let body: BodyInit | undefined;
    if (options.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(options.json);
    } else if (options.form) {
      body = new URLSearchParams(options.form);
    } else if (options.formData) {
      body = options.formData;
    }

    const deadline = AbortSignal.timeout(options.timeoutMs ?? defaultTimeoutMs);
    /** The request or its body never arrived: a timeout (only logged) or a network failure. */
    const transportFailure = (): ApiRequestError => {
      if (!deadline.aborted) return new ApiRequestError('network', null, null, null);
      logError(messages.requestTimeout);
      return new ApiRequestError('timeout', null, null, null);
    };

    let response: Response;
    try {
      response = await doFetch(`${baseUrl}${path}`, {
        method: options.method ?? 'GET',
        headers,
        body: body ?? null,
        signal: deadline,
      });
    } catch {
      throw transportFailure();
    }

    let text: string;
    try {
      text = await response.text();
    } catch {
      throw transportFailure();
    }

    const parsed = parseJson(text);
    if (!response.ok) {
      if (response.status === 401 && token) {
        deps.tokens.remove();
        if (!options.quietUnauthorized) deps.onUnauthorized();
      }
      const errorBody = isErrorBody(parsed) ? parsed : null;
      const code = isErrorCode(errorBody?.code) ? errorBody.code : null;
      throw new ApiRequestError('http', response.status, code, errorBody?.detail ?? null);
    }
    return parsed as T;
  }

  async function postStream(path: string, options: StreamRequestOptions): Promise<Response> {
    const headers = new Headers({ accept: options.accept });
    const token = deps.tokens.get();
    if (token) headers.set('authorization', `Bearer ${token}`);
    let response: Response;
    try {
      response = await doFetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers,
        body: options.formData,
        signal: options.signal,
      });
    } catch {
      throw new ApiRequestError('network', null, null, null);
    }
    if (response.ok) return response;
    let text = '';
    try {
      text = await response.text();
    } catch {
      throw new ApiRequestError('network', null, null, null);
    }
    if (response.status === 401 && token) {
      deps.tokens.remove();
      deps.onUnauthorized();
    }
    const parsed = parseJson(text);
    const errorBody = isErrorBody(parsed) ? parsed : null;
    throw new ApiRequestError('http', response.status, errorBody?.code ?? null, errorBody?.detail ?? null);
  }

  return {
    request,
    postStream,
    get: (path, options) => request(path, { ...options, method: 'GET' }),
    post: (path, options) => request(path, { ...options, method: 'POST' }),
  };
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isErrorBody(value: unknown): value is ApiErrorBody {
  return typeof value === 'object' && value !== null && typeof (value as ApiErrorBody).detail === 'string';
}
