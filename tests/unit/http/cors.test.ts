import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_PATH } from '../../../scripts/openapi/document.ts';
import { CORS } from '../../../shared/http/cors.ts';

type Header = { in?: string; name?: string };
type Operation = { parameters?: Header[]; responses: Record<string, { headers?: Record<string, unknown> }> };
const document = JSON.parse(readFileSync(DOCUMENT_PATH, 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, Header> };
};
const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));

/** Response headers a browser lets scripts read without being told (Fetch standard, CORS-safelisted). */
const SAFELISTED = [
  'cache-control',
  'content-language',
  'content-length',
  'content-type',
  'expires',
  'last-modified',
  'pragma',
];

describe('the CORS policy against the document (a browser client can send and read what the API documents)', () => {
  it('allows every request header the document takes: credentials and Idempotency-Key', () => {
    const taken = [
      ...Object.values(document.components.securitySchemes).filter((s) => s.in === 'header'),
      ...operations.flatMap((o) => o.parameters ?? []).filter((p) => p.in === 'header'),
    ].map((h) => h.name!.toLowerCase());
    expect(taken).toContain('idempotency-key');
    expect([...new Set(taken)].filter((h) => !CORS.allowHeaderList.includes(h))).toEqual([]);
  });

  it('exposes every response header the document describes (Retry-After, RateLimit-*, Idempotent-Replayed …)', () => {
    const described = operations
      .flatMap((o) => Object.values(o.responses))
      .flatMap((r) => Object.keys(r.headers ?? {}))
      .map((h) => h.toLowerCase());
    expect(described).toContain('retry-after');
    const hidden = [...new Set(described)].filter((h) => !SAFELISTED.includes(h) && !CORS.exposeHeaderList.includes(h));
    expect(hidden).toEqual([]);
  });
});
