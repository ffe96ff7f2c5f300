// Photos an operator imports from an attributed set (scripts/images-import.ts): each becomes an image item of source
// `import` and joins search through the same publication core as an approved upload (publishing.ts).
import { imageKey } from '../../db/keys.ts';
import type { Deps } from '../../deps.ts';
import { checkTags, type PublicDraft, publicRecord, publish, type TagVocabulary } from './publishing.ts';

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
