// What a consumer declares: the types the consumer table (events/consumers.ts) is written in, as route-def.ts is
// for the route table; access in the vocabulary both share (shared/access.ts).
import type { Access } from '../access.ts';

/**
 * The table's stream as an event source. A batch that fails is retried from the first failed record (partial batch
 * responses, the batch halved on a crash) up to `retryAttempts` times; then the failed records are described on the
 * consumer's on-failure queue and the shard moves on, so one bad record never stalls its neighbours. The local stream
 * runner follows the same settings.
 */
export interface StreamSource {
  stream: 'table';
  patterns?: readonly Record<string, unknown>[];
  retryAttempts: number;
}

export interface ConsumerDef<Q extends string = string> {
  /** Dotted id, e.g. `webhooks.deliver`; CDK construct ids and log fields derive from it. */
  id: string;
  /** Handler module below `events/`, without extension. */
  entry: string;
  description: string;
  /**
   * The table's stream, filtered to the event catalogue's source items unless the consumer gives its own Lambda filter
   * patterns (plain JSON, e.g. TTL removals only), or one queue of the queue table.
   */
  source: StreamSource | { queue: Q };
  batchSize: number;
  timeoutSeconds: number;
  memoryMb?: number;
  /** Native media tools: the sharp or the ffmpeg/ffprobe layer, on the architecture its binaries are built for (x86_64). */
  native?: 'sharp' | 'ffmpeg';
  /** Ephemeral storage (/tmp) beyond Lambda's 512 MB, for consumers that write large files. */
  tmpMb?: number;
  access: Access<Q>;
}

export interface QueueDef {
  /** The environment variable that carries the queue's URL to its senders. */
  env: string;
  /** Receives before a message moves to the dead-letter queue. */
  maxReceiveCount: number;
  /** What a message in the dead-letter queue means (the alarm says it). */
  dlqHolds: string;
  /** Media bucket prefix whose created objects are announced on this queue. */
  bucketPrefix?: string;
}
