// Integration layer: runs the service exactly as `npm start` does (a child process with DynamoDB Local and
// fauxqs), on free ports, and hands its base URL and seeded admin key to the tests.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from '../../scripts/local/ports.ts';
import { startFakeVisionServer } from '../../scripts/local/fake-vision-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    adminKey: string;
    localEnv: Record<string, string>;
    /** The fake OpenAI-compatible vision server the stack's analysis routes talk to (tests steer it over HTTP). */
    visionUrl: string;
    /** The `npm start` process (its children run DynamoDB Local). */
    servicePid: number;
  }
}

const ROOT = join(import.meta.dirname, '..', '..');
// The first start renders the catalogue images; on a loaded 2-core machine (several suites at once) start-up alone
// has taken over two minutes.
const START_TIMEOUT_MS = 300_000;
/** Analysis results stay cached this long on the test stack (30 days deployed), so a test can outlive one. */
export const TEST_ANALYSIS_RESULT_TTL_SECONDS = 20;

export default async function setup(project: TestProject) {
  const [port, dynamoDbPort, awsPort, mediaPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const adminKey = `live_${randomBytes(24).toString('base64url')}`;
  const outbox = mkdtempSync(join(tmpdir(), 'pet-api-outbox-'));
  const vision = await startFakeVisionServer();
  const env = {
    ...process.env,
    PORT: String(port),
    DYNAMODB_LOCAL_PORT: String(dynamoDbPort),
    AWS_LOCAL_PORT: String(awsPort),
    MEDIA_LOCAL_PORT: String(mediaPort),
    ADMIN_API_KEY: adminKey,
    OWNER_MAIL_OUTBOX_DIR: outbox,
    // The local default is `none` (honest 503s); the tests run the real openai adapter against the fake server.
    ANALYSIS_PROVIDER: 'openai',
    ANALYSIS_BASE_URL: vision.url,
    ANALYSIS_MODEL: 'fake-vision-1',
    ANALYSIS_API_KEY: 'fake-key',
    // Generous for a loaded 2-core machine; the slow-provider test waits past it.
    ANALYSIS_TIMEOUT_MS: '6000',
    ANALYSIS_RESULT_TTL_SECONDS: String(TEST_ANALYSIS_RESULT_TTL_SECONDS),
  };
  const child = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', '--import', 'tsx', 'scripts/local/start.ts'],
    {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));

  const baseUrl = `http://127.0.0.1:${port}/v1`;
  try {
    await waitUntilHealthy(baseUrl, child, () => output);
  } catch (error) {
    await vision.close(); // or its open socket keeps the test run from exiting
    throw error;
  }

  project.provide('baseUrl', baseUrl);
  project.provide('adminKey', adminKey);
  project.provide('visionUrl', vision.url);
  project.provide('servicePid', child.pid!);
  project.provide('localEnv', {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: `http://127.0.0.1:${dynamoDbPort}`,
    AWS_ENDPOINT_URL_SQS: `http://127.0.0.1:${awsPort}`,
    AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${awsPort}`,
    TABLE_NAME: 'pet-api-local',
    EVENTS_QUEUE_URL: `http://sqs.us-east-1.localhost:${awsPort}/000000000000/pet-api-events`,
    UPLOADS_QUEUE_URL: `http://sqs.us-east-1.localhost:${awsPort}/000000000000/pet-api-uploads`,
    OUTBOX_DIR: outbox,
  });

  return async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    await vision.close();
  };
}

async function waitUntilHealthy(baseUrl: string, child: ReturnType<typeof spawn>, output: () => string) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`local stack exited early:\n${output()}`);
    try {
      const res = await fetch(`${baseUrl}/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`local stack not healthy within ${START_TIMEOUT_MS / 1000} s:\n${output()}`);
}
