import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DynamoDBStreamsClient, GetRecordsCommand } from '@aws-sdk/client-dynamodb-streams';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBStreamEvent, S3Event, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  notificationKey,
  toLambdaAttributeValue,
  toLambdaDynamoDBRecord,
  toLambdaSQSRecord,
  toS3EventRecord,
} from '../../../scripts/local/lambda-events.ts';

// AWS's documented sample events, written field for field (sources in aws-samples/README.md).
const sample = <T>(name: string): T =>
  JSON.parse(readFileSync(join(import.meta.dirname, 'aws-samples', name), 'utf8')) as T;
const streamEvent = sample<DynamoDBStreamEvent>('dynamodb-stream-event.json');
const sqsEvent = sample<SQSEvent>('sqs-event.json');
const s3Event = sample<S3Event>('s3-notification.json');

// The emulators' APIs answer in the services' wire format; the real SDK clients parse it here, from a local server
// that returns what the service would, so the conversion is tested on exactly the objects the runners receive.
let server: Server;
let wireResponse: unknown;
let endpoint: string;
beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume().on('end', () => {
      response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify(wireResponse));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
const clientConfig = () => ({
  endpoint,
  region: 'eu-central-1',
  credentials: { accessKeyId: 'k', secretAccessKey: 's' },
});

describe('DynamoDB stream records', () => {
  it("become Lambda's documented stream event, ApproximateCreationDateTime in epoch seconds", async () => {
    const streamArn = streamEvent.Records[0]!.eventSourceARN!;
    // GetRecords answers with the same records, minus the stream ARN Lambda adds and with PascalCase identities.
    wireResponse = {
      Records: streamEvent.Records.map(({ eventSourceARN: _arn, userIdentity, ...record }) => ({
        ...record,
        ...(userIdentity && { userIdentity: { PrincipalId: userIdentity.principalId, Type: userIdentity.type } }),
      })),
    };
    const client = new DynamoDBStreamsClient(clientConfig());
    const { Records = [] } = await client.send(new GetRecordsCommand({ ShardIterator: 'iterator' }));
    client.destroy();
    expect(Records[0]!.dynamodb!.ApproximateCreationDateTime).toBeInstanceOf(Date);

    const converted = { Records: Records.map((r) => toLambdaDynamoDBRecord(r, streamArn)) };

    expect(converted).toStrictEqual(streamEvent);
    expect(JSON.parse(JSON.stringify(converted))).toStrictEqual(streamEvent);
  });

  it('carries binary values, sets, lists and maps as Lambda does (binary in base64)', () => {
    const bytes = new Uint8Array([0xde, 0xad, 0xbe, 0xef]);
    expect(
      toLambdaAttributeValue({
        M: {
          photo: { B: bytes },
          thumbnails: { BS: [bytes] },
          tags: { SS: ['a', 'b'] },
          scores: { NS: ['1', '2.5'] },
          history: { L: [{ S: 'x' }, { NULL: true }, { BOOL: false }, { N: '7' }] },
        },
      }),
    ).toStrictEqual({
      M: {
        photo: { B: '3q2+7w==' },
        thumbnails: { BS: ['3q2+7w=='] },
        tags: { SS: ['a', 'b'] },
        scores: { NS: ['1', '2.5'] },
        history: { L: [{ S: 'x' }, { NULL: true }, { BOOL: false }, { N: '7' }] },
      },
    });
  });

  it('carries a map an update emptied, which DynamoDB Local streams as a value without a type, as the empty map', () => {
    expect(toLambdaAttributeValue({ M: { images: {} as never } })).toStrictEqual({ M: { images: { M: {} } } });
  });
});

describe('SQS messages', () => {
  it("become Lambda's documented SQS event, with the queue's ARN and region", async () => {
    const queueArn = sqsEvent.Records[0]!.eventSourceARN;
    wireResponse = {
      Messages: sqsEvent.Records.map((r) => ({
        MessageId: r.messageId,
        ReceiptHandle: r.receiptHandle,
        MD5OfBody: r.md5OfBody,
        Body: r.body,
        Attributes: r.attributes,
        MessageAttributes: Object.fromEntries(
          Object.entries(r.messageAttributes).map(([name, a]) => [
            name,
            { StringValue: a.stringValue, StringListValues: [], BinaryListValues: [], DataType: a.dataType },
          ]),
        ),
      })),
    };
    const client = new SQSClient(clientConfig());
    const { Messages = [] } = await client.send(
      new ReceiveMessageCommand({
        QueueUrl: `${endpoint}/123456789012/my-queue`,
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
    );
    client.destroy();

    const converted = { Records: Messages.map((m) => toLambdaSQSRecord(m, queueArn)) };

    expect(converted).toStrictEqual(sqsEvent);
  });

  it('refuses a message received without its system attributes, naming what is missing', () => {
    expect(() =>
      toLambdaSQSRecord({ MessageId: 'm', ReceiptHandle: 'r', MD5OfBody: 'd', Body: '' }, 'arn:aws:sqs:us-east-1:1:q'),
    ).toThrow(/ApproximateReceiveCount/);
  });
});

describe('S3 notifications', () => {
  it("are S3's documented event message structure", () => {
    const record = toS3EventRecord({
      region: 'us-west-2',
      eventTime: new Date(0),
      eventName: 'ObjectCreated:Put',
      principalId: 'AIDAJDPLRKLG7UEXAMPLE',
      sourceIPAddress: '172.16.0.1',
      requestId: 'C3D13FE58DE4C810',
      hostId: 'FMyUVURIY8/IgAtTv8xRjskZQpcIZ9KG4V5Wp6S7S/JRWeUWerMUE5JgHvANOjpD',
      configurationId: 'testConfigRule',
      bucket: 'amzn-s3-demo-bucket',
      bucketOwnerPrincipalId: 'A3NL1KOZZKExample',
      key: 'HappyFace.jpg',
      size: 1024,
      eTag: 'd41d8cd98f00b204e9800998ecf8427e',
      versionId: '096fKKXTRTtl3on89fVO.nfljtsv6qko',
      sequencer: '0055AED6DCD90281E5',
    });

    expect({ Records: [record] }).toStrictEqual(s3Event);
  });

  it('URL-encode object keys as S3 does: a space becomes +, the prefix separator stays', () => {
    expect(notificationKey('uploads/red flower.jpg')).toBe('uploads/red+flower.jpg');
    expect(notificationKey('uploads/a+b&c.jpg')).toBe('uploads/a%2Bb%26c.jpg');
  });
});
