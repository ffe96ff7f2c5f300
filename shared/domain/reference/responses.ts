// What the reference routes (breeds, facts, health tips, categories, colours, legislation) answer, as schemas: the
// handlers' contracts and the OpenAPI document are built from these.
import * as z from 'zod/mini';
import { documented } from '../../schema/api-docs.ts';
import { SPECIES } from './species.ts';
import { APPROACHES, LEGISLATION_TYPES, SOURCE_KINDS, VERIFICATIONS } from './records.ts';

const species = z.enum(SPECIES);
const range = z.object({ min: z.number(), max: z.number() });
const imperialMetric = z.object({ imperial: range, metric: range });
const openRange = documented(z.object({ min: z.number(), max: z.optional(z.number()) }), {
  description: 'No `max` when the breed standard states only a minimum (never an invented upper figure).',
});
const rangeText = z.object({
  imperial: documented(z.string(), {
    description: 'e.g. `23 - 27` (pounds or inches), `at least 21` for a minimum-only height; empty when unknown.',
  }),
  metric: documented(z.string(), { description: 'e.g. `10 - 12` (kilograms or centimetres); empty when unknown.' }),
});

export const breedBody = documented(
  z.object({
    id: z.string(),
    name: z.string(),
    species_id: species,
    breed_group: documented(z.string(), { description: 'The first breed group (empty when none).' }),
    temperament: documented(z.string(), { description: 'Comma-separated temperament words.' }),
    life_span: documented(z.string(), { description: 'e.g. `10 - 13 years`; empty when unknown.' }),
    alt_names: documented(z.string(), { description: 'Comma-separated other names.' }),
    wikipedia_url: z.string(),
    origin: z.string(),
    country_code: z.string(),
    weight: rangeText,
    height: rangeText,
    reference_image_id: z.nullable(z.string()),
    image: z.nullable(z.object({ id: z.string(), url: z.string(), width: z.number(), height: z.number() })),
    // The detailed shape: accounts with the feature `full_breed_schema`.
    breed_groups: z.optional(z.array(z.string())),
    temperaments: z.optional(z.array(z.string())),
    country_codes: z.optional(z.array(z.string())),
    extinct: z.optional(z.boolean()),
    mixed: z.optional(
      documented(z.boolean(), {
        description:
          'A cross or non-pedigree type (Labradoodle, Domestic Shorthair), not a recognised breed; its group is `Mixed` and it has no figures, temperament or origin.',
      }),
    ),
    period: z.optional(documented(z.nullable(z.string()), { description: 'Extinct breeds: when the breed existed.' })),
    description: z.optional(documented(z.string(), { description: 'Extinct breeds: what the breed was.' })),
    life_span_years: z.optional(z.nullable(range)),
    weight_range: z.optional(z.nullable(imperialMetric)),
    height_range: z.optional(z.nullable(z.object({ imperial: openRange, metric: openRange }))),
    registry_ids: z.optional(z.record(z.string(), z.unknown())),
    recognition: z.optional(z.record(z.string(), z.string())),
    venom_codes: z.optional(z.array(z.string())),
    source_urls: z.optional(z.array(z.string())),
    estimated_fields: z.optional(
      documented(z.array(z.string()), {
        description: "Fields holding the project's own approximate figures rather than a registry's.",
      }),
    ),
    one_figure_fields: z.optional(
      documented(z.array(z.string()), {
        description: 'Fields whose source states a single figure, given as min = max: no range is known.',
      }),
    ),
  }),
  {
    id: 'Breed',
    description:
      'The basic shape; accounts with the feature `full_breed_schema` also get the optional fields (registries, VeNom codes, recognition, numeric ranges).',
  },
);
export const breedList = z.array(breedBody);
export const breedGroupList = documented(z.array(z.string()), { description: 'Breed group names, sorted.' });

export const factBody = documented(
  z.object({
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    fact: z.string(),
    species_id: z.nullable(species),
    breed_id: z.nullable(z.string()),
    category: z.string(),
    source_url: z.optional(documented(z.string(), { description: 'With `include_sources=true`.' })),
    source_name: z.optional(documented(z.string(), { description: 'With `include_sources=true`.' })),
  }),
  { id: 'Fact' },
);
export const factList = z.array(factBody);

export const healthTipBody = documented(
  z.object({
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    tip: z.string(),
    category: z.string(),
    species_id: z.nullable(species),
    breed_id: z.nullable(z.string()),
    life_stage: z.nullable(z.enum(['young', 'adult', 'senior'])),
    sources: z.optional(
      documented(z.array(z.object({ url: z.string(), name: z.string() })), {
        description: 'With `include_sources=true`.',
      }),
    ),
  }),
  { id: 'HealthTip' },
);
export const healthTipList = z.array(healthTipBody);

export const categoryBody = documented(z.object({ id: z.int(), name: z.string(), species_ids: z.array(species) }), {
  id: 'Category',
});
export const categoryList = z.array(categoryBody);

export const colourBody = documented(
  z.object({
    id: z.string(),
    code: documented(z.string(), { description: 'EMS code for cats, the registry wording for dogs.' }),
    name: z.string(),
    kind: z.enum(['colour', 'pattern', 'modifier', 'combination']),
    species_id: species,
    scope: documented(z.enum(['breed', 'species']), {
      description: '`breed`: named by the breed standard; `species`: applies to every breed of the species.',
    }),
  }),
  { id: 'Colour' },
);
export const colourList = z.array(colourBody);

const verification = documented(z.enum(VERIFICATIONS), {
  description:
    "What the row's key facts (breed list, approach, dates) were checked against: `primary_text` (the law's own text), `official_page` (an official page restating it) or `secondary` (secondary sources only). `verified=true` keeps the first two.",
});
const jurisdiction = z.nullable(z.object({ level: z.string(), name: z.string(), code: z.nullable(z.string()) }));

export const lawBody = documented(
  z.object({
    id: z.string(),
    country_code: z.string(),
    country_name: z.string(),
    jurisdiction,
    amends: documented(z.nullable(z.string()), {
      description: 'Id of the law whose list of designated types this one changes.',
    }),
    title: z.string(),
    legislation_type: z.enum(LEGISLATION_TYPES),
    approach: z.enum(APPROACHES),
    species_id: species,
    breeds: z.array(z.object({ name: z.string(), breed_id: z.nullable(z.string()), includes_mixes: z.boolean() })),
    summary: z.string(),
    status: z.enum(['in_force', 'repealed', 'partially_repealed', 'suspended']),
    effective_date: z.nullable(z.string()),
    repealed_date: z.nullable(z.string()),
    preempts_local_bsl: z.boolean(),
    source_url: documented(z.string(), { description: 'The first of `sources`.' }),
    sources: documented(z.array(z.object({ url: z.string(), kind: z.enum(SOURCE_KINDS) })), {
      description:
        "Every page cited, the law's own text first where one is cited. `kind`: `legal_text` (the statute, regulation, ordinance or gazette), `official_page` (a government or authority page restating it), `overview` (a page summarising many jurisdictions' rules), `secondary` (press, advocacy, legal summaries). A row citing only an overview page says so in its `verification_note`.",
    }),
    verified_at: documented(z.nullable(z.string()), {
      description: 'When the row was checked against its primary text or official page; null for `secondary` rows.',
    }),
    verification,
    verification_note: z.nullable(z.string()),
  }),
  { id: 'BreedLaw' },
);
export const lawList = z.array(lawBody);

export const banCountryList = z.array(
  documented(
    z.object({
      country_code: z.string(),
      country_name: z.string(),
      national_laws: z.int(),
      jurisdiction_laws: documented(z.int(), { description: 'Laws of states, cantons, cities.' }),
    }),
    { id: 'BanCountry' },
  ),
);

export const breedRestrictionList = z.array(
  documented(
    z.object({
      country_code: z.string(),
      country_name: z.string(),
      jurisdiction,
      law_id: z.string(),
      title: z.string(),
      approach: z.enum(APPROACHES),
      legislation_type: z.enum(LEGISLATION_TYPES),
      includes_mixes: z.boolean(),
      status: z.enum(['in_force', 'repealed', 'partially_repealed', 'suspended']),
      source_url: z.string(),
      verification,
    }),
    { id: 'BreedRestriction' },
  ),
);
