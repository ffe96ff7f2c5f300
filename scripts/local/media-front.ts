// The local stand-in for the media CDN: serves the media bucket's objects (fauxqs) at MEDIA_BASE_URL, as the
// distribution serves the bucket deployed, with the headers its response-headers policy adds
// (infra/constructs/media.ts), so a browser gets locally what it gets deployed. GET and HEAD only, as deployed;
// presigned pet media URLs go to the bucket directly, here as on AWS.
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';

/** What the CDN's response-headers policy sets on every response (it overrides the origin's). */
export const CDN_RESPONSE_HEADERS = { 'x-content-type-options': 'nosniff' } as const;
/** The conditional and range headers a viewer's GET carries on to the bucket. */
const FORWARDED = ['range', 'if-match', 'if-none-match', 'if-modified-since', 'if-unmodified-since'];
/** Connection-level headers of the bucket's answer, not passed on. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding']);

export interface MediaFront {
  url: string;
  close(): Promise<void>;
}

/** Serves `origin` (the bucket's path-style URL, `http://host:port/bucket`) on `port` (0: any free one). */
export async function startMediaFront(options: { port: number; origin: string }): Promise<MediaFront> {
  const server = createServer((req, res) => relay(options.origin, req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE' ? new Error(`port ${options.port} (MEDIA_LOCAL_PORT) is already in use`) : error,
      ),
    );
    server.listen(options.port, '127.0.0.1', resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function relay(origin: string, req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(403, { 'content-type': 'text/plain', ...CDN_RESPONSE_HEADERS });
    res.end('This distribution serves GET and HEAD only.');
    return;
  }
  // The query string is not part of the cache key deployed, so it is not passed on; dot segments are resolved
  // by URL parsing, so a path cannot leave the bucket.
  const path = new URL(req.url ?? '/', 'http://front').pathname;
  const headers = Object.fromEntries(
    FORWARDED.flatMap((name) => (req.headers[name] ? [[name, req.headers[name]]] : [])),
  );
  const upstream = request(`${origin}${path}`, { method: req.method, headers }, (answer) => {
    const passed = Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name));
    res.writeHead(answer.statusCode ?? 502, { ...Object.fromEntries(passed), ...CDN_RESPONSE_HEADERS });
    answer.pipe(res);
  });
  upstream.on('error', () => {
    if (res.headersSent) return void res.destroy();
    res.writeHead(502, { 'content-type': 'text/plain', ...CDN_RESPONSE_HEADERS });
    res.end('The media bucket did not answer.');
  });
  upstream.end();
}
