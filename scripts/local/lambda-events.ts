// The one place where local runs turn what the emulators' APIs return (SDK objects) into the records Lambda's event
// source mappings deliver, field for field: the shapes of AWS's documented sample events, which
// tests/unit/local/lambda-events.test.ts holds as fixtures. The SDK and Lambda differ in more than casing:
// timestamps (a Date vs epoch seconds), binary values (bytes vs base64), ARNs Lambda adds, attributes it renames.
import type { _Record, AttributeValue as SdkAttributeValue } from '@aws-sdk/client-dynamodb-streams';
import type { Message, MessageAttributeValue } from '@aws-sdk/client-sqs';
import type {
  AttributeValue,
  DynamoDBRecord,
  S3EventRecord,
  SQSMessageAttribute,
  SQSRecord,
  SQSRecordAttributes,
  StreamRecord,
} from 'aws-lambda';

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** A stream attribute value as Lambda serialises it: binary as base64, maps and lists converted all the way down. */
export function toLambdaAttributeValue(value: SdkAttributeValue): AttributeValue {
  if (value.S !== undefined) return { S: value.S };
  if (value.N !== undefined) return { N: value.N };
  if (value.B !== undefined) return { B: base64(value.B) };
  if (value.BOOL !== undefined) return { BOOL: value.BOOL };
  if (value.NULL !== undefined) return { NULL: value.NULL };
  if (value.SS !== undefined) return { SS: value.SS };
  if (value.NS !== undefined) return { NS: value.NS };
  if (value.BS !== undefined) return { BS: value.BS.map(base64) };
  if (value.L !== undefined) return { L: value.L.map(toLambdaAttributeValue) };
  if (value.M !== undefined) return { M: toLambdaItem(value.M) };
  // DynamoDB Local's stream records carry a map that an update emptied (REMOVE of its last key) as a value with no
  // type at all; the table holds, and Lambda delivers, the empty map.
  if (Object.keys(value).length === 0) return { M: {} };
  throw new Error(`unknown stream attribute value type: ${Object.keys(value).join(', ')}`);
}

function toLambdaItem(item: Record<string, SdkAttributeValue>): Record<string, AttributeValue> {
  return Object.fromEntries(Object.entries(item).map(([name, value]) => [name, toLambdaAttributeValue(value)]));
}

/**
 * A DynamoDB Streams GetRecords record as Lambda delivers it: `ApproximateCreationDateTime` in epoch seconds (the SDK
 * parses it into a Date), `eventSourceARN` the stream's ARN, `userIdentity` (TTL deletions) in camel case.
 */
export function toLambdaDynamoDBRecord(record: _Record, streamArn: string): DynamoDBRecord {
  const stream = record.dynamodb;
  if (!stream) throw new Error(`stream record ${record.eventID} has no dynamodb section`);
  const dynamodb: StreamRecord = {
    ...(stream.Keys && { Keys: toLambdaItem(stream.Keys) }),
    ...(stream.NewImage && { NewImage: toLambdaItem(stream.NewImage) }),
    ...(stream.OldImage && { OldImage: toLambdaItem(stream.OldImage) }),
    ...(stream.ApproximateCreationDateTime && {
      ApproximateCreationDateTime: Math.floor(stream.ApproximateCreationDateTime.getTime() / 1000),
    }),
    ...(stream.SequenceNumber !== undefined && { SequenceNumber: stream.SequenceNumber }),
    ...(stream.SizeBytes !== undefined && { SizeBytes: stream.SizeBytes }),
    ...(stream.StreamViewType && { StreamViewType: stream.StreamViewType }),
  };
  return {
    ...(record.eventID !== undefined && { eventID: record.eventID }),
    ...(record.eventName && { eventName: record.eventName }),
    ...(record.eventVersion !== undefined && { eventVersion: record.eventVersion }),
    ...(record.eventSource !== undefined && { eventSource: record.eventSource }),
    ...(record.awsRegion !== undefined && { awsRegion: record.awsRegion }),
    dynamodb,
    eventSourceARN: streamArn,
    ...(record.userIdentity && {
      userIdentity: { principalId: record.userIdentity.PrincipalId, type: record.userIdentity.Type },
    }),
  };
}

/** `arn:aws:sqs:<region>:<account>:<name>` → its region. */
const regionOf = (arn: string) => {
  const region = arn.split(':')[3];
  if (!region) throw new Error(`not an ARN: ${arn}`);
  return region;
};

function toLambdaMessageAttribute(value: MessageAttributeValue): SQSMessageAttribute {
  if (!value.DataType) throw new Error('message attribute without a DataType');
  return {
    ...(value.StringValue !== undefined && { stringValue: value.StringValue }),
    ...(value.BinaryValue !== undefined && { binaryValue: base64(value.BinaryValue) }),
    stringListValues: value.StringListValues ?? [],
    binaryListValues: (value.BinaryListValues ?? []).map(base64),
    dataType: value.DataType,
  };
}

/** The system attributes Lambda passes on; the four of every message are required. */
function toLambdaMessageAttributes(message: Message): SQSRecordAttributes {
  const given = message.Attributes ?? {};
  const required = (
    name: 'ApproximateReceiveCount' | 'SentTimestamp' | 'SenderId' | 'ApproximateFirstReceiveTimestamp',
  ) => {
    const value = given[name];
    if (value === undefined)
      throw new Error(`message ${message.MessageId} lacks ${name}: receive with all system attributes`);
    return value;
  };
  return {
    ApproximateReceiveCount: required('ApproximateReceiveCount'),
    SentTimestamp: required('SentTimestamp'),
    SenderId: required('SenderId'),
    ApproximateFirstReceiveTimestamp: required('ApproximateFirstReceiveTimestamp'),
    ...(given.AWSTraceHeader !== undefined && { AWSTraceHeader: given.AWSTraceHeader }),
    ...(given.SequenceNumber !== undefined && { SequenceNumber: given.SequenceNumber }),
    ...(given.MessageGroupId !== undefined && { MessageGroupId: given.MessageGroupId }),
    ...(given.MessageDeduplicationId !== undefined && { MessageDeduplicationId: given.MessageDeduplicationId }),
    ...(given.DeadLetterQueueSourceArn !== undefined && { DeadLetterQueueSourceArn: given.DeadLetterQueueSourceArn }),
  };
}

/**
 * An SQS ReceiveMessage message (received with all system and message attributes) as Lambda delivers it:
 * camel-case fields, message attributes with their list values, `eventSourceARN` the queue's ARN.
 */
export function toLambdaSQSRecord(message: Message, queueArn: string): SQSRecord {
  if (!message.MessageId || !message.ReceiptHandle || message.MD5OfBody === undefined)
    throw new Error('received message without an id, receipt handle or body digest');
  return {
    messageId: message.MessageId,
    receiptHandle: message.ReceiptHandle,
    body: message.Body ?? '',
    attributes: toLambdaMessageAttributes(message),
    messageAttributes: Object.fromEntries(
      Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [name, toLambdaMessageAttribute(value)]),
    ),
    md5OfBody: message.MD5OfBody,
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: regionOf(queueArn),
  };
}

/** What S3 knows about a stored object when it notifies. */
export interface StoredObject {
  region: string;
  eventTime: Date;
  eventName: `ObjectCreated:${'Put' | 'Post' | 'Copy' | 'CompleteMultipartUpload'}`;
  /** The caller that stored the object, and its address. */
  principalId: string;
  sourceIPAddress: string;
  requestId: string;
  hostId: string;
  /** The bucket's notification configuration that matched. */
  configurationId: string;
  bucket: string;
  bucketOwnerPrincipalId: string;
  key: string;
  size: number;
  /** Without the quotes S3's API puts around it. */
  eTag: string;
  versionId?: string;
  sequencer: string;
}

/** An object key as S3 notifications carry it: URL-encoded, spaces as `+`, `/` kept. */
export const notificationKey = (key: string) => encodeURIComponent(key).replace(/%20/g, '+').replace(/%2F/g, '/');

/** An S3 event notification record (event message structure version 2.1), as S3 sends it to a queue or function. */
export function toS3EventRecord(object: StoredObject): S3EventRecord {
  return {
    eventVersion: '2.1',
    eventSource: 'aws:s3',
    awsRegion: object.region,
    eventTime: object.eventTime.toISOString(),
    eventName: object.eventName,
    userIdentity: { principalId: object.principalId },
    requestParameters: { sourceIPAddress: object.sourceIPAddress },
    responseElements: { 'x-amz-request-id': object.requestId, 'x-amz-id-2': object.hostId },
    s3: {
      s3SchemaVersion: '1.0',
      configurationId: object.configurationId,
      bucket: {
        name: object.bucket,
        ownerIdentity: { principalId: object.bucketOwnerPrincipalId },
        arn: `arn:aws:s3:::${object.bucket}`,
      },
      object: {
        key: notificationKey(object.key),
        size: object.size,
        eTag: object.eTag,
        ...(object.versionId !== undefined && { versionId: object.versionId }),
        sequencer: object.sequencer,
      },
    },
  };
}
