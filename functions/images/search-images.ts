import * as z from 'zod/mini';
import { loadBreeds, loadTemperaments } from '../../shared/domain/reference/breeds.ts';
import { loadCategories } from '../../shared/domain/reference/categories.ts';
import { loadColours } from '../../shared/domain/reference/colours.ts';
import { subIdParam } from '../../shared/schema/sub-id.ts';
import { ORDERS, pageParam } from '../../shared/schema/paging.ts';
import { badRequest } from '../../shared/errors.ts';
import { boolean, caseInsensitiveEnum, integer, list, text, WORD_MAX_LENGTH } from '../../shared/schema/params.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { interactionsOf } from '../../shared/domain/interactions/lookup.ts';
import { presentImage } from '../../shared/domain/images/present.ts';
import { ORDER_BY, searchImages } from '../../shared/domain/images/search.ts';
import { langParam, Translator } from '../../shared/domain/reference/i18n.ts';
import { listReply } from '../../shared/http/responses.ts';
import { speciesParam } from '../../shared/domain/reference/species.ts';
import { imageSearchResult } from '../../shared/domain/images/responses.ts';

const query = z.strictObject({
  // The spec's schema says 1, its prose 10; the real service answers one image by default.
  limit: z._default(integer({ min: 1, max: 100 }), 1),
  page: pageParam,
  order: z.optional(caseInsensitiveEnum(ORDERS)),
  order_by: z._default(z.enum(ORDER_BY), 'created_at'),
  species_id: z.optional(speciesParam),
  breed_groups: z.optional(list()),
  exclude_breed_groups: z.optional(list()),
  lang: z.optional(langParam),
  has_breeds: z.optional(boolean()),
  include_breeds: z._default(boolean(), true),
  include_categories: z._default(boolean(), true),
  include_colours: z._default(boolean(), false),
  account_id: z.optional(text({ max: 64 })),
  breed_id: z.optional(text({ max: 100 })),
  breed_ids: z.optional(list()),
  category_ids: z.optional(
    z.pipe(list(), z.array(z.pipe(text({ max: WORD_MAX_LENGTH }, z.regex(/^\d+$/)), z.transform(Number)))),
  ),
  colour_id: z.optional(text({ max: 100 })),
  colour_ids: z.optional(list()),
  colour_code: z.optional(text({ max: 20 })),
  has_colours: z.optional(boolean()),
  age_months_min: z.optional(integer({ min: 0, max: 600 })),
  age_months_max: z.optional(integer({ min: 0, max: 600 })),
  sub_id: z.optional(subIdParam),
});

export const handler = httpRoute(
  route('images.search'),
  {
    summary: 'Search the image catalogue',
    headers: ['pagination-count', 'content-language'],
    query,
    response: z.array(imageSearchResult),
  },
  async ({ query: q, account }, deps) => {
    if (q.age_months_min !== undefined && q.age_months_max !== undefined && q.age_months_min > q.age_months_max) {
      throw badRequest(['age_months_min must not be greater than age_months_max']);
    }
    const [breeds, categories, colours, temperaments] = await Promise.all([
      loadBreeds(deps),
      loadCategories(deps),
      loadColours(deps),
      loadTemperaments(deps),
    ]);
    const breedById = new Map(breeds.map((b) => [b.id, b]));
    const colourById = new Map(colours.variants.map((v) => [v.id, v]));
    const join = (one: string | undefined, many: string[] | undefined) =>
      one || many?.length ? [...(one ? [one] : []), ...(many ?? [])] : undefined;
    const { images, total } = await searchImages(
      deps,
      {
        filter: {
          species: q.species_id,
          breedIds: join(q.breed_id, q.breed_ids),
          breedGroups: q.breed_groups,
          excludeBreedGroups: q.exclude_breed_groups,
          hasBreeds: q.has_breeds,
          categoryIds: q.category_ids,
          colourIds: join(q.colour_id, q.colour_ids),
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
      },
      {
        groupsOf: (id) => breedById.get(id)?.breed_groups.map((g) => g.toLowerCase()) ?? [],
        codeOf: (id) => colourById.get(id)?.code,
      },
    );
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
    return listReply(body, total, translator);
  },
);
