// Every DynamoDB command of the pets area. Keys come from shared/db/keys.ts; invariants are conditions.
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchWriteAll } from '../../db/batch.ts';
import { statChange } from '../../db/account-stats.ts';
import { isConditionFailure } from '../../db/errors.ts';
import {
  accountPetIndex,
  accountPetsPartition,
  PET_MEDIA_PREFIX,
  petKey,
  petMediaKey,
  petPartition,
} from '../../db/keys.ts';
import { queryAll } from '../../db/query-all.ts';
import { transact } from '../../db/transact.ts';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../errors.ts';
import { asPet, type PetItem, type PetProfile } from './pet.ts';

type StoreDeps = Pick<Deps, 'ddb' | 'config'>;

export async function readPet(deps: StoreDeps, petId: string): Promise<PetItem | undefined> {
  const { Item } = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: petKey(petId) }));
  return Item ? asPet(Item) : undefined;
}

/** The transaction item that creates a pet (and counts it on the account). */
export function petCreation(tableName: string, pet: PetItem) {
  return [
    {
      Put: {
        TableName: tableName,
        Item: { ...petKey(pet.id), ...accountPetIndex(pet.account_id, pet.id), type: 'Pet', ...pet },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    statChange(tableName, pet.account_id, 'pets', 1),
  ];
}

export async function insertPet(deps: StoreDeps, pet: PetItem): Promise<void> {
  await transact(deps.ddb, petCreation(deps.config.tableName, pet));
}

/** Sets the given profile fields; only the owning account's existing pet is changed (404 otherwise). */
export async function writePetProfile(
  deps: StoreDeps,
  pet: PetItem,
  changes: Partial<PetProfile>,
  updatedAt: string,
): Promise<PetItem> {
  const entries = Object.entries({ ...changes, updated_at: updatedAt });
  try {
    const { Attributes } = await deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: petKey(pet.id),
        UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
        ConditionExpression: 'account_id = :account',
        ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#f${i}`, k])),
        ExpressionAttributeValues: {
          ...Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])),
          ':account': pet.account_id,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return asPet(Attributes!);
  } catch (error) {
    if (isConditionFailure(error)) throw notFound(`Pet ${pet.id} does not exist`);
    throw error;
  }
}

/**
 * Every pet of the account that passes the stored-attribute filters, oldest first. Cost is bounded by the account's
 * own pets (one gsi1 partition), never by the table; the breed filters run on the decoded items.
 */
export async function queryAccountPets(
  deps: StoreDeps,
  accountId: string,
  equals: Record<string, string>,
): Promise<PetItem[]> {
  const entries = Object.entries(equals);
  const items = await queryAll(deps.ddb, {
    TableName: deps.config.tableName,
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :partition',
    ExpressionAttributeValues: {
      ':partition': accountPetsPartition(accountId),
      ...Object.fromEntries(entries.map(([, v], i) => [`:e${i}`, v])),
    },
    ...(entries.length > 0 && {
      FilterExpression: entries.map((_, i) => `#e${i} = :e${i}`).join(' AND '),
      ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#e${i}`, k])),
    }),
  });
  return items.map(asPet);
}

/** The pet's whole partition (profile, media, photo hashes, rate slots): what deleting the pet removes. */
export function readPetPartition(deps: StoreDeps, petId: string): Promise<Record<string, unknown>[]> {
  return queryAll(deps.ddb, {
    TableName: deps.config.tableName,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': petPartition(petId) },
    ProjectionExpression: 'pk, sk, #type',
    ExpressionAttributeNames: { '#type': 'type' },
    ConsistentRead: true,
  });
}

/**
 * Removes the pet first (conditionally, with its count), so it is gone for every caller at once, then the rest of
 * its partition. A media item that a processor is still working on fails that processor's conditional transition.
 */
export async function removePet(deps: StoreDeps, pet: PetItem): Promise<void> {
  const table = deps.config.tableName;
  await transact(
    deps.ddb,
    [
      {
        Delete: {
          TableName: table,
          Key: petKey(pet.id),
          ConditionExpression: 'account_id = :account',
          ExpressionAttributeValues: { ':account': pet.account_id },
        },
      },
      statChange(table, pet.account_id, 'pets', -1),
    ],
    (reasons) => (reasons[0] === 'ConditionalCheckFailed' ? notFound(`Pet ${pet.id} does not exist`) : undefined),
  );
  const rest = await readPetPartition(deps, pet.id);
  await batchWriteAll(
    deps.ddb,
    table,
    rest.map((item) => ({ DeleteRequest: { Key: { pk: item.pk, sk: item.sk } } })),
  );
}

/** Media items of one pet, oldest first (or newest first), optionally of one kind. */
export async function queryPetMedia(
  deps: StoreDeps,
  petId: string,
  options: { newestFirst?: boolean; kind?: string | undefined; consistent?: boolean } = {},
): Promise<Record<string, unknown>[]> {
  return queryAll(deps.ddb, {
    TableName: deps.config.tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :media)',
    ExpressionAttributeValues: {
      ':pk': petPartition(petId),
      ':media': PET_MEDIA_PREFIX,
      ...(options.kind && { ':kind': options.kind }),
    },
    ...(options.kind && { FilterExpression: '#kind = :kind', ExpressionAttributeNames: { '#kind': 'kind' } }),
    ScanIndexForward: !options.newestFirst,
    ConsistentRead: options.consistent ?? false,
  });
}

export async function readPetMedia(
  deps: StoreDeps,
  petId: string,
  mediaId: string,
): Promise<Record<string, unknown> | undefined> {
  const { Item } = await deps.ddb.send(
    new GetCommand({ TableName: deps.config.tableName, Key: petMediaKey(petId, mediaId), ConsistentRead: true }),
  );
  return Item;
}

/**
 * The newest `max` ready photos of a pet: pages read newest first until enough are found, so an analysis reads a few
 * items however many photos the pet has collected.
 */
export function queryNewestReadyPhotos(deps: StoreDeps, petId: string, max: number) {
  return queryAll(
    deps.ddb,
    {
      TableName: deps.config.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :media)',
      FilterExpression: '#kind = :photo AND #status = :ready',
      ExpressionAttributeNames: { '#kind': 'kind', '#status': 'status' },
      ExpressionAttributeValues: {
        ':pk': petPartition(petId),
        ':media': PET_MEDIA_PREFIX,
        ':photo': 'photo',
        ':ready': 'ready',
      },
      ScanIndexForward: false,
      Limit: Math.max(max * 4, 20),
    },
    { atMost: max },
  );
}
