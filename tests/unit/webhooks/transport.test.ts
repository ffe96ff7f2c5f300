import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { postDelivery } from '../../../shared/webhooks/transport.ts';

const request = { body: '{"ok":true}', headers: { 'Content-Type': 'application/json' } };
const options = { allowLoopback: true, timeoutMs: 2000 };

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A receiver on 127.0.0.1 that counts connections and lets each test decide what a request on a socket gets. */
async function receiver(onRequest: (requestOnSocket: number, socket: Socket) => 'reply' | 'drop') {
  const connections: Socket[] = [];
  const requestsPerSocket = new Map<Socket, number>();
  server = createServer((req, res) => {
    const n = (requestsPerSocket.get(req.socket) ?? 0) + 1;
    requestsPerSocket.set(req.socket, n);
    req.resume();
    req.on('end', () => (onRequest(n, req.socket) === 'reply' ? res.writeHead(204).end() : req.socket.destroy()));
  });
  server.on('connection', (socket: Socket) => connections.push(socket));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://localhost:${(server.address() as AddressInfo).port}/hook`, connections };
}

describe('posting attempts over kept-alive connections', () => {
  it('sends consecutive attempts to one receiver over one connection', async () => {
    const { url, connections } = await receiver(() => 'reply');
    for (let n = 0; n < 3; n++) expect((await postDelivery(url, request, options)).succeeded).toBe(true);
    expect(connections).toHaveLength(1);
  });

  it('sends once more on a new connection when the receiver closed the kept-alive one meanwhile', async () => {
    const { url, connections } = await receiver((requestOnSocket) => (requestOnSocket === 1 ? 'reply' : 'drop'));
    expect((await postDelivery(url, request, options)).succeeded).toBe(true);
    const second = await postDelivery(url, request, options);
    expect(second).toMatchObject({ succeeded: true, statusCode: 204 });
    expect(connections).toHaveLength(2);
  });

  it('checks the URL before every attempt, whatever connections are pooled', async () => {
    const { url, connections } = await receiver(() => 'reply');
    expect((await postDelivery(url, request, options)).succeeded).toBe(true);
    const refused = await postDelivery(url, request, { ...options, allowLoopback: false });
    expect(refused).toMatchObject({ succeeded: false, statusCode: null, error: 'url refused: unsupported_scheme' });
    const byName = await postDelivery(url.replace('http:', 'https:'), request, { ...options, allowLoopback: false });
    expect(byName).toMatchObject({ succeeded: false, statusCode: null, error: 'url refused: non_public_address' });
    expect(connections).toHaveLength(1);
  });
});
