import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchWriteAll } from '../../db/batch.ts';
import { ignoreConditionFailure } from '../../db/errors.ts';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { refChunkKey, refPointerKey } from '../../db/keys.ts';
import { TTL_ATTRIBUTE } from '../../db/table.ts';
import type { ReferenceSet } from './snapshot-store.ts';

/** Stays well under DynamoDB's 400 KB item limit. */
const CHUNK_BYTES = 350 * 1024;
/** Superseded versions stay readable this long for functions that are mid-load, then TTL removes them. */
const SUPERSEDED_TTL_SECONDS = 24 * 3600;

export interface SnapshotResult {
  set: ReferenceSet;
  version: string;
  records: number;
  chunks: number;
  bytes: number;
  changed: boolean;
}

/** Writes a data set as a new snapshot version (content-addressed) and then flips the pointer to it. */
export async function writeReferenceSnapshot(
  ddb: DynamoDBDocumentClient,
  tableName: string,
  set: ReferenceSet,
  records: unknown[] | Record<string, unknown>,
  /** How many records the set holds (the caller knows its shape); stored on the pointer and reported. */
  count: number,
  now: Date,
): Promise<SnapshotResult> {
  const json = JSON.stringify(records);
  const version = createHash('sha256').update(json).digest('hex').slice(0, 16);
  const gz = gzipSync(json, { level: 9 });
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < gz.length; offset += CHUNK_BYTES)
    chunks.push(gz.subarray(offset, offset + CHUNK_BYTES));

  const { Item: current } = await ddb.send(
    new GetCommand({ TableName: tableName, Key: refPointerKey(set), ConsistentRead: true }),
  );
  if (current?.version === version)
    return { set, version, records: count, chunks: chunks.length, bytes: gz.length, changed: false };

  await batchWriteAll(
    ddb,
    tableName,
    chunks.map((data, i) => ({
      PutRequest: { Item: { ...refChunkKey(set, version, i), type: 'ReferenceChunk', data } },
    })),
  );
  await ddb.send(
    new PutCommand({
      TableName: tableName,
      Item: {
        ...refPointerKey(set),
        type: 'ReferencePointer',
        version,
        chunks: chunks.length,
        records: count,
        updated_at: now.toISOString(),
      },
    }),
  );
  if (current?.version) await expireVersion(ddb, tableName, set, String(current.version), Number(current.chunks), now);
  return { set, version, records: count, chunks: chunks.length, bytes: gz.length, changed: true };
}

async function expireVersion(
  ddb: DynamoDBDocumentClient,
  tableName: string,
  set: ReferenceSet,
  version: string,
  chunks: number,
  now: Date,
) {
  const expiresAt = Math.floor(now.getTime() / 1000) + SUPERSEDED_TTL_SECONDS;
  for (let i = 0; i < chunks; i++) {
    await ignoreConditionFailure(
      ddb.send(
        new UpdateCommand({
          TableName: tableName,
          Key: refChunkKey(set, version, i),
          UpdateExpression: 'SET #ttl = :at',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
          ExpressionAttributeValues: { ':at': expiresAt },
        }),
      ),
    );
  }
}
