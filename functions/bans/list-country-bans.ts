import * as z from 'zod/mini';
import { countryLawPage } from '../../shared/domain/reference/legislation.ts';
import { APPROACHES, LEGISLATION_TYPES } from '../../shared/domain/reference/records.ts';
import { pageQuery } from '../../shared/domain/reference/list-query.ts';
import { boolean, text, WORD_MAX_LENGTH } from '../../shared/schema/params.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { listReply } from '../../shared/http/responses.ts';
import { lawList } from '../../shared/domain/reference/responses.ts';

const query = z.strictObject({
  ...pageQuery({ defaultLimit: 10, maxLimit: 100, defaultOrder: 'ASC' }),
  country: z.pipe(
    text(
      { max: WORD_MAX_LENGTH },
      z.refine((v) => /^[A-Za-z]{2}$/.test(v), 'must be an ISO 3166-1 alpha-2 code, e.g. DE'),
    ),
    z.transform((v: string) => v.toUpperCase()),
  ),
  legislation_type: z.optional(z.enum(LEGISLATION_TYPES)),
  approach: z.optional(z.enum(APPROACHES)),
  jurisdiction: z.optional(text({ max: 100 })),
  verified: z.optional(boolean()),
});

export const handler = httpRoute(
  route('bans.country'),
  {
    summary: "A country's breed laws",
    description:
      "National laws plus the rows amending a list of designated types; where a country has no national law, its jurisdictions' laws. `jurisdiction` picks one state, canton or city by name or code. `verified=true` keeps only the rows checked against the law's text or an official page (`verification: primary_text` or `official_page`); rows resting on secondary sources alone (`secondary`) are left out.",
    headers: ['pagination-count', 'content-language'],
    query,
    response: lawList,
  },
  async ({ query: q }, deps) => {
    const { laws, total, translator } = await countryLawPage(deps, {
      country: q.country,
      species: q.species_id,
      legislationType: q.legislation_type,
      approach: q.approach,
      jurisdiction: q.jurisdiction,
      verifiedOnly: q.verified === true,
      breedGroups: q.breed_groups,
      excludeBreedGroups: q.exclude_breed_groups,
      order: q.order,
      page: q.page,
      limit: q.limit,
      lang: q.lang,
    });
    return listReply(laws, total, translator);
  },
);
