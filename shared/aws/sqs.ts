import { SQSClient } from '@aws-sdk/client-sqs';
import type { Config } from '../config.ts';

let client: { endpoint: string | undefined; sqs: SQSClient } | undefined;

/** One SQS client per container, imported only by the functions that send or receive (keeps other bundles small). */
export function sqsClient(config: Pick<Config, 'sqsEndpoint'>): SQSClient {
  // Keyed by endpoint: a local process that restarts its emulators (the benchmarks) gets a fresh client.
  if (!client || client.endpoint !== config.sqsEndpoint)
    client = {
      endpoint: config.sqsEndpoint,
      sqs: new SQSClient(config.sqsEndpoint ? { endpoint: config.sqsEndpoint } : {}),
    };
  return client.sqs;
}
