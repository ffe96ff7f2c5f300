import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import breeds from '../../../data/breeds.json' with { type: 'json' };
import colours from '../../../data/colours.json' with { type: 'json' };
import images from '../../../data/images.json' with { type: 'json' };
import type { CatalogueFacetContext, ImageSummary } from './catalogue-index.ts';
import { writeCatalogueIndex } from './catalogue-store.ts';

/** What the index needs from the reference data to place images under group and colour-code facets. */
export function facetContext(): CatalogueFacetContext {
  return {
    groupsOf: new Map(breeds.map((b) => [b.id, b.breed_groups.map((g) => g.toLowerCase())])),
    codeOf: new Map(colours.variants.map((v) => [v.id, v.code])),
  };
}

/** The committed catalogue (data/images.json) as the records the index stores. */
export const catalogueImages = (): ImageSummary[] =>
  images.map((i) => ({
    id: i.id,
    file: i.file,
    width: i.width,
    height: i.height,
    species_id: i.species_id as ImageSummary['species_id'],
    breed_ids: i.breed_ids,
    category_ids: i.category_ids,
    colour_ids: i.colour_ids,
    age_months: i.age_months,
    created_at: i.created_at,
  }));

export const seedImageCatalogue = (ddb: DynamoDBDocumentClient, tableName: string) =>
  writeCatalogueIndex(ddb, tableName, catalogueImages(), facetContext(), { concurrency: 8 });
