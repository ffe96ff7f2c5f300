// Reference data sets (breeds, facts, …) are immutable between deploys and read in full by list routes, so each set
// is stored as one gzipped snapshot (a few chunk items) and kept in memory by warm functions. A list of all breeds
// then costs no read at all instead of ~250 read units; see docs/decisions.md#reference-data-snapshots-in-dynamodb-served-from-memory.
import { gunzipSync } from 'node:zlib';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { queryAll } from '../../db/query-all.ts';
import type { Deps } from '../../deps.ts';
import { refChunkPartition, refPointerKey } from '../../db/keys.ts';

export type ReferenceSet =
  | 'breeds'
  | 'temperaments'
  | 'colours'
  | 'categories'
  | 'facts'
  | 'health-tips'
  | 'legislation';

/** How long a warm function trusts its copy before checking the pointer for a newer version. */
const RECHECK_MS = 5 * 60 * 1000;

interface Cached {
  version: string;
  records: unknown;
  checkedAt: number;
}

const cache = new Map<ReferenceSet, Cached>();

export async function loadReferenceSet<T>(deps: Pick<Deps, 'ddb' | 'config' | 'now'>, set: ReferenceSet): Promise<T> {
  const nowMs = deps.now().getTime();
  const cached = cache.get(set);
  if (cached && nowMs - cached.checkedAt < RECHECK_MS) return cached.records as T;

  const { Item: pointer } = await deps.ddb.send(
    new GetCommand({ TableName: deps.config.tableName, Key: refPointerKey(set) }),
  );
  if (!pointer) throw new Error(`reference data set '${set}' has not been loaded (run the seed step)`);
  const version = String(pointer.version);
  if (cached?.version === version) {
    cached.checkedAt = nowMs;
    return cached.records as T;
  }
  const records = await readChunks(deps, set, version, Number(pointer.chunks));
  cache.set(set, { version, records, checkedAt: nowMs });
  return records as T;
}

async function readChunks(
  deps: Pick<Deps, 'ddb' | 'config'>,
  set: ReferenceSet,
  version: string,
  expected: number,
): Promise<unknown> {
  const items = await queryAll(deps.ddb, {
    TableName: deps.config.tableName,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': refChunkPartition(set, version) },
  });
  const parts = items.map((item) => item.data as Uint8Array);
  if (parts.length !== expected)
    throw new Error(`reference set '${set}' version ${version}: ${parts.length} of ${expected} chunks`);
  return JSON.parse(gunzipSync(Buffer.concat(parts)).toString('utf8'));
}

export function clearReferenceCache(): void {
  cache.clear();
}
