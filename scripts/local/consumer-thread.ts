// Each queue consumer of the consumer table runs in a worker thread of its own, as each Lambda function runs in
// containers of its own: its handler, SDK clients and per-container caches are not shared with the gateway, fauxqs
// or the other consumers, and its CPU work (the SDK's per-request work above all) runs beside theirs on another core
// instead of queueing in one event loop. Like a container, a thread handles one batch at a time (one queue runner);
// more threads of one consumer stand for Lambda's concurrent batches. It answers the parent's requests: stop, and the
// DynamoDB requests it made (benchmarks).
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { type ConsumerId, consumers, deadLetterQueueEnv, deadLettersInto, queues } from '../../events/consumers.ts';
import { consumerBundle } from './consumer-bundle.ts';

export interface ConsumerThreadOptions {
  consumerId: ConsumerId;
  /** `errors`: only error lines (benchmarks, where a line per message would time the terminal). Default `all`. */
  logs?: 'all' | 'errors' | undefined;
}

export interface ConsumerThread {
  /** DynamoDB requests the thread's handler made so far, by command name. */
  dynamoDbRequests(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

/** What the parent sends the thread, and what the thread answers. */
export type ToConsumerThread = { type: 'stop' } | { type: 'dynamoDbRequests' };
export type FromConsumerThread =
  | { type: 'ready' }
  | { type: 'stopped' }
  | { type: 'dynamoDbRequests'; counts: Record<string, number> }
  | { type: 'runnerError'; message: string; error: string };

export interface ConsumerThreadData {
  /** The bundled handler module's URL (consumer-bundle.ts). */
  handler: string;
  queueUrlEnv: string;
  batchSize: number;
  logs: 'all' | 'errors';
}

/**
 * sharp's advice for glibc Linux: load it in the main thread before worker threads use it, so that its shared
 * libraries stay loaded until every thread has ended.
 */
let sharpLoaded = false;
function loadSharpInMainThread(): void {
  if (sharpLoaded) return;
  createRequire(import.meta.url)('sharp');
  sharpLoaded = true;
}

/**
 * Starts the consumer's thread and resolves once it polls. The thread sees the environment as it is now (queue URLs,
 * endpoints), so call this after the local stack has set it. A thread that dies is logged and started again, as
 * Lambda replaces a container.
 */
export async function startConsumerThread(
  options: ConsumerThreadOptions & { log: (message: string, error?: unknown) => void },
): Promise<ConsumerThread> {
  const consumer = consumers.find((c) => c.id === options.consumerId);
  if (!consumer || !('queue' in consumer.source)) throw new Error(`${options.consumerId} is not a queue consumer`);
  if ('native' in consumer && consumer.native === 'sharp') loadSharpInMainThread();
  const bundle = await consumerBundle();
  const workerData: ConsumerThreadData = {
    handler: bundle.handler(consumer.entry),
    queueUrlEnv: queues[consumer.source.queue].env,
    batchSize: consumer.batchSize,
    logs: options.logs ?? 'all',
  };
  // As deployed, a consumer that sends is told its own queue's dead-letter queue.
  const deadLetters = deadLettersInto(consumer);
  const deadLetterUrl = deadLetters && process.env[deadLetterQueueEnv(deadLetters)];
  const environment = { ...process.env, ...(deadLetterUrl && { DEAD_LETTER_QUEUE_URL: deadLetterUrl }) };
  let stopping = false;
  const replies: ((message: FromConsumerThread) => void)[] = [];
  let worker: Worker;
  const spawn = () =>
    new Promise<void>((ready, failed) => {
      // Plain JavaScript: the thread needs no TypeScript loader (the parent's --import tsx is not passed on).
      worker = new Worker(bundle.entry, { workerData, env: environment, execArgv: ['--enable-source-maps'] });
      worker.on('message', (message: FromConsumerThread) => {
        if (message.type === 'ready') ready();
        else if (message.type === 'runnerError') options.log(message.message, message.error);
        else replies.shift()?.(message);
      });
      worker.on('error', (error) => {
        options.log('consumer thread crashed', error);
        failed(error);
      });
      worker.on('exit', () => {
        if (stopping) return;
        options.log('consumer thread ended; starting it again');
        spawn().catch(() => {});
      });
    });
  await spawn();
  const ask = (message: ToConsumerThread) =>
    new Promise<FromConsumerThread>((resolve) => {
      replies.push(resolve);
      worker.postMessage(message);
    });
  return {
    dynamoDbRequests: async () => {
      const reply = await ask({ type: 'dynamoDbRequests' });
      return reply.type === 'dynamoDbRequests' ? reply.counts : {};
    },
    stop: async () => {
      stopping = true;
      await ask({ type: 'stop' });
      await worker.terminate();
    },
  };
}
