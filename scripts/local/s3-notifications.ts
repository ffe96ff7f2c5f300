// fauxqs has no bucket notifications; its spy sees every stored object, so this bridge sends the same
// "ObjectCreated" message S3 would send to the uploads queue deployed (infra: bucket → uploads queue).
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { FauxqsServer, S3SpyEvent } from 'fauxqs';

export function startS3Notifications(options: {
  spy: FauxqsServer['spy'];
  sqs: SQSClient;
  bucket: string;
  /** Key prefix → the queue its notifications go to (as the bucket's notification configuration deployed). */
  routes: { prefix: string; queueUrl: string }[];
}): { stop(): void } {
  const routeOf = (key: string) => options.routes.find((r) => key.startsWith(r.prefix));
  const seen = new Set<string>();
  let stopped = false;
  const isNew = (m: { service: string }): m is S3SpyEvent => {
    if (m.service !== 's3') return false;
    const e = m as S3SpyEvent;
    return (
      e.status === 'uploaded' &&
      e.bucket === options.bucket &&
      routeOf(e.key) !== undefined &&
      !seen.has(`${e.key}@${e.timestamp}`)
    );
  };
  void (async () => {
    while (!stopped) {
      const event = (await options.spy.waitForMessage(isNew, undefined, 1000).catch(() => undefined)) as
        | S3SpyEvent
        | undefined;
      if (!event || stopped) continue;
      seen.add(`${event.key}@${event.timestamp}`);
      const body = {
        Records: [
          {
            eventSource: 'aws:s3',
            eventName: 'ObjectCreated:Put',
            s3: { bucket: { name: event.bucket }, object: { key: encodeURIComponent(event.key).replace(/%2F/g, '/') } },
          },
        ],
      };
      await options.sqs.send(
        new SendMessageCommand({ QueueUrl: routeOf(event.key)!.queueUrl, MessageBody: JSON.stringify(body) }),
      );
    }
  })();
  return {
    stop: () => {
      stopped = true;
    },
  };
}
