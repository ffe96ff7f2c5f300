// Migration `pet-media-index`: pet photos, videos and portraits written before every media item carried its kind's
// gsi1 keys (`petMediaKindIndex`, as `petMediaRow` writes them) are missing from `kind` pages of
// `GET /pets/{petId}/images`. Each such item gains its keys, on the condition that it still exists, still lacks them
// and is still of the kind read.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { whenConditionFails } from '../../db/errors.ts';
import { petMediaKey, petMediaKindIndex } from '../../db/keys.ts';
import { scanPages } from '../../db/scan-pages.ts';
import { MEDIA_KINDS } from '../pets/pet.ts';
import {
  CHANGED_MEANWHILE,
  type ItemOutcome,
  type MigrationDeps,
  type MigrationOptions,
  type MigrationReport,
  runMigration,
  SCAN_PAGE_ITEMS,
} from './migration.ts';

const unindexedMedia = z.object({ id: z.string(), pet_id: z.string(), kind: z.enum(MEDIA_KINDS) });
type UnindexedMedia = z.infer<typeof unindexedMedia>;

const INDEXED: ItemOutcome = { outcome: 'indexed', changed: true };

/** Gives every pet media item without them its kind's gsi1 keys; with `dryRun`, only counts them. */
export function indexPetMedia(deps: MigrationDeps, options: MigrationOptions): Promise<MigrationReport> {
  return runMigration({
    migration: 'pet-media-index',
    ...options,
    pages: scanPages(deps.ddb, {
      TableName: deps.config.tableName,
      FilterExpression: '#type = :type AND attribute_not_exists(gsi1pk)',
      ProjectionExpression: 'pk, sk, id, pet_id, kind',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: { ':type': 'PetMedia' },
      Limit: SCAN_PAGE_ITEMS,
    }),
    parse: (raw) => unindexedMedia.parse(raw),
    label: (raw) => `${raw.pk} ${raw.sk}`,
    migrate: (media) => (options.dryRun ? Promise.resolve(INDEXED) : addKindIndex(deps, media)),
  });
}

async function addKindIndex(deps: MigrationDeps, media: UnindexedMedia): Promise<ItemOutcome> {
  const keys = petMediaKindIndex(media.pet_id, media.kind, media.id);
  const update = new UpdateCommand({
    TableName: deps.config.tableName,
    Key: petMediaKey(media.pet_id, media.id),
    UpdateExpression: 'SET gsi1pk = :gsi1pk, gsi1sk = :gsi1sk',
    ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(gsi1pk) AND kind = :kind',
    ExpressionAttributeValues: { ':gsi1pk': keys.gsi1pk, ':gsi1sk': keys.gsi1sk, ':kind': media.kind },
  });
  const written = await whenConditionFails(deps.ddb.send(update), () => false);
  return written === false ? CHANGED_MEANWHILE : INDEXED;
}
