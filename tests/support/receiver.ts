import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterEach } from 'vitest';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A webhook receiver on loopback that records every delivery and answers what `reply` says (status, delay). */
export async function startReceiver(
  reply: (n: number) => { status: number; delayMs?: number; body?: string; headers?: Record<string, string> } = () => ({
    status: 204,
  }),
) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const { status, delayMs = 0, body, headers } = reply(received.length);
      setTimeout(() => {
        if (!res.destroyed) res.writeHead(status, headers).end(body);
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    /** Waits until `count` deliveries arrived (or the time is up) and returns them. */
    async waitFor(count: number, ms = 10_000) {
      const deadline = Date.now() + ms;
      while (received.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** For a test file: starts receivers that are closed after each test. Call at the file's top level. */
export function receiversClosedAfterEach() {
  const started: Receiver[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((r) => r.close()));
  });
  return async (reply?: Parameters<typeof startReceiver>[0]) => {
    const r = await startReceiver(reply);
    started.push(r);
    return r;
  };
}
