import { inject } from 'vitest';
import { assertMatchesDocument } from './openapi-check.ts';

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
}

/** Calls the running local service; `key` goes in x-api-key, `token` in Authorization. */
export async function api(
  method: string,
  path: string,
  options: { key?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers['x-api-key'] = options.key;
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  return send(method, path, { method, headers, ...(body !== undefined && { body }) });
}

/**
 * Every request of the integration layer goes through here: the response is checked against docs/openapi.json
 * (tests/support/openapi-check.ts) before any test sees it, so a response that drifts from the document fails.
 */
export async function send(method: string, path: string, init: RequestInit): Promise<ApiResponse> {
  const res = await fetch(`${inject('baseUrl')}${path}`, { ...init, method });
  const text = await res.text();
  assertMatchesDocument({ method, path, status: res.status, headers: res.headers, text });
  const json = res.headers.get('content-type')?.startsWith('application/json');
  return { status: res.status, headers: res.headers, body: text ? (json ? JSON.parse(text) : text) : undefined };
}

export const adminKey = () => inject('adminKey');

/** A fresh account made through the admin API. */
export async function createAccount(fields: Record<string, unknown> = {}): Promise<{ id: string; api_key: string }> {
  const res = await api('POST', '/accounts', { key: adminKey(), body: { name: 'Integration test', ...fields } });
  if (res.status !== 201) throw new Error(`account creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Registers a webhook endpoint of the account for the given events; answers its id and signing secret. */
export async function subscribe(key: string, url: string, events: string[]) {
  const res = await api('POST', '/webhooks', {
    key,
    body: { url, description: 'integration', enabled_events: events },
  });
  if (res.status !== 200) throw new Error(`webhook creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; signing_secret: string };
}
