// fauxqs has no bucket notifications; its spy sees every stored object, so this bridge sends the same
// "ObjectCreated" notification S3 sends to the queues deployed (infra: bucket prefix → queue).
import { randomBytes } from 'node:crypto';
import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { FauxqsServer, SpyMessage } from 'fauxqs';
import { sendMessage } from '../../shared/aws/sqs.ts';
import { toS3EventRecord } from './lambda-events.ts';

export function startS3Notifications(options: {
  spy: FauxqsServer['spy'];
  s3: S3Client;
  sqs: SQSClient;
  region: string;
  bucket: string;
  /** Key prefix → the queue its notifications go to (as the bucket's notification configuration deployed). */
  routes: { prefix: string; queueUrl: string }[];
}): { stop(): void } {
  const routeOf = (key: string) => options.routes.find((r) => key.startsWith(r.prefix));
  const seen = new Set<string>();
  let sequence = 0;
  let stopped = false;
  const isNew = (m: SpyMessage) =>
    m.service === 's3' &&
    m.status === 'uploaded' &&
    m.bucket === options.bucket &&
    routeOf(m.key) !== undefined &&
    !seen.has(`${m.key}@${m.timestamp}`);
  void (async () => {
    while (!stopped) {
      const event = await options.spy.waitForMessage(isNew, undefined, 1000).catch(() => undefined);
      if (event?.service !== 's3' || stopped) continue;
      seen.add(`${event.key}@${event.timestamp}`);
      const route = routeOf(event.key);
      const head = await options.s3
        .send(new HeadObjectCommand({ Bucket: event.bucket, Key: event.key }))
        .catch(() => undefined);
      if (!route || !head) continue; // removed again before S3 would have notified
      const record = toS3EventRecord({
        region: options.region,
        eventTime: new Date(event.timestamp),
        eventName: 'ObjectCreated:Put',
        principalId: 'local',
        sourceIPAddress: '127.0.0.1',
        requestId: randomBytes(8).toString('hex').toUpperCase(),
        hostId: randomBytes(48).toString('base64'),
        configurationId: `${route.prefix.replace(/\/$/, '')}-to-queue`,
        bucket: event.bucket,
        bucketOwnerPrincipalId: 'local',
        key: event.key,
        size: head.ContentLength ?? 0,
        eTag: (head.ETag ?? '').replace(/"/g, ''),
        ...(head.VersionId && { versionId: head.VersionId }),
        // Hex, growing per bucket, as S3's sequencers are.
        sequencer: (event.timestamp * 1000 + (sequence++ % 1000)).toString(16).toUpperCase().padStart(18, '0'),
      });
      await sendMessage(options.sqs, route.queueUrl, { value: { Records: [record] } });
    }
  })();
  return {
    stop: () => {
      stopped = true;
    },
  };
}
