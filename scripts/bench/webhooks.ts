// Webhook delivery, locally: worker throughput against a bare signed-POST loop to the same receiver, and the time
// from a committed vote to its first delivery attempt, through every stage the deployed service has.
import { randomUUID } from 'node:crypto';
import { Agent, createServer, request } from 'node:http';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { consumerOf } from '../../events/consumers.ts';
import { handler as deliverWebhook } from '../../events/webhooks/deliver-webhook.ts';
import { handler as dispatchWebhooks } from '../../events/webhooks/dispatch-webhooks.ts';
import { getDeps, setDepsForTest } from '../../shared/deps.ts';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { signPayload } from '../../shared/webhooks/signature.ts';
import { freePort } from '../local/ports.ts';
import { startQueueRunner } from '../local/queue-runner.ts';
import { startLocalService } from '../local/service.ts';
import { percentile } from './stats.ts';

const THROUGHPUT_DELIVERIES = Number(process.env.BENCH_WEBHOOK_DELIVERIES ?? 1000);
const LATENCY_SAMPLES = Number(process.env.BENCH_WEBHOOK_LATENCY_SAMPLES ?? 100);
const CONCURRENCY = 10;
/** Extra pollers per queue, as Lambda runs several consumers of a busy queue at once (5 to start with). */
const EXTRA_POLLERS = Number(process.env.BENCH_EXTRA_POLLERS ?? 4);

export interface WebhookBench {
  bareRate: number;
  /** A bare PutItem loop on the same DynamoDB Local, same concurrency: the floor of anything that logs attempts. */
  putItemRate: number;
  workerRate: number;
  deliveries: number;
  latencyP50: number;
  latencyP99: number;
  latencySamples: number;
}

export async function measureWebhooks(log: (line: string) => void): Promise<WebhookBench> {
  const arrivals: { body: string; at: number }[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      arrivals.push({ body: Buffer.concat(chunks).toString('utf8'), at: performance.now() });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverPort = (receiver.address() as { port: number }).port;
  const receiverUrl = `http://127.0.0.1:${receiverPort}/hook`;

  const service = await startLocalService({
    port: await freePort(),
    dynamoDbPort: 0,
    awsPort: 0,
    persist: false,
    adminApiKey: `live_${randomUUID()}`,
  });
  const extraPollers: { stop(): Promise<void> }[] = [];
  try {
    const api = async (method: string, path: string, key: string, body?: unknown) => {
      const res = await fetch(`${service.gateway.url}${path}`, {
        method,
        headers: { 'x-api-key': key, ...(body !== undefined && { 'content-type': 'application/json' }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      // biome-ignore lint/suspicious/noExplicitAny: benchmark reads loosely shaped JSON
      return (await res.json()) as any;
    };
    const account = await api('POST', '/accounts', service.admin!, { name: 'bench' });
    const hook = await api('POST', '/webhooks', account.api_key, {
      url: receiverUrl,
      description: 'bench',
      enabled_events: ['vote.created'],
    });

    // 1. The bare loop: sign and POST, CONCURRENCY at a time, keep-alive, nothing else.
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const post = (body: string) =>
      new Promise<void>((resolve, reject) => {
        const req = request(
          receiverUrl,
          {
            method: 'POST',
            agent,
            headers: {
              'content-type': 'application/json',
              'x-webhook-signature': signPayload(hook.signing_secret, body, Math.floor(Date.now() / 1000)),
            },
          },
          (res) => {
            res.resume();
            res.on('end', resolve);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    const bareStart = performance.now();
    let sent = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (sent < THROUGHPUT_DELIVERIES) {
          sent++;
          await post(
            JSON.stringify({
              id: sent,
              value: 1,
              _metadata: { event_type: 'vote.created', timestamp: new Date().toISOString() },
            }),
          );
        }
      }),
    );
    const bareRate = THROUGHPUT_DELIVERIES / ((performance.now() - bareStart) / 1000);
    agent.destroy();
    log(`  bare signed-POST loop: ${bareRate.toFixed(0)} deliveries/s`);

    // 1b. The bare PutItem loop: what DynamoDB Local sustains for one write per delivery.
    const deps = getDeps();
    let written = 0;
    const putStart = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (written < THROUGHPUT_DELIVERIES) {
          written++;
          await deps.ddb.send(
            new PutCommand({
              TableName: deps.config.tableName,
              Item: { pk: `BENCH#${written}`, sk: 'PUT', at: new Date().toISOString() },
            }),
          );
        }
      }),
    );
    const putItemRate = THROUGHPUT_DELIVERIES / ((performance.now() - putStart) / 1000);
    log(`  bare PutItem loop: ${putItemRate.toFixed(0)} writes/s`);

    // 2. The worker: events straight onto the events queue, through dispatcher, deliveries queue and deliverer.
    const env = service.stack.env as Record<string, string>;
    const sqs = new SQSClient({ endpoint: service.stack.awsEndpoint });
    for (let i = 0; i < EXTRA_POLLERS; i++) {
      extraPollers.push(
        startQueueRunner({
          sqs,
          queueUrl: env.WEBHOOK_DELIVERIES_QUEUE_URL!,
          handler: deliverWebhook,
          batchSize: consumerOf('webhookDeliveries').batchSize,
        }),
      );
      extraPollers.push(
        startQueueRunner({
          sqs,
          queueUrl: env.EVENTS_QUEUE_URL!,
          handler: dispatchWebhooks,
          batchSize: consumerOf('events').batchSize,
        }),
      );
    }
    // One JSON log line per delivery is what Lambda would ship to CloudWatch; here it would only time the terminal.
    setDepsForTest({ log: { info: () => {}, error: (message, fields) => console.error(message, fields) } });
    arrivals.length = 0;
    const workerStart = performance.now();
    for (let i = 0; i < THROUGHPUT_DELIVERIES; i += 10) {
      await sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: env.EVENTS_QUEUE_URL!,
          Entries: Array.from({ length: Math.min(10, THROUGHPUT_DELIVERIES - i) }, (_, n) => ({
            Id: String(n),
            MessageBody: JSON.stringify({
              id: `evt_bench_${i + n}`,
              type: 'vote.created',
              account_id: account.id,
              occurred_at: new Date().toISOString(),
              country_code: null,
              resource: {
                id: i + n,
                image_id: 'img',
                sub_id: null,
                value: 1,
                country_code: null,
                created_at: new Date().toISOString(),
              },
            }),
          })),
        }),
      );
    }
    const deadline = Date.now() + 120_000;
    while (arrivals.length < THROUGHPUT_DELIVERIES && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    const workerRate = arrivals.length / ((arrivals.at(-1)!.at - workerStart) / 1000);
    log(`  delivery worker: ${workerRate.toFixed(0)} deliveries/s (${arrivals.length} of ${THROUGHPUT_DELIVERIES})`);
    await Promise.all(extraPollers.splice(0).map((p) => p.stop()));

    // 3. Committed vote → first attempt: real votes through the API, the stream, the router and both queues.
    const image = (await api('GET', '/images/search?order=ASC&limit=1', account.api_key))[0].id;
    const latencies: number[] = [];
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      arrivals.length = 0;
      const vote = await api('POST', '/votes', account.api_key, { image_id: image, value: 1 });
      const committed = performance.now();
      while (!arrivals.some((a) => JSON.parse(a.body).id === vote.id)) await new Promise((r) => setTimeout(r, 2));
      latencies.push(arrivals.find((a) => JSON.parse(a.body).id === vote.id)!.at - committed);
    }
    sqs.destroy();
    return {
      bareRate,
      putItemRate,
      workerRate,
      deliveries: arrivals.length,
      latencyP50: percentile(latencies, 50),
      latencyP99: percentile(latencies, 99),
      latencySamples: latencies.length,
    };
  } finally {
    await Promise.all(extraPollers.map((p) => p.stop()));
    await service.stop();
    receiver.close();
  }
}
