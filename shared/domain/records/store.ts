// Every DynamoDB command of the records area (the writes join the transactions of the areas whose results they
// record: record.ts recordWrites). A pet's records sit in its partition under RECORD#<ulid>, one type's also in gsi1,
// so a time window is a key condition on either and a page is one Query.
import { GetCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { type CursorList, queryCursorPage } from '../../db/cursor-page.ts';
import { petPartition, petRecordKey, petRecordTimeRange, petRecordTypePartition } from '../../db/keys.ts';
import { queryAll } from '../../db/query-all.ts';
import type { Deps } from '../../deps.ts';
import type { PetRecordsQuery, RecordSelection } from './input.ts';
import { asPetRecord, type PetRecord } from './record.ts';

type StoreDeps = Pick<Deps, 'ddb' | 'config'>;

/** The latest time a ULID can hold: an open window ends there. */
const LAST_ULID_TIME = new Date(2 ** 48 - 1);

export async function readPetRecord(deps: StoreDeps, petId: string, recordId: string): Promise<PetRecord | undefined> {
  const { Item } = await deps.ddb.send(
    new GetCommand({ TableName: deps.config.tableName, Key: petRecordKey(petId, recordId) }),
  );
  return Item ? asPetRecord(Item) : undefined;
}

/** The Query of a selection (without order and bounds) and the key range it covers. */
function selectionQuery(deps: StoreDeps, petId: string, selection: RecordSelection) {
  const range = petRecordTimeRange(selection.since ?? new Date(0), selection.until ?? LAST_ULID_TIME);
  const values = { ':from': range.from, ':to': range.to };
  const input: QueryCommandInput = selection.type
    ? {
        TableName: deps.config.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :partition AND gsi1sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':partition': petRecordTypePartition(petId, selection.type), ...values },
      }
    : {
        TableName: deps.config.tableName,
        KeyConditionExpression: 'pk = :partition AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':partition': petPartition(petId), ...values },
      };
  return { input, range };
}

/** One page, newest first, and a cursor while the Query has more. */
export async function queryRecordPage(
  deps: StoreDeps,
  petId: string,
  query: PetRecordsQuery,
): Promise<{ records: PetRecord[]; cursor: string | undefined }> {
  const { input, range } = selectionQuery(deps, petId, query);
  const partition = String(input.ExpressionAttributeValues![':partition']);
  const list: CursorList = query.type
    ? {
        keys: ['pk', 'sk', 'gsi1pk', 'gsi1sk'],
        partition: ['gsi1pk', partition],
        range: ['gsi1sk', range.from, range.to],
      }
    : { keys: ['pk', 'sk'], partition: ['pk', partition], range: ['sk', range.from, range.to] };
  const { items, cursor } = await queryCursorPage(deps.ddb, { ...input, ScanIndexForward: false }, list, {
    limit: query.limit,
    cursor: query.cursor,
  });
  return { records: items.map(asPetRecord), cursor };
}

/** Every record of a selection, oldest first, reading at most `atMost` of them. */
export async function queryRecords(
  deps: StoreDeps,
  petId: string,
  selection: RecordSelection,
  atMost: number,
): Promise<PetRecord[]> {
  const { input } = selectionQuery(deps, petId, selection);
  const items = await queryAll(deps.ddb, { ...input, ScanIndexForward: true, Limit: atMost }, { atMost });
  return items.map(asPetRecord);
}
