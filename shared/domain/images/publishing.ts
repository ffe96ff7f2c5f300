// Publishing a photo into the public library: the one core behind an administrator's approval of a public request
// and the operator's import of an attributed set (scripts/images-import.ts). A publication is one transaction: the
// caller's own writes (the decided request, the image item) with the appends to every facet of the image, so the
// photo is searchable exactly when the decision commits, and never half-indexed.
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { transactionFailures } from '../../db/errors.ts';
import type { CancellationReasons, TransactItem } from '../../db/transact.ts';
import type { Deps } from '../../deps.ts';
import { badRequest, serviceUnavailable } from '../../errors.ts';
import { type BreedRecord, loadBreeds } from '../reference/breeds.ts';
import { type CategoryRecord, loadCategories } from '../reference/categories.ts';
import { type ColourVariant, loadColours } from '../reference/colours.ts';
import type { Species } from '../reference/species.ts';
import { type Attribution, type CatalogueFacetContext, facetsOf, type ImageSummary } from './catalogue-index.ts';
import { appendWrites, type Placement, readHeads, removeWrites } from './public-index.ts';

/** Tags per kind on one public photo: enough to describe it, and the publication stays one transaction (≤ 100). */
export const MAX_PUBLIC_TAGS = 3;
const MAX_TRANSACTION_ITEMS = 100;
const PUBLISH_ATTEMPTS = 8;

export interface PublicTags {
  species_id: Species;
  breed_ids: string[];
  colour_ids: string[];
  category_ids: number[];
}

/** The reference data tags are checked against (loadTagVocabulary, or read from data/ by the import script). */
export interface TagVocabulary {
  breeds: BreedRecord[];
  colours: ColourVariant[];
  categories: CategoryRecord[];
}

/** The reference data of the tags, as the routes read it. */
export async function loadTagVocabulary(deps: Pick<Deps, 'ddb' | 'config' | 'now'>): Promise<TagVocabulary> {
  const [breeds, colours, categories] = await Promise.all([loadBreeds(deps), loadColours(deps), loadCategories(deps)]);
  return { breeds, colours: colours.variants, categories };
}

/**
 * The problems of the tags against the reference data: each breed and colour known and of the tagged species (when
 * the species is given), each category known.
 */
export function tagProblems(tags: Partial<PublicTags>, vocabulary: TagVocabulary): string[] {
  const breeds = new Map(vocabulary.breeds.map((b) => [b.id, b]));
  const colours = new Map(vocabulary.colours.map((c) => [c.id, c]));
  const categories = new Set(vocabulary.categories.map((c) => c.id));
  const ofOtherSpecies = (species: Species) => tags.species_id !== undefined && species !== tags.species_id;
  return [
    ...(tags.breed_ids ?? []).flatMap((id) => {
      const breed = breeds.get(id);
      if (!breed) return [`breed_ids: unknown breed ${id}`];
      return ofOtherSpecies(breed.species_id) ? [`breed_ids: ${id} is a ${breed.species_id} breed`] : [];
    }),
    ...(tags.colour_ids ?? []).flatMap((id) => {
      const colour = colours.get(id);
      if (!colour) return [`colour_ids: unknown colour ${id}`];
      return ofOtherSpecies(colour.species_id) ? [`colour_ids: ${id} is a ${colour.species_id} colour`] : [];
    }),
    ...(tags.category_ids ?? []).flatMap((id) => (categories.has(id) ? [] : [`category_ids: unknown category ${id}`])),
  ];
}

/**
 * Checks every tag against the reference data and answers what the index needs to place the photo under group and
 * colour-code facets. All problems in one 400.
 */
export function checkTags(tags: PublicTags, vocabulary: TagVocabulary): CatalogueFacetContext {
  const problems = tagProblems(tags, vocabulary);
  if (problems.length > 0) throw badRequest(problems, { code: 'invalid_tags' });
  const breeds = new Map(vocabulary.breeds.map((b) => [b.id, b]));
  const colours = new Map(vocabulary.colours.map((c) => [c.id, c]));
  return {
    groupsOf: new Map(tags.breed_ids.map((id) => [id, breeds.get(id)!.breed_groups.map((g) => g.toLowerCase())])),
    codeOf: new Map(tags.colour_ids.map((id) => [id, colours.get(id)!.code])),
  };
}

/** What is published of an image: everything search shows but the publication time, which publishing picks. */
export interface PublicDraft {
  id: string;
  file: string;
  width: number;
  height: number;
  tags: PublicTags;
  attribution: Attribution;
}

export interface Publication {
  summary: ImageSummary;
  placement: Placement;
}

/** What the image item keeps of its publication: the summary shown to everyone and where it sits in the index. */
export const publicRecord = (publication: Publication, extra: Record<string, unknown> = {}) => ({
  summary: publication.summary,
  placement: publication.placement,
  ...extra,
});

type PublishDeps = Pick<Deps, 'ddb' | 'config' | 'now'>;

/**
 * Publishes `draft` together with the caller's writes (`own`, built from the publication), all or nothing. The
 * publication time is after every earlier one (search orders by it), and each facet head's revision is a condition:
 * when another publication got there first, the heads are read again and the whole transaction built again. A
 * refusal of the caller's own writes goes to `explain`, which names the error (404, 409 …).
 */
export async function publish(
  deps: PublishDeps,
  draft: PublicDraft,
  context: CatalogueFacetContext,
  own: (publication: Publication) => TransactItem[],
  explain: (reasons: CancellationReasons) => Error | Promise<Error | undefined> | undefined,
): Promise<Publication> {
  const base: Omit<ImageSummary, 'created_at'> = {
    id: draft.id,
    file: draft.file,
    width: draft.width,
    height: draft.height,
    ...draft.tags,
    age_months: null,
    kind: 'photo',
    attribution: draft.attribution,
  };
  const facets = facetsOf({ ...base, created_at: '' }, context);
  for (let attempt = 1; attempt <= PUBLISH_ATTEMPTS; attempt++) {
    const heads = await readHeads(deps, facets, true);
    const latest = heads.get('all')?.last_published_at;
    const now = deps.now().getTime();
    const at = latest && Date.parse(latest) >= now ? Date.parse(latest) + 1 : now;
    const summary: ImageSummary = { ...base, created_at: new Date(at).toISOString() };
    const { writes, placement } = appendWrites(deps.config.tableName, summary, facets, heads);
    const publication = { summary, placement };
    const mine = own(publication);
    if (mine.length + writes.length > MAX_TRANSACTION_ITEMS)
      throw badRequest(`Too many tags: the photo would be indexed under ${facets.length} facets`, {
        code: 'invalid_tags',
      });
    try {
      await deps.ddb.send(new TransactWriteCommand({ TransactItems: [...mine, ...writes] }));
      return publication;
    } catch (error) {
      const reasons = transactionFailures(error);
      if (reasons.length === 0) throw error;
      const explained = await explain(reasons.slice(0, mine.length));
      if (explained) throw explained;
      const indexMoved = reasons.some((r) => r === 'ConditionalCheckFailed' || r === 'TransactionConflict');
      if (!indexMoved) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
  throw serviceUnavailable('Other photos are being published right now: try again', {
    code: 'busy',
    headers: { 'retry-after': '1' },
  });
}

/** The writes that take a published image out of search (with the caller's deletion of the image, one transaction). */
export const unpublishWrites = (tableName: string, imageId: string, record: { placement: Placement }) =>
  removeWrites(tableName, imageId, record.placement);
