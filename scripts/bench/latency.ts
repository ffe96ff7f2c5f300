// Local latency of a read route through the gateway against a bare SDK GetItem on the same DynamoDB Local.
import { Agent, request } from 'node:http';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { healthKey } from '../../shared/db/keys.ts';
import { startGateway } from '../local/gateway.ts';
import { startLocalStack } from '../local/stack.ts';
import { resetDeps } from '../../shared/deps.ts';
import { alternateTimed } from './stats.ts';

export interface LatencySamples {
  route: string;
  gatewayMs: number[];
  bareMs: number[];
}

const WARMUP = 300;
const ROUNDS = 20;
const PER_ROUND = 100;

export async function measureReadLatency(): Promise<LatencySamples> {
  const stack = await startLocalStack({ dynamoDbPort: 0, awsPort: 0, tableName: 'pet-api-bench' });
  Object.assign(process.env, stack.env, { STAGE: 'bench', TOKEN_SECRET: 'bench-secret-bench-secret-bench-secret' });
  resetDeps();
  const gateway = await startGateway({ port: 0 });
  const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));
  try {
    await ddb.send(new PutCommand({ TableName: stack.env.TABLE_NAME, Item: { ...healthKey(), type: 'Health' } }));
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const url = new URL(`${gateway.url}/health`);
    const viaGateway = () =>
      new Promise<void>((resolve, reject) => {
        const req = request(url, { agent }, (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode === 200 ? resolve() : reject(new Error(`health answered ${res.statusCode}`)),
          );
        });
        req.on('error', reject);
        req.end();
      });
    const bare = async () => {
      await ddb.send(new GetCommand({ TableName: stack.env.TABLE_NAME, Key: healthKey() }));
    };
    const { subjectMs: gatewayMs, baselineMs: bareMs } = await alternateTimed(viaGateway, bare, {
      warmup: WARMUP,
      rounds: ROUNDS,
      perRound: PER_ROUND,
    });
    return { route: 'GET /v1/health (one GetItem)', gatewayMs, bareMs };
  } finally {
    ddb.destroy();
    await gateway.close();
    await stack.stop();
  }
}
