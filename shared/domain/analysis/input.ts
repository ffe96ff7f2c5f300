// Request schemas of the analysis routes.
import * as z from 'zod/mini';
import { boolean, caseInsensitiveEnum, text } from '../../schema/params.ts';
import { langParam } from '../reference/i18n.ts';
import { unitsParam } from '../reference/units.ts';
import { SEASONS } from './kinds.ts';

const lang = z._default(langParam, 'en');
const country = z.pipe(
  z.string().check(z.refine((v) => /^[a-z]{2}$/i.test(v), 'must be an ISO 3166-1 alpha-2 country code')),
  z.transform((v: string) => v.toUpperCase()),
);

export const langQuery = z.strictObject({ lang });

export const seasonalQuery = z.strictObject({
  lang,
  season: z.optional(caseInsensitiveEnum(SEASONS)),
  country: z.optional(country),
});

/** Estimated weight: `units=imperial` adds pounds (`*_lb` fields) to the kilograms. */
export const estimatedWeightQuery = z.strictObject({ ...seasonalQuery.shape, units: unitsParam });

export const bodyConditionQuery = z.strictObject({
  ...seasonalQuery.shape,
  compare_version: z.optional(
    text({ max: 20 }).check(z.refine((v) => /^v\d+$/.test(v), 'must name a prompt version such as v1')),
  ),
});

export const healthTipsQuery = z.strictObject({
  lang,
  include_seeded: z._default(boolean(), true),
  include_sources: z._default(boolean(), false),
});
