// The domain's dependencies against the local stack's real table, for tests that call domain functions directly;
// with the object store unreachable, what a request meets when S3 fails between its DynamoDB writes (tests then
// check the API's counts).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ulid } from 'ulid';
import { inject } from 'vitest';
import { loadConfig } from '../../shared/config.ts';
import { createLogger } from '../../shared/log.ts';

/** Dependencies on the local stack's table and emulators; `env` overrides its variables. */
export function depsOnLocalStack(env: Record<string, string> = {}) {
  const local = { ...inject('localEnv'), ...env };
  const config = loadConfig(local);
  const ddb = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: local.AWS_ENDPOINT_URL_DYNAMODB,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      maxAttempts: 1,
    }),
  );
  return { config, ddb, now: () => new Date(), newId: ulid, random: Math.random, log: createLogger() };
}

export const depsWithUnreachableObjectStore = () => depsOnLocalStack({ AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9' });
