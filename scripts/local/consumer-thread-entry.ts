// Inside one consumer's worker thread (see consumer-thread.ts): imports the consumer's handler, polls its queue with
// one queue runner, counts the DynamoDB requests the handler makes, and stops on request. Runs bundled
// (consumer-bundle.ts), beside the handler's bundle, with which it shares shared/deps.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { SQSClient } from '@aws-sdk/client-sqs';
import { getDeps, setDepsForTest } from '../../shared/deps.ts';
import { callbackLogger } from '../../shared/log.ts';
import type { ConsumerThreadData, FromConsumerThread, ToConsumerThread } from './consumer-thread.ts';
import { startQueueRunner } from './queue-runner.ts';

const data = workerData as ConsumerThreadData;
const port = parentPort!;
const send = (message: FromConsumerThread) => port.postMessage(message);

if (data.logs === 'errors')
  setDepsForTest({
    log: callbackLogger((level, message, fields, keys) => {
      if (level === 'ERROR') console.error(message, { ...keys, ...fields });
    }),
  });

const requests = new Map<string, number>();
getDeps().ddb.middlewareStack.add(
  (next, context) => (args) => {
    const command = context.commandName ?? 'other';
    requests.set(command, (requests.get(command) ?? 0) + 1);
    return next(args);
  },
  { step: 'initialize', name: 'countRequests' },
);

const { handler } = await import(data.handler);
const sqs = new SQSClient({ endpoint: process.env.AWS_ENDPOINT_URL_SQS });
const runner = startQueueRunner({
  sqs,
  queueUrl: process.env[data.queueUrlEnv]!,
  handler,
  batchSize: data.batchSize,
  log: (message, error) =>
    send({
      type: 'runnerError',
      message,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error ?? ''),
    }),
});

port.on('message', async (message: ToConsumerThread) => {
  if (message.type === 'dynamoDbRequests')
    return send({ type: 'dynamoDbRequests', counts: Object.fromEntries(requests) });
  await runner.stop();
  sqs.destroy();
  send({ type: 'stopped' });
});
send({ type: 'ready' });
