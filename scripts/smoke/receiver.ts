// A webhook receiver on an ephemeral loopback port for the smoke test: it keeps every delivery with the result of
// checking its signature with the SDK's verifier, and answers 204.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook, type WebhookVerification } from '../../clients/ts/src/index.ts';

interface Delivery {
  event: string | undefined;
  body: Record<string, unknown>;
  verification: WebhookVerification;
}

export async function startReceiver() {
  let secret = '';
  const deliveries: Delivery[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks);
      const verification = await verifyWebhook(raw, req.headers['x-webhook-signature'], secret);
      res.writeHead(204).end();
      deliveries.push({
        event: req.headers['x-webhook-event'] as string | undefined,
        body: parsedBody(raw),
        verification,
      });
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    deliveries,
    /** The endpoint's signing secret, known once the webhook is registered. */
    useSecret(value: string) {
      secret = value;
    },
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

function parsedBody(raw: Buffer): Record<string, unknown> {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return {};
  }
}
