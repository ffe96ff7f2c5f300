import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import breeds from '../../../data/breeds.json' with { type: 'json' };
import colours from '../../../data/colours.json' with { type: 'json' };
import images from '../../../data/images.json' with { type: 'json' };
import photos from '../../../data/photos.json' with { type: 'json' };
import type { CatalogueFacetContext, ImageSummary } from './catalogue-index.ts';
import { writeCatalogueIndex } from './catalogue-store.ts';

/** What the index needs from the reference data to place images under group and colour-code facets. */
export function facetContext(): CatalogueFacetContext {
  return {
    groupsOf: new Map(breeds.map((b) => [b.id, b.breed_groups.map((g) => g.toLowerCase())])),
    codeOf: new Map(colours.variants.map((v) => [v.id, v.code])),
  };
}

type CommittedImage = Omit<ImageSummary, 'species_id'> & { species_id: string };

const summaryOf = (i: CommittedImage): ImageSummary => ({
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
  ...(i.kind && { kind: i.kind }),
  ...(i.attribution && { attribution: i.attribution }),
});

/** The committed catalogue as the records the index stores: the illustrations (data/images.json) and the real photos (data/photos.json). */
export const catalogueImages = (): ImageSummary[] =>
  [...images, ...(photos as CommittedImage[])].map((i) => summaryOf(i as CommittedImage));

export const seedImageCatalogue = (ddb: DynamoDBDocumentClient, tableName: string) =>
  writeCatalogueIndex(ddb, tableName, catalogueImages(), facetContext(), { concurrency: 8 });
