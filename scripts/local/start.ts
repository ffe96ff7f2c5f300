// `npm start`: the whole service on this machine, against real emulators, until Ctrl-C.
import { LOCAL_MEDIA_BUCKET } from './media.ts';
import { startLocalService } from './service.ts';

const started = Date.now();
const service = await startLocalService({
  port: Number(process.env.PORT ?? 3000),
  dynamoDbPort: Number(process.env.DYNAMODB_LOCAL_PORT ?? 8000),
  awsPort: Number(process.env.AWS_LOCAL_PORT ?? 4566),
  mediaPort: Number(process.env.MEDIA_LOCAL_PORT ?? 4567),
  persist: process.env.LOCAL_PERSIST === '1',
  adminApiKey: process.env.ADMIN_API_KEY,
});
const { stack, gateway, mediaFront, admin, dataDir, summary } = service;

console.log(
  [
    '',
    `  Pet API (local) ready in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    `  API            ${gateway.url}   (try: curl ${gateway.url}/health)`,
    `  DynamoDB Local ${stack.dynamoDbEndpoint}   table pet-api-local, ${dataDir ? `persisted in ${dataDir}` : 'in memory (LOCAL_PERSIST=1 keeps it and the queues and bucket)'}`,
    `  SQS + S3       ${stack.awsEndpoint}   (fauxqs: events, uploads and webhook-deliveries queues with DLQs${dataDir ? ', persisted beside the table' : ''})`,
    `  Media          ${mediaFront.url}   (the CDN's stand-in: catalogue and public photos from the bucket, as served deployed)`,
    `  Reference data ${summary.sets.map((s) => `${s.set} ${s.records}`).join(', ')}`,
    `  Images         ${summary.media.uploaded} catalogue images (${summary.catalogue.facets} facets) in bucket ${LOCAL_MEDIA_BUCKET}${summary.media.rendered ? `, ${summary.media.rendered} rendered into .local/images` : ''}`,
    `  Webhooks       loopback receivers allowed; owner e-mails go to ${process.env.OWNER_MAIL_OUTBOX_DIR}`,
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
  await service.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
