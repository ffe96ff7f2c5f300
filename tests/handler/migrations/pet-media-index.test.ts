// The pet-media-index migration against a mocked table: pet media without their kind's gsi1 keys gain them, page by
// page, each on the condition it still lacks them; a bad item is reported and skipped; a dry run writes nothing.
import { DynamoDBDocumentClient, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDeps, setDepsForTest } from '../../../shared/deps.ts';
import { indexPetMedia } from '../../../shared/domain/migrations/pet-media-index.ts';
import { conditionalCheckFailed } from '../../support/dynamo-errors.ts';
import { allWrites } from '../../support/dynamo-writes.ts';

const ddb = mockClient(DynamoDBDocumentClient);
const media = (id: string, kind: string, petId = 'pet-1') => ({
  pk: `PET#${petId}`,
  sk: `MEDIA#${id}`,
  id,
  pet_id: petId,
  kind,
});

/** The table's old-shape media, in two Scan pages. */
function storedPages(first: Record<string, unknown>[], second: Record<string, unknown>[]) {
  ddb
    .on(ScanCommand)
    .callsFake((input: { ExclusiveStartKey?: unknown }) =>
      input.ExclusiveStartKey ? { Items: second } : { Items: first, LastEvaluatedKey: { pk: 'next' } },
    );
}
const updates = () => ddb.commandCalls(UpdateCommand).map((c) => c.args[0].input);

describe('giving old pet media their kind index keys', () => {
  beforeEach(() => {
    ddb.reset();
    ddb.on(UpdateCommand).resolves({});
    setDepsForTest({});
  });

  it("pages through the media without gsi1 keys and writes each its kind's keys, conditioned on still lacking them", async () => {
    storedPages([media('m1', 'photo'), media('m2', 'video')], [media('m3', 'portrait', 'pet-2')]);

    const report = await indexPetMedia(getDeps(), { dryRun: false });

    const scan = ddb.commandCalls(ScanCommand)[0]!.args[0].input;
    expect(scan).toMatchObject({
      FilterExpression: '#type = :type AND attribute_not_exists(gsi1pk)',
      ExpressionAttributeValues: { ':type': 'PetMedia' },
      Limit: 200,
    });
    // Each only while it is still that kind of media without the keys (a refusal is the next test's).
    expect(allWrites(ddb)).toMatchObject([
      {
        key: { pk: 'PET#pet-1', sk: 'MEDIA#m1' },
        update: { gsi1pk: 'PET#pet-1#MEDIA#photo', gsi1sk: 'MEDIA#m1' },
        conditionValues: ['photo'],
      },
      {
        key: { pk: 'PET#pet-1', sk: 'MEDIA#m2' },
        update: { gsi1pk: 'PET#pet-1#MEDIA#video', gsi1sk: 'MEDIA#m2' },
        conditionValues: ['video'],
      },
      {
        key: { pk: 'PET#pet-2', sk: 'MEDIA#m3' },
        update: { gsi1pk: 'PET#pet-2#MEDIA#portrait', gsi1sk: 'MEDIA#m3' },
        conditionValues: ['portrait'],
      },
    ]);
    expect(report).toEqual({
      migration: 'pet-media-index',
      dry_run: false,
      found: 3,
      changed: 3,
      outcomes: { indexed: 3 },
      failed: 0,
      failures: [],
    });
  });

  it('reports an item it cannot read and one a request changed meanwhile, and migrates the rest, telling of each', async () => {
    storedPages([media('m1', 'sticker'), media('m2', 'photo')], [media('m3', 'photo')]);
    ddb.on(UpdateCommand, { Key: { pk: 'PET#pet-1', sk: 'MEDIA#m2' } }).rejects(conditionalCheckFailed());

    const heard: string[] = [];
    const report = await indexPetMedia(getDeps(), {
      dryRun: false,
      onItem: (item, outcome) => heard.push(`${item}: ${outcome.split(':')[0]}`),
    });

    expect(updates().map((u) => u.Key!.sk)).toEqual(['MEDIA#m2', 'MEDIA#m3']);
    expect(heard).toEqual([
      'PET#pet-1 MEDIA#m1: failed',
      'PET#pet-1 MEDIA#m2: changed_meanwhile',
      'PET#pet-1 MEDIA#m3: indexed',
    ]);
    expect(report).toMatchObject({
      found: 3,
      changed: 1,
      outcomes: { indexed: 1, changed_meanwhile: 1 },
      failed: 1,
      failures: [{ item: 'PET#pet-1 MEDIA#m1', reason: expect.stringContaining('kind') }],
    });
  });

  it('counts without writing in a dry run, and a run over a migrated table reports zero', async () => {
    storedPages([media('m1', 'photo')], []);
    const dry = await indexPetMedia(getDeps(), { dryRun: true });
    ddb.on(ScanCommand).resolves({ Items: [] });
    const again = await indexPetMedia(getDeps(), { dryRun: false });

    expect(updates()).toEqual([]);
    expect(dry).toMatchObject({ dry_run: true, found: 1, changed: 1 });
    expect(again).toMatchObject({ found: 0, changed: 0, failed: 0 });
  });
});
