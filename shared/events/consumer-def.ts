// What a consumer declares: the types the consumer table (events/consumers.ts) is written in, as route-def.ts is
// for the route table. Access kinds map one-to-one onto grants in infra/constructs/consumers.ts.

/** DynamoDB actions a consumer may use on the table (never Scan). */
export type TableAction = 'GetItem' | 'Query' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'BatchWriteItem';

export interface ConsumerAccess<Q extends string = string> {
  table?: readonly TableAction[];
  /** Media bucket prefixes (each ending in `/`): objects read, read and deleted, written and deleted, listed. */
  media?: {
    read?: readonly string[];
    readDelete?: readonly string[];
    writeDelete?: readonly string[];
    list?: readonly string[];
  };
  /** Queues this consumer sends to (their URLs arrive in its environment). */
  sendsTo?: readonly Q[];
  /** Decrypts webhook signing secrets (KMS deployed). */
  webhookSecrets?: 'decrypt';
  /** Sends the owner e-mails (SES deployed, outbox files locally). */
  ownerMail?: 'send';
  /** Labels photos (Rekognition deployed; no model locally). */
  labels?: 'detect';
  /** Draws portraits with the stage's Bedrock image model (InvokeModel on that model only). */
  imageModel?: 'invoke';
}

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
  access: ConsumerAccess<Q>;
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
