// Handler-test helpers for the pets area: the owner and a stranger, stored pet and media items the mocked table
// serves, and calls of a pet route under an API key (multipart bodies: tests/support/multipart.ts).
import {
  BatchGetCommand,
  GetCommand,
  QueryCommand,
  type QueryCommandInput,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { petMediaKey, petMediaKindIndex } from '../../../shared/db/keys.ts';
import type { Account } from '../../../shared/domain/accounts/account.ts';
import type { PetMediaItem } from '../../../shared/domain/pets/media.ts';
import type { PetItem } from '../../../shared/domain/pets/pet.ts';
import { anAccount, type mockDynamoWithAccounts, USER_KEY } from '../../support/fixtures.ts';
import { type EventInput, httpEvent, lambdaContext } from '../../support/http-event.ts';
import { transactionWrites } from '../../support/dynamo-writes.ts';

/** The service's table (the pipeline's request guards write to another one). */
export const DATA_TABLE = { TableName: 'test-table' };

/** The key of another account (acc-other): its calls on acc-user's pets answer 403. */
export const OTHER_KEY = 'live_other-key';

/** The pet owner (acc-user, USER_KEY) and a stranger (acc-other, OTHER_KEY). */
export const ownerAndStranger = (owner: Partial<Account> = {}) => [
  { apiKey: USER_KEY, account: anAccount(owner) },
  { apiKey: OTHER_KEY, account: anAccount({ id: 'acc-other' }) },
];

export function aStoredPet(overrides: Partial<PetItem> = {}): PetItem {
  return {
    id: 'pet-1',
    account_id: 'acc-user',
    name: 'Rex',
    description: null,
    species_id: 'dog',
    breed_ids: [],
    sex: null,
    neutered: null,
    birth_date: null,
    weight_kg: null,
    sub_id: 'user-1',
    external_owner_id: 'owner-1',
    respiratory_alert: null,
    photo_count: 0,
    video_count: 0,
    portrait_count: 0,
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    ...overrides,
  };
}

/** The mocked table also answers GetItem of this pet. */
export function servePet(ddb: ReturnType<typeof mockDynamoWithAccounts>, pet: PetItem): void {
  ddb.on(GetCommand, { Key: { pk: `PET#${pet.id}`, sk: 'PET' } } as never).resolves({ Item: { type: 'Pet', ...pet } });
}

/** A media item as stored: by default a processed photo of pet-1 with its served copy and thumbnail. */
export function aStoredMedia(overrides: Partial<PetMediaItem> = {}) {
  const media = {
    id: 'ph-1',
    account_id: 'acc-user',
    pet_id: 'pet-1',
    kind: 'photo',
    status: 'ready',
    file: 'pets/photos/acc-user/pet-1/ph-1.jpg',
    display_key: 'pets/media/acc-user/pet-1/ph-1/display.jpg',
    thumbnail_key: 'pets/media/acc-user/pet-1/ph-1/thumbnail.jpg',
    content_type: 'image/jpeg',
    bytes: 100,
    width: 640,
    height: 480,
    sha256: 'a'.repeat(64),
    created_at: '2026-11-22T09:00:00.000Z',
    ...overrides,
  } satisfies Partial<PetMediaItem>;
  return {
    ...petMediaKey(media.pet_id, media.id),
    ...petMediaKindIndex(media.pet_id, media.kind, media.id),
    type: 'PetMedia',
    ...media,
  };
}

/** The mocked table also answers GetItem of this media item. */
export function serveMedia(ddb: ReturnType<typeof mockDynamoWithAccounts>, item: ReturnType<typeof aStoredMedia>) {
  ddb.on(GetCommand, { Key: { pk: item.pk, sk: item.sk } } as never).resolves({ Item: item });
}

/** Calls a route's handler as the holder of `key`. */
export const callAs = (handler: (event: any, context: any) => Promise<any>, key: string, input: EventInput) =>
  handler(httpEvent({ ...input, headers: { 'x-api-key': key, ...input.headers } }), lambdaContext);

/**
 * The mocked table answers Queries of the pet's media from these items (given oldest first) as DynamoDB would: the
 * pet's partition or a kind's gsi1 partition, a `kind` filter, newest first when asked, `Limit` and
 * `ExclusiveStartKey` (with LastEvaluatedKey when more items follow).
 */
export function serveMediaQuery(
  ddb: ReturnType<typeof mockDynamoWithAccounts>,
  items: ReturnType<typeof aStoredMedia>[],
) {
  ddb.on(QueryCommand).callsFake((input: QueryCommandInput) => {
    const values = input.ExpressionAttributeValues ?? {};
    const kind = values[':kind'];
    const inPartition = (i: (typeof items)[number]) =>
      input.IndexName === 'gsi1' ? i.gsi1pk === values[':partition'] : i.pk === values[':pk'];
    let matching = items.filter((i) => inPartition(i) && (!kind || i.kind === kind));
    if (input.ScanIndexForward === false) matching = matching.reverse();
    const start = input.ExclusiveStartKey;
    if (start) matching = matching.slice(matching.findIndex((i) => i.sk === start.sk) + 1);
    const page = input.Limit === undefined ? matching : matching.slice(0, input.Limit);
    const last = page.at(-1);
    return {
      Items: page,
      ...(last && page.length < matching.length && { LastEvaluatedKey: { pk: last.pk, sk: last.sk } }),
    };
  });
}

/** The sort key of each item the first transaction writes, sorted (which records one request took, not in what order). */
export const transactionSortKeys = (ddb: ReturnType<typeof mockDynamoWithAccounts>): string[] =>
  transactionWrites(ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input)
    .map((write) => String(write.key.sk))
    .sort();

/** The mocked table serves this pet ready to take photos: no known hash, no used rate slot, every write accepted. */
export function servePetTakingPhotos(ddb: ReturnType<typeof mockDynamoWithAccounts>, pet: PetItem): void {
  servePet(ddb, pet);
  ddb.on(BatchGetCommand).resolves({ Responses: {} });
  ddb.on(QueryCommand).resolves({ Items: [] });
  ddb.on(TransactWriteCommand).resolves({});
  ddb.on(UpdateCommand, DATA_TABLE).resolves({});
}
