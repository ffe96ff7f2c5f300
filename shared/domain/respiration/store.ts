// Every DynamoDB command of the respiration area. Measurements live in the pet's partition, so deleting the pet
// deletes them; each is written once by its request and finished once by its consumer (conditions on `status`).
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { queryCursorPage, queryFilteredPage } from '../../db/cursor-page.ts';
import { transactionFailures, whenConditionFails } from '../../db/errors.ts';
import { petKey, petPartition, RESPIRATORY_PREFIX, respiratoryRateKey } from '../../db/keys.ts';
import { transact } from '../../db/transact.ts';
import { setFields } from '../../db/update.ts';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../errors.ts';
import { type PetRecord, recordWrites } from '../records/record.ts';
import { asMeasurement, type Measurement, measurementRow } from './measurement.ts';

type StoreDeps = Pick<Deps, 'ddb' | 'config'>;

/** The new measurement, only while its pet exists (a pet deleted meanwhile leaves no orphan in its partition). */
export async function insertMeasurement(deps: StoreDeps, measurement: Measurement): Promise<void> {
  const table = deps.config.tableName;
  await transact(
    deps.ddb,
    [
      { Put: { TableName: table, Item: measurementRow(measurement), ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        ConditionCheck: {
          TableName: table,
          Key: petKey(measurement.pet_id),
          ConditionExpression: 'account_id = :account',
          ExpressionAttributeValues: { ':account': measurement.account_id },
        },
      },
    ],
    (reasons) =>
      reasons[1] === 'ConditionalCheckFailed' ? notFound(`Pet ${measurement.pet_id} does not exist`) : undefined,
  );
}

export async function readMeasurement(deps: StoreDeps, petId: string, id: string): Promise<Measurement | undefined> {
  const { Item } = await deps.ddb.send(
    new GetCommand({ TableName: deps.config.tableName, Key: respiratoryRateKey(petId, id), ConsistentRead: true }),
  );
  return Item ? asMeasurement(Item) : undefined;
}

/** Counts one more attempt of a measurement still processing; undefined when it is finished or gone. */
export function startAttempt(deps: StoreDeps, petId: string, id: string): Promise<Measurement | undefined> {
  const started = deps.ddb.send(
    new UpdateCommand({
      TableName: deps.config.tableName,
      Key: respiratoryRateKey(petId, id),
      UpdateExpression: 'ADD attempts :one',
      ConditionExpression: '#status = :processing',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':one': 1, ':processing': 'processing' },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return whenConditionFails(
    started.then(({ Attributes }) => asMeasurement(Attributes!)),
    () => undefined,
  );
}

/**
 * processing → completed or failed, once: false when it was already finished (or deleted with its pet). A completed
 * measurement's record of the pet commits in the same transaction, only while the pet exists.
 */
export async function finishMeasurement(
  deps: StoreDeps,
  measurement: Pick<Measurement, 'pet_id' | 'id'>,
  outcome: Partial<Measurement> & Pick<Measurement, 'status'>,
  record?: PetRecord,
): Promise<boolean> {
  const update = setFields(outcome);
  const finishing = {
    TableName: deps.config.tableName,
    Key: respiratoryRateKey(measurement.pet_id, measurement.id),
    ...update,
    ConditionExpression: '#current = :processing',
    ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#current': 'status' },
    ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':processing': 'processing' },
  };
  if (!record)
    return whenConditionFails(
      deps.ddb.send(new UpdateCommand(finishing)).then(() => true),
      () => false,
    );
  try {
    await transact(deps.ddb, [{ Update: finishing }, ...recordWrites(deps.config.tableName, record)]);
    return true;
  } catch (error) {
    if (transactionFailures(error).includes('ConditionalCheckFailed')) return false;
    throw error;
  }
}

/** The pet's completed measurements, newest first (ids are ULIDs): its measurements, the others filtered out. */
const completedQuery = (deps: StoreDeps, petId: string) => ({
  TableName: deps.config.tableName,
  KeyConditionExpression: 'pk = :pet AND begins_with(sk, :measurements)',
  FilterExpression: '#status = :completed',
  ExpressionAttributeNames: { '#status': 'status' },
  ExpressionAttributeValues: {
    ':pet': petPartition(petId),
    ':measurements': RESPIRATORY_PREFIX,
    ':completed': 'completed',
  },
  ScanIndexForward: false,
});

/** One page of the pet's completed measurements, newest first, continued by cursor. */
export async function listCompletedMeasurements(
  deps: StoreDeps,
  petId: string,
  page: { limit: number; cursor: string | undefined },
): Promise<{ measurements: Measurement[]; cursor: string | undefined }> {
  const list = { keys: ['pk', 'sk'], partition: ['pk', petPartition(petId)] } as const;
  const { items, cursor } = await queryCursorPage(deps.ddb, completedQuery(deps, petId), list, page);
  return { measurements: items.map(asMeasurement), cursor };
}

/**
 * The newest `count` completed measurements of the pet (consistent), those before measurement `beforeId` when given:
 * what a trend and an alert's baseline are computed from.
 */
export async function newestCompletedMeasurements(
  deps: StoreDeps,
  petId: string,
  count: number,
  beforeId?: string,
): Promise<Measurement[]> {
  const { items } = await queryFilteredPage(
    deps.ddb,
    {
      ...completedQuery(deps, petId),
      ConsistentRead: true,
      ...(beforeId !== undefined && { ExclusiveStartKey: respiratoryRateKey(petId, beforeId) }),
    },
    count,
  );
  return items.map(asMeasurement);
}
