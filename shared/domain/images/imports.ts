// Photos an operator imports from an attributed set (scripts/images-import.ts): each becomes an image item of source
// `import` and joins search through the same publication core as an approved upload (publishing.ts).
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { s3Client } from '../../aws/s3.ts';
import { transactionFailures } from '../../db/errors.ts';
import { imageKey } from '../../db/keys.ts';
import { transact } from '../../db/transact.ts';
import type { Deps } from '../../deps.ts';
import type { Placement } from './public-index.ts';
import {
  checkTags,
  type PublicDraft,
  publicRecord,
  publish,
  type TagVocabulary,
  unpublishWrites,
} from './publishing.ts';

/** Where imported photos are stored in the media bucket (served by the CDN like the catalogue). */
export const IMPORTS_PREFIX = 'public/';

/** An image with this id exists already: the photo was imported before. */
export class AlreadyImported extends Error {}

/**
 * Publishes one imported photo, created with its image item only if no image has its id (ids derive from the bytes,
 * so running an import twice publishes nothing twice): `published`, or `exists` when it was imported before.
 */
export async function publishImportedPhoto(
  deps: Pick<Deps, 'ddb' | 'config' | 'now'>,
  draft: PublicDraft,
  vocabulary: TagVocabulary,
): Promise<'published' | 'exists'> {
  const context = checkTags(draft.tags, vocabulary);
  try {
    await publish(
      deps,
      draft,
      context,
      (publication) => [
        {
          Put: {
            TableName: deps.config.tableName,
            Item: {
              ...imageKey(draft.id),
              type: 'Image',
              source: 'import',
              status: 'approved',
              ...publication.summary,
              public: publicRecord(publication),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
      (reasons) => (reasons[0] === 'ConditionalCheckFailed' ? new AlreadyImported(draft.id) : undefined),
    );
    return 'published';
  } catch (error) {
    if (error instanceof AlreadyImported) return 'exists';
    throw error;
  }
}

/**
 * Takes an imported photo out of the public library (a licence withdrawn, a takedown request): the image item and its
 * place in every facet go in one transaction, then the stored object. `missing` when no imported photo has this id.
 */
export async function removeImportedPhoto(
  deps: Pick<Deps, 'ddb' | 'config'>,
  imageId: string,
): Promise<'removed' | 'missing'> {
  const table = deps.config.tableName;
  const { Item } = await deps.ddb.send(
    new GetCommand({ TableName: table, Key: imageKey(imageId), ConsistentRead: true }),
  );
  if (Item?.source !== 'import') return 'missing';
  const record = Item.public as { placement: Placement };
  try {
    await transact(deps.ddb, [
      {
        Delete: {
          TableName: table,
          Key: imageKey(imageId),
          ConditionExpression: '#source = :import',
          ExpressionAttributeNames: { '#source': 'source' },
          ExpressionAttributeValues: { ':import': 'import' },
        },
      },
      ...unpublishWrites(table, imageId, record),
    ]);
  } catch (error) {
    if (transactionFailures(error)[0] === 'ConditionalCheckFailed') return 'missing';
    throw error;
  }
  await s3Client(deps.config).send(
    new DeleteObjectCommand({ Bucket: deps.config.mediaBucket, Key: String(Item.file) }),
  );
  return 'removed';
}
