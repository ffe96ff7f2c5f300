// A document the API serves as a file (docs/openapi.json, the reference page's scripts and styles): read on the first
// request (the JSON document from the function's package instead of being compiled into the bundle), gzipped and
// tagged once per container, then answered per request by If-None-Match (304) and Accept-Encoding.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { acceptsGzip, type HttpResult, JSON_CONTENT_TYPE } from './responses.ts';

/** A route's `bundledFiles` entry: in the function's package deployed (LAMBDA_TASK_ROOT), the repository locally. */
export function bundledFile(path: string): string {
  return join(process.env.LAMBDA_TASK_ROOT ?? join(import.meta.dirname, '..', '..'), path);
}

interface Prepared {
  identity: string;
  /** Base64, as API Gateway takes a binary body. */
  gzip: string;
  hash: string;
}

export type ServedDocument = (headers: Record<string, string | undefined>) => HttpResult;

/** Answers a request for the JSON document at `path` (repository path, listed in the route's `bundledFiles`). */
export const servedJsonDocument = (path: string, cacheControl: string): ServedDocument =>
  // Compact, as every JSON response is; the file is pretty-printed for review.
  servedDocument(
    () => JSON.stringify(JSON.parse(readFileSync(bundledFile(path), 'utf8'))),
    JSON_CONTENT_TYPE,
    cacheControl,
  );

/** Answers a request for the text `read` returns, read, compressed and hashed on the first request only. */
export function servedDocument(read: () => string, contentType: string, cacheControl: string): ServedDocument {
  let prepared: Prepared | undefined;
  const prepare = (): Prepared => {
    const identity = read();
    const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 22);
    return { identity, gzip: gzipSync(identity).toString('base64'), hash };
  };
  return (headers) => {
    prepared ??= prepare();
    const gzip = acceptsGzip(headers['accept-encoding'] ?? '');
    // Each encoding is its own representation, so its own strong tag.
    const common = {
      etag: `"${prepared.hash}${gzip ? '-gzip' : ''}"`,
      'cache-control': cacheControl,
      vary: 'accept-encoding',
    };
    if (matchesTag(headers['if-none-match'], prepared.hash)) return { statusCode: 304, headers: common, body: '' };
    return gzip
      ? {
          statusCode: 200,
          headers: { ...common, 'content-type': contentType, 'content-encoding': 'gzip' },
          body: prepared.gzip,
          isBase64Encoded: true,
        }
      : { statusCode: 200, headers: { ...common, 'content-type': contentType }, body: prepared.identity };
  };
}

/** `*`, or a list holding either encoding's tag of this version (compared weakly, as RFC 9110 has If-None-Match). */
function matchesTag(ifNoneMatch: string | undefined, hash: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((entry) => {
    const tag = entry.trim().replace(/^W\//, '');
    return tag === '*' || tag === `"${hash}"` || tag === `"${hash}-gzip"`;
  });
}
