import { licenceUrl } from './licences.ts';
import type { Account } from '../accounts/account.ts';
import { hasFullBreedSchema, presentBreed, type BreedRecord, type TemperamentVocabulary } from '../reference/breeds.ts';
import { presentCategory, type CategoryRecord } from '../reference/categories.ts';
import type { ColourVariant } from '../reference/colours.ts';
import type { Translator } from '../reference/i18n.ts';
import type { ImageSummary } from './catalogue-index.ts';
import { publicMediaUrl } from '../../media/public-url.ts';

export interface ImageReferenceData {
  breeds: Map<string, BreedRecord>;
  categories: Map<number, CategoryRecord>;
  colours: Map<string, ColourVariant>;
  temperaments: TemperamentVocabulary;
}

export interface ImageView {
  mediaBaseUrl: string;
  includeBreeds: boolean;
  includeCategories: boolean;
  includeColours: boolean;
  account: Account;
  translator: Translator;
}

/** The public image: the spec's id, url, breeds and categories, plus size, species, age and (on request) colours. */
export function presentImage(image: ImageSummary, data: ImageReferenceData, view: ImageView) {
  const detailed = hasFullBreedSchema(view.account);
  return {
    id: image.id,
    url: publicMediaUrl(view.mediaBaseUrl, image.file),
    width: image.width,
    height: image.height,
    species_id: image.species_id,
    age_months: image.age_months,
    created_at: image.created_at,
    ...provenanceOf(image),
    ...(view.includeBreeds && {
      breeds: image.breed_ids.flatMap((id) => {
        const breed = data.breeds.get(id);
        return breed ? [presentBreed(breed, detailed, view.translator, data.temperaments, view.mediaBaseUrl)] : [];
      }),
    }),
    ...(view.includeCategories && {
      categories: image.category_ids.flatMap((id) => {
        const category = data.categories.get(id);
        return category ? [{ id: category.id, name: presentCategory(category, view.translator).name }] : [];
      }),
    }),
    ...(view.includeColours && {
      colours: image.colour_ids.flatMap((id) => {
        const colour = data.colours.get(id);
        return colour
          ? [{ id: colour.id, code: colour.code, name: view.translator.apply({ name: colour.name }, colour.i18n).name }]
          : [];
      }),
    }),
  };
}

/** Illustrations have no credit; real photos carry theirs, with the licence's URL. */
export const provenanceOf = (image: Pick<ImageSummary, 'kind' | 'attribution'>) => ({
  kind: image.kind ?? ('illustration' as const),
  attribution: image.attribution
    ? {
        author: image.attribution.author,
        licence: image.attribution.licence,
        licence_url: image.attribution.licence_url ?? licenceUrl(image.attribution.licence),
        source_url: image.attribution.source_url,
      }
    : null,
});
