// A page of the image search as the caller sees it: the search over the catalogue index (search.ts), each image
// presented in the caller's shape and language, and the caller's vote and favourite of each when `sub_id` is given.
import type * as z from 'zod/mini';
import type { Deps } from '../../deps.ts';
import { badRequest } from '../../errors.ts';
import type { Account } from '../accounts/account.ts';
import { interactionsOf } from '../interactions/lookup.ts';
import { loadBreeds, loadTemperaments } from '../reference/breeds.ts';
import { loadCategories } from '../reference/categories.ts';
import { loadColours } from '../reference/colours.ts';
import { Translator } from '../reference/i18n.ts';
import type { imageSearchQuery } from './input.ts';
import { presentImage } from './present.ts';
import { type ImageSearch, searchImages } from './search.ts';

type ImageSearchQuery = z.output<typeof imageSearchQuery>;

/** A single id and a list of ids of the same filter, as one list. */
const joined = (one: string | undefined, many: string[] | undefined) =>
  one || many?.length ? [...(one ? [one] : []), ...(many ?? [])] : undefined;

function imageSearchOf(q: ImageSearchQuery): ImageSearch {
  if (q.age_months_min !== undefined && q.age_months_max !== undefined && q.age_months_min > q.age_months_max)
    throw badRequest(['age_months_min must not be greater than age_months_max']);
  return {
    filter: {
      species: q.species_id,
      breedIds: joined(q.breed_id, q.breed_ids),
      breedGroups: q.breed_groups,
      excludeBreedGroups: q.exclude_breed_groups,
      hasBreeds: q.has_breeds,
      categoryIds: q.category_ids,
      colourIds: joined(q.colour_id, q.colour_ids),
      colourCode: q.colour_code,
      hasColours: q.has_colours,
      ageMonthsMin: q.age_months_min,
      ageMonthsMax: q.age_months_max,
      accountId: q.account_id,
    },
    order: q.order,
    orderBy: q.order_by,
    page: q.page,
    limit: q.limit,
  };
}

/** The page's images with the count of all matches and the translator that served them. */
export async function imageSearchPage(
  deps: Pick<Deps, 'ddb' | 'config' | 'now' | 'random'>,
  account: Account,
  q: ImageSearchQuery,
) {
  const search = imageSearchOf(q);
  const [breeds, categories, colours, temperaments] = await Promise.all([
    loadBreeds(deps),
    loadCategories(deps),
    loadColours(deps),
    loadTemperaments(deps),
  ]);
  const breedById = new Map(breeds.map((b) => [b.id, b]));
  const colourById = new Map(colours.variants.map((v) => [v.id, v]));
  const { images, total } = await searchImages(deps, search, {
    groupsOf: (id) => breedById.get(id)?.breed_groups.map((g) => g.toLowerCase()) ?? [],
    codeOf: (id) => colourById.get(id)?.code,
  });
  const translator = new Translator(q.lang ?? 'en');
  const data = {
    breeds: breedById,
    categories: new Map(categories.map((c) => [c.id, c])),
    colours: colourById,
    temperaments,
  };
  const view = {
    mediaBaseUrl: deps.config.mediaBaseUrl,
    includeBreeds: q.include_breeds,
    includeCategories: q.include_categories,
    includeColours: q.include_colours,
    account,
    translator,
  };
  const interactions =
    q.sub_id && images.length > 0
      ? await interactionsOf(
          deps,
          account.id,
          q.sub_id,
          images.map((i) => i.id),
        )
      : undefined;
  const body = images.map((image) => {
    const done = interactions?.get(image.id);
    return {
      ...presentImage(image, data, view),
      ...(done?.vote && { vote: done.vote }),
      ...(done?.favourite && { favourite: done.favourite }),
    };
  });
  return { images: body, total, translator };
}
