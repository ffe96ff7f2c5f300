// The domain's dependencies against the local stack's real table with the object store unreachable: what a request
// meets when S3 fails between its DynamoDB writes. Tests call domain functions with it, then check the API's counts.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { inject } from 'vitest';
import { loadConfig } from '../../shared/config.ts';
import { createLogger } from '../../shared/log.ts';

export function depsWithUnreachableObjectStore() {
  const env = inject('localEnv');
  const config = loadConfig({ ...env, AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9' });
  const ddb = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: env.AWS_ENDPOINT_URL_DYNAMODB,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      maxAttempts: 1,
    }),
  );
  return { config, ddb, now: () => new Date(), newId: ulid, random: Math.random, log: createLogger() };
}
