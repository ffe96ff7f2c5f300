// The whole service on this machine: emulators, seed data, the gateway and every asynchronous consumer wired
// exactly as deployed. `npm start` runs it until Ctrl-C; the benchmarks run it in-process.
import { buildConsole } from '../console/build.ts';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { type ConsumerId, consumers, queues } from '../../events/consumers.ts';
import type { QueueDef } from '../../shared/events/consumer-def.ts';
import { getDeps, resetDeps } from '../../shared/deps.ts';
import { seedImageCatalogue } from '../../shared/domain/images/seed.ts';
import { seedReferenceData } from '../../shared/domain/reference/seed.ts';
import { type ConsumerThread, startConsumerThread } from './consumer-thread.ts';
import { localServiceEnvironment, persistDir } from './environment.ts';
import { startGateway } from './gateway.ts';
import { LOCAL_MEDIA_BUCKET, publishCatalogueImages } from './media.ts';
import { startMediaFront } from './media-front.ts';
import { startS3Notifications } from './s3-notifications.ts';
import { seedAdmin } from './seed.ts';
import { openSeedSnapshot } from './seed-snapshot.ts';
import { dynamoDbLocalDir, startLocalStack } from './stack.ts';
import { startStreamRunner } from './stream-runner.ts';
import { recordFilter, streamFilterPatterns } from '../../shared/events/stream-filters.ts';

const ROOT = join(import.meta.dirname, '..', '..');

export interface LocalServiceOptions {
  port: number;
  dynamoDbPort: number;
  awsPort: number;
  /** The media front (the CDN's stand-in); 0 or absent picks a free port. */
  mediaPort?: number;
  persist: boolean;
  adminApiKey?: string | undefined;
  /** `errors`: the queue consumers log only errors (benchmarks). Default `all`: a readable line per entry. */
  consumerLogs?: 'all' | 'errors';
}

export async function startLocalService(options: LocalServiceOptions) {
  const dataDir = options.persist ? join(persistDir(), 'dynamodb') : undefined;
  // Persisted data is seeded once on disk; a fresh start begins from the seeded table's snapshot (seed-snapshot.ts).
  const snapshot = dataDir ? undefined : await openSeedSnapshot(ROOT, dynamoDbLocalDir());
  const stack = await startLocalStack({
    dynamoDbPort: options.dynamoDbPort,
    awsPort: options.awsPort,
    tableName: 'pet-api-local',
    ...(dataDir && { dataDir, fauxqsDataDir: join(persistDir(), 'fauxqs') }),
    ...(snapshot && { dataDir: snapshot.dbPath }),
  }).catch((error: unknown) => {
    snapshot?.remove();
    throw error;
  });
  const mediaFront = await startMediaFront({
    port: options.mediaPort ?? 0,
    origin: `${stack.awsEndpoint}/${LOCAL_MEDIA_BUCKET}`,
  });
  Object.assign(
    process.env,
    localServiceEnvironment({ env: stack.env, mediaBaseUrl: mediaFront.url }, options.persist),
  );
  resetDeps();
  const log = (area: string) => (message: string, error?: unknown) =>
    console.error(`  ${area}: ${message}`, error ?? '');
  // Each queue consumer's thread loads its handler while the data is seeded (they only poll queues, empty until the
  // gateway takes requests): on two cores the module loading runs beside DynamoDB Local and the uploads.
  const startingThreads = Promise.all(
    consumers.flatMap((consumer) =>
      'queue' in consumer.source
        ? [
            startConsumerThread({ consumerId: consumer.id, logs: options.consumerLogs, log: log(consumer.id) }).then(
              (thread) => [consumer.id, thread] as const,
            ),
          ]
        : [],
    ),
  );
  const deps = getDeps();
  const s3 = new S3Client({ endpoint: stack.awsEndpoint, forcePathStyle: true });
  const seeding = Promise.all([
    seedReferenceData(deps.ddb, deps.config.tableName, deps.now()),
    seedImageCatalogue(deps.ddb, deps.config.tableName),
  ]).then((seeded) => {
    if (snapshot && !snapshot.restored) snapshot.keep(); // before the admin account or any request writes
    return seeded;
  });
  // The web console's files (GET /v1/console), built beside the seeding: a fraction of a second of esbuild.
  const [[sets, catalogue], media] = await Promise.all([seeding, publishCatalogueImages(s3), buildConsole()]);
  const admin = await seedAdmin(options.adminApiKey);
  const gateway = await startGateway({ port: options.port });
  const sqs = new SQSClient({ endpoint: stack.awsEndpoint });
  const env = stack.env as Record<string, string>;
  // Object stored under a queue's bucket prefix → notification on that queue (S3 event notifications deployed).
  const s3Notifications = startS3Notifications({
    spy: stack.spy,
    s3,
    sqs,
    region: env.AWS_REGION!,
    bucket: LOCAL_MEDIA_BUCKET,
    routes: Object.values(queues).flatMap((queue: QueueDef) =>
      queue.bucketPrefix ? [{ prefix: queue.bucketPrefix, queueUrl: env[queue.env]! }] : [],
    ),
  });
  // Every consumer of the consumer table, on the same source and batch size as deployed: stream consumers in this
  // process, each queue consumer in a worker thread of its own (consumer-thread.ts).
  const streamRunners = await Promise.all(
    consumers.flatMap((consumer) => {
      if (!('stream' in consumer.source)) return [];
      const { retryAttempts } = consumer.source;
      const accepts = recordFilter(streamFilterPatterns(consumer.source));
      return [
        import(pathToFileURL(join(ROOT, 'events', `${consumer.entry}.ts`)).href).then(({ handler }) =>
          startStreamRunner({
            consumerId: consumer.id,
            endpoint: stack.dynamoDbEndpoint,
            tableName: deps.config.tableName,
            handler,
            batchSize: consumer.batchSize,
            retryAttempts,
            accepts,
            // One local queue stands for each stream consumer's on-failure DLQ.
            onFailure: { sqs, queueUrl: env.STREAM_DLQ_URL! },
            // Persisted, each consumer resumes where it stopped, as its event source mapping does.
            ...(options.persist && {
              checkpointFile: join(persistDir(), 'stream-checkpoints', `${consumer.id}.json`),
            }),
            log: log(consumer.id),
          }),
        ),
      ];
    }),
  );
  const consumerThreads = new Map<ConsumerId, ConsumerThread>(await startingThreads);

  return {
    stack,
    gateway,
    mediaFront,
    admin,
    dataDir,
    summary: { sets, catalogue, media },
    consumerThreads,
    stop: async () => {
      await gateway.close();
      await mediaFront.close();
      s3Notifications.stop();
      await Promise.all([...streamRunners, ...consumerThreads.values()].map((runner) => runner.stop()));
      sqs.destroy();
      s3.destroy();
      await stack.stop();
      snapshot?.remove();
    },
  };
}
