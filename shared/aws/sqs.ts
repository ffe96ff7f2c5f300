import { SQSClient } from '@aws-sdk/client-sqs';
import type { Config } from '../config.ts';

let client: SQSClient | undefined;

/** One SQS client per container, imported only by the functions that send or receive (keeps other bundles small). */
export function sqsClient(config: Pick<Config, 'sqsEndpoint'>): SQSClient {
  client ??= new SQSClient(config.sqsEndpoint ? { endpoint: config.sqsEndpoint } : {});
  return client;
}
