// `npm start`: the whole service on this machine, against real emulators, until Ctrl-C.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { startGateway } from './gateway.ts';
import { seedAdmin } from './seed.ts';
import { seedReferenceData } from '../../shared/reference/seed.ts';
import { getDeps } from '../../shared/deps.ts';
import { seedImageCatalogue } from '../../shared/images/seed.ts';
import { S3Client } from '@aws-sdk/client-s3';
import { LOCAL_MEDIA_BUCKET, publishCatalogueImages } from './media.ts';
import { startLocalStack } from './stack.ts';
import { startStreamRunner } from './stream-runner.ts';
import { handler as routeEvents } from '../../events/consumers/route-events.ts';
import { handler as processUpload } from '../../events/consumers/process-upload.ts';
import { handler as dispatchWebhooks } from '../../events/consumers/dispatch-webhooks.ts';
import { handler as deliverWebhook } from '../../events/consumers/deliver-webhook.ts';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { SQSClient } from '@aws-sdk/client-sqs';
import { startQueueRunner } from './queue-runner.ts';
import { startS3Notifications } from './s3-notifications.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const port = Number(process.env.PORT ?? 3000);
const dynamoDbPort = Number(process.env.DYNAMODB_LOCAL_PORT ?? 8000);
const awsPort = Number(process.env.AWS_LOCAL_PORT ?? 4566);
const persist = process.env.LOCAL_PERSIST === '1';
const dataDir = persist ? join(ROOT, '.local', 'dynamodb') : undefined;

/** The key that encrypts webhook signing secrets locally: kept with the data when it persists, else per run. */
function localWebhookKey(): string {
  const file = join(ROOT, '.local', 'webhook-secret-key');
  if (!persist) return randomBytes(32).toString('base64');
  if (!existsSync(file)) {
    mkdirSync(join(ROOT, '.local'), { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
}

const started = Date.now();
const stack = await startLocalStack({ dynamoDbPort, awsPort, tableName: 'pet-api-local', ...(dataDir && { dataDir }) });
Object.assign(process.env, stack.env, {
  STAGE: 'local',
  MEDIA_BASE_URL: `${stack.awsEndpoint}/${LOCAL_MEDIA_BUCKET}`,
  MEDIA_BUCKET: LOCAL_MEDIA_BUCKET,
  // Local receivers live on this machine; deployed, webhook URLs must be public https.
  ALLOW_LOOPBACK_WEBHOOKS: 'true',
  WEBHOOK_SECRET_KEY: process.env.WEBHOOK_SECRET_KEY ?? localWebhookKey(),
  OWNER_MAIL_OUTBOX_DIR: process.env.OWNER_MAIL_OUTBOX_DIR ?? join(ROOT, '.local', 'outbox'),
  // A fresh signing secret per run: bearer tokens do not outlive the local process.
  TOKEN_SECRET: process.env.TOKEN_SECRET ?? randomBytes(32).toString('base64url'),
});
const admin = await seedAdmin(process.env.ADMIN_API_KEY);
const deps = getDeps();
const [sets, catalogue, media] = await Promise.all([
  seedReferenceData(deps.ddb, deps.config.tableName, deps.now()),
  seedImageCatalogue(deps.ddb, deps.config.tableName),
  publishCatalogueImages(new S3Client({ endpoint: stack.awsEndpoint, forcePathStyle: true })),
]);
const gateway = await startGateway({ port });
const sqs = new SQSClient({ endpoint: stack.awsEndpoint });
// Uploads are processed as deployed: object stored → notification on the uploads queue → processor.
const s3Notifications = startS3Notifications({ spy: stack.spy, sqs, queueUrl: stack.env.UPLOADS_QUEUE_URL!, bucket: LOCAL_MEDIA_BUCKET, prefix: 'uploads/' });
const uploadProcessor = startQueueRunner({ sqs, queueUrl: stack.env.UPLOADS_QUEUE_URL!, handler: processUpload, batchSize: 5, log: (m, e) => console.error(`  uploads: ${m}`, e ?? '') });
// Events fan out to webhook endpoints and are delivered as deployed: events queue → dispatcher → deliveries → deliverer.
const dispatcher = startQueueRunner({ sqs, queueUrl: stack.env.EVENTS_QUEUE_URL!, handler: dispatchWebhooks, log: (m, e) => console.error(`  webhooks: ${m}`, e ?? '') });
const deliverer = startQueueRunner({ sqs, queueUrl: stack.env.WEBHOOK_DELIVERIES_QUEUE_URL!, handler: deliverWebhook, log: (m, e) => console.error(`  webhooks: ${m}`, e ?? '') });
// Committed writes become events exactly as deployed: table stream → router → events queue.
const streamRunner = await startStreamRunner({
  endpoint: stack.dynamoDbEndpoint,
  tableName: deps.config.tableName,
  handler: routeEvents,
  log: (message, error) => console.error(`  stream: ${message}`, error ?? ''),
});

console.log(
  [
    '',
    `  Pet API (local) ready in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    `  API            ${gateway.url}   (try: curl ${gateway.url}/health)`,
    `  DynamoDB Local ${stack.dynamoDbEndpoint}   table pet-api-local, ${dataDir ? `persisted in ${dataDir}` : 'in memory (LOCAL_PERSIST=1 keeps it)'}`,
    `  SQS + S3       ${stack.awsEndpoint}   (fauxqs; events queue ${stack.env.EVENTS_QUEUE_URL})`,
    `  Reference data ${sets.map((s) => `${s.set} ${s.records}`).join(', ')}`,
    `  Image catalogue ${media.uploaded} images (${catalogue.facets} facets) in bucket ${LOCAL_MEDIA_BUCKET}${media.rendered ? `, ${media.rendered} rendered into .local/images` : ''}`,
    `  Webhooks       loopback receivers allowed; owner e-mails go to .local/outbox/*.eml`,
    admin ? `  Admin API key  ${admin}` : '  Admin API key  none (set ADMIN_API_KEY to seed one)',
    '  Ctrl-C stops everything.',
    '',
  ].join('\n'),
);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`\n  ${signal}: stopping…`);
  await gateway.close();
  await streamRunner.stop();
  s3Notifications.stop();
  await Promise.all([uploadProcessor.stop(), dispatcher.stop(), deliverer.stop()]);
  await stack.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
