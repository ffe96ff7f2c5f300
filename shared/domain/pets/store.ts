// Every DynamoDB command of the pets area. Keys come from shared/db/keys.ts; invariants are conditions.
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGetAll, batchWriteAll } from '../../db/batch.ts';
import { statChange } from '../../db/account-stats.ts';
import { isConditionFailure } from '../../db/errors.ts';
import {
  accountPetIndex,
  accountPetsPartition,
  PET_MEDIA_PREFIX,
  petKey,
  petMediaKey,
  petMediaKindPartition,
  petPartition,
} from '../../db/keys.ts';
import { queryAll, queryPage } from '../../db/query-all.ts';
import { transact } from '../../db/transact.ts';
import type { Deps } from '../../deps.ts';
import { badRequest, notFound } from '../../errors.ts';
import { asPet, type MediaKind, type PetItem, type PetProfile } from './pet.ts';

type StoreDeps = Pick<Deps, 'ddb' | 'config'>;

export async function readPet(deps: StoreDeps, petId: string): Promise<PetItem | undefined> {
  const { Item } = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: petKey(petId) }));
  return Item ? asPet(Item) : undefined;
}

/** The pets of these ids that exist, in any order (one BatchGetItem per 100 ids). */
export async function readPets(deps: StoreDeps, petIds: readonly string[]): Promise<PetItem[]> {
  const items = await batchGetAll(deps.ddb, deps.config.tableName, [...new Set(petIds)].map(petKey));
  return items.map(asPet);
}

/**
 * Pets one account may keep. The spec sets no number; this one bounds what a filtered `GET /pets` reads (the
 * account's whole gsi1 partition, docs/decisions.md#pets) and is enforced by the account's count, exactly.
 */
export const MAX_PETS_PER_ACCOUNT = 10_000;

export const petLimitReached = () =>
  badRequest(`An account can keep at most ${MAX_PETS_PER_ACCOUNT} pets; delete one first`, {
    code: 'pet_limit_reached',
    details: { limit: MAX_PETS_PER_ACCOUNT },
  });

/** The transaction items that create a pet and count it on the account (refused at the limit: petLimitReached). */
export function petCreation(tableName: string, pet: PetItem) {
  return [
    {
      Put: {
        TableName: tableName,
        Item: { ...petKey(pet.id), ...accountPetIndex(pet.account_id, pet.id), type: 'Pet', ...pet },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    statChange(tableName, pet.account_id, 'pets', 1, { atMost: MAX_PETS_PER_ACCOUNT }),
  ];
}

/** Index of the account count in petCreation's items: its condition failing means the limit is reached. */
export const PET_COUNT_ITEM = 1;

export async function insertPet(deps: StoreDeps, pet: PetItem): Promise<void> {
  await transact(deps.ddb, petCreation(deps.config.tableName, pet), (reasons) =>
    reasons[PET_COUNT_ITEM] === 'ConditionalCheckFailed' ? petLimitReached() : undefined,
  );
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

const accountPetsQuery = (deps: StoreDeps, accountId: string, newestFirst: boolean) => ({
  TableName: deps.config.tableName,
  IndexName: 'gsi1',
  KeyConditionExpression: 'gsi1pk = :partition',
  ExpressionAttributeValues: { ':partition': accountPetsPartition(accountId) } as Record<string, unknown>,
  ScanIndexForward: !newestFirst,
});
/** What locates a pet in gsi1 and in the table: enough to resume a Query after it and to read the pet. */
const PET_KEYS = 'pk, sk, gsi1pk, gsi1sk';

/**
 * One page of the account's pets, oldest first (or newest first), without filters: at most MAX_PAGE × 100 keys
 * (`page` ≤ 100, `limit` ≤ 100) and one page of pets, however many pets the account has.
 */
export async function pageAccountPets(
  deps: StoreDeps,
  accountId: string,
  page: { skip: number; limit: number; newestFirst: boolean },
): Promise<PetItem[]> {
  const items = await queryPage(deps.ddb, accountPetsQuery(deps, accountId, page.newestFirst), {
    ...page,
    keys: PET_KEYS,
  });
  return items.map(asPet);
}

/** The filterable fields of a pet, with its keys: what a filtered or random list reads of every pet. */
export type PetListEntry = Pick<PetItem, 'sub_id' | 'external_owner_id' | 'species_id' | 'breed_ids'> & {
  key: { pk: string; sk: string };
};

/**
 * Every pet of the account that passes the stored-attribute filters, oldest first, as keys and filterable fields
 * only. Reads the account's whole gsi1 partition: bounded by MAX_PETS_PER_ACCOUNT, never by the table.
 */
export async function queryAccountPetEntries(
  deps: StoreDeps,
  accountId: string,
  equals: Record<string, string>,
): Promise<PetListEntry[]> {
  const entries = Object.entries(equals);
  const query = accountPetsQuery(deps, accountId, false);
  const items = await queryAll(deps.ddb, {
    ...query,
    ProjectionExpression: `${PET_KEYS}, sub_id, external_owner_id, species_id, breed_ids`,
    ExpressionAttributeValues: {
      ...query.ExpressionAttributeValues,
      ...Object.fromEntries(entries.map(([, v], i) => [`:e${i}`, v])),
    },
    ...(entries.length > 0 && {
      FilterExpression: entries.map((_, i) => `#e${i} = :e${i}`).join(' AND '),
      ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#e${i}`, k])),
    }),
  });
  return items.map((item) => ({
    key: { pk: String(item.pk), sk: String(item.sk) },
    sub_id: (item.sub_id as string | null | undefined) ?? null,
    external_owner_id: (item.external_owner_id as string | null | undefined) ?? null,
    species_id: item.species_id as PetItem['species_id'],
    breed_ids: (item.breed_ids as string[] | undefined) ?? [],
  }));
}

/** The pets of the given list entries (at most a page), in the entries' order; one deleted meanwhile is left out. */
export async function readListedPets(deps: StoreDeps, entries: PetListEntry[]): Promise<PetItem[]> {
  const items = await batchGetAll(
    deps.ddb,
    deps.config.tableName,
    entries.map((e) => e.key),
  );
  const byPk = new Map(items.map((item) => [String(item.pk), asPet(item)]));
  return entries.flatMap((e) => byPk.get(e.key.pk) ?? []);
}

/** Keys a page of the pet's partition reads while deleting it: memory and work per page stay bounded. */
const DELETE_PAGE_KEYS = 1000;

/**
 * Deletes what is left of the pet's partition (media, photo hashes, rate slots, analysis results, reviews,
 * measurements, records), a page of keys at a time, however long its history.
 */
async function deletePetPartition(deps: StoreDeps, petId: string): Promise<void> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await deps.ddb.send(
      new QueryCommand({
        TableName: deps.config.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': petPartition(petId) },
        ProjectionExpression: 'pk, sk',
        ConsistentRead: true,
        Limit: DELETE_PAGE_KEYS,
        ExclusiveStartKey: startKey,
      }),
    );
    await batchWriteAll(
      deps.ddb,
      deps.config.tableName,
      (page.Items ?? []).map((item) => ({ DeleteRequest: { Key: { pk: item.pk, sk: item.sk } } })),
    );
    startKey = page.LastEvaluatedKey;
  } while (startKey);
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
  await deletePetPartition(deps, pet.id);
}

/**
 * One page of a pet's media, oldest first (or newest first): of one kind from that kind's gsi1 partition, or of
 * every kind from the pet's partition. Reads at most `skip` keys and `limit` items (queryPage), so a page costs the
 * same however large the gallery, whatever the kind filter.
 */
export async function pagePetMedia(
  deps: StoreDeps,
  petId: string,
  page: { kind?: MediaKind | undefined; skip: number; limit: number; newestFirst: boolean },
): Promise<Record<string, unknown>[]> {
  const { kind, ...bounds } = page;
  const query = kind
    ? {
        TableName: deps.config.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :partition',
        ExpressionAttributeValues: { ':partition': petMediaKindPartition(petId, kind) },
        ScanIndexForward: !page.newestFirst,
      }
    : {
        TableName: deps.config.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :media)',
        ExpressionAttributeValues: { ':pk': petPartition(petId), ':media': PET_MEDIA_PREFIX },
        ScanIndexForward: !page.newestFirst,
      };
  return queryPage(deps.ddb, query, { ...bounds, keys: kind ? PET_KEYS : 'pk, sk' });
}

/** How many of a pet's newest media of one kind a request looks through for a ready one. */
export const NEWEST_MEDIA_WINDOW = 50;

/**
 * A pet's newest media of one kind, newest first: one Query of at most NEWEST_MEDIA_WINDOW items from that kind's
 * gsi1 partition, so finding the newest ready photo or video costs the same however large the gallery.
 */
export async function queryNewestPetMedia(
  deps: StoreDeps,
  petId: string,
  kind: MediaKind,
): Promise<Record<string, unknown>[]> {
  const { Items } = await deps.ddb.send(
    new QueryCommand({
      TableName: deps.config.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :partition',
      ExpressionAttributeValues: { ':partition': petMediaKindPartition(petId, kind) },
      ScanIndexForward: false,
      Limit: NEWEST_MEDIA_WINDOW,
    }),
  );
  return Items ?? [];
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
 * The newest `max` ready photos of a pet and the photos still processing (`pending`) newer than the last of them:
 * pages read newest first until enough are found, so an analysis reads a few items however many photos the pet has
 * collected. Consistent, so a photo added by the caller's previous request is seen, and so is its processing's end.
 */
export function queryNewestUsablePhotos(deps: StoreDeps, petId: string, max: number) {
  return queryAll(
    deps.ddb,
    {
      TableName: deps.config.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :media)',
      FilterExpression: '#kind = :photo AND #status IN (:ready, :pending)',
      ExpressionAttributeNames: { '#kind': 'kind', '#status': 'status' },
      ExpressionAttributeValues: {
        ':pk': petPartition(petId),
        ':media': PET_MEDIA_PREFIX,
        ':photo': 'photo',
        ':ready': 'ready',
        ':pending': 'pending',
      },
      ScanIndexForward: false,
      ConsistentRead: true,
      Limit: Math.max(max * 4, 20),
    },
    { atMost: max, counts: (item) => item.status === 'ready' },
  );
}
