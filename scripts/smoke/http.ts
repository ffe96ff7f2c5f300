// The smoke test's only way into the API: HTTP requests to the stage's base URL, each bounded by a timeout.
import * as z from 'zod/mini';
import { errorBody } from '../../shared/http/error-body.ts';

/** One request may take this long (a cold Lambda start included) before it counts as failed. */
export const REQUEST_TIMEOUT_MS = 15_000;

export interface Answer {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the text when the body is not JSON. */
  body: unknown;
}

export interface RequestOptions {
  key?: string;
  token?: string;
  /** Sent as JSON unless it is FormData. */
  body?: unknown;
  headers?: Record<string, string>;
}

export type Api = (method: string, path: string, options?: RequestOptions) => Promise<Answer>;

/** Requests relative to `baseUrl` (ending in `/v1`), with the caller's credential. */
export function apiAt(baseUrl: string): Api {
  const base = baseUrl.replace(/\/+$/, '');
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key) headers['x-api-key'] = options.key;
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: FormData | string | undefined;
    if (options.body instanceof FormData) body = options.body;
    else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const response = await fetch(`${base}${path}`, {
      method,
      headers,
      body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: parsed(text) };
  };
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The answer's body when it has the expected status; otherwise an error that shows what came instead. */
export function expectStatus<T = Record<string, unknown>>(answer: Answer, status: number, what: string): T {
  if (answer.status !== status)
    throw new Error(`${what}: expected ${status}, got ${answer.status} ${why(answer.body)}`);
  return answer.body as T;
}

/** An error JSON as its code and messages (the timestamp and path say nothing here); any other body, briefly. */
function why(body: unknown): string {
  const error = z.safeParse(errorBody, body);
  if (!error.success) return brief(body);
  return brief(`${error.data.code ?? error.data.error}: ${[error.data.message].flat().join('; ')}`);
}

/** The first 200 characters of a body, for failure lines. */
export function brief(body: unknown): string {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
