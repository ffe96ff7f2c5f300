// The reference data sets' records as data/*.json holds them: one zod schema per set. The builder (scripts/data)
// checks every record against it before writing a file, the seed checks again before loading a snapshot, and the
// reader's types are derived from it, so the build-time and runtime shapes cannot drift apart. Strict objects: a
// field added on one side only fails the build.
import * as z from 'zod/mini';
import { SPECIES } from './species.ts';

const species = z.enum(SPECIES);
const text = z.string().check(z.minLength(1));
const range = z.strictObject({ min: z.number(), max: z.number() });
const measure = z.strictObject({ imperial: range, metric: range });
/** A height whose breed standard states only a minimum (Tosa: at least 54.5 cm) has no `max`, never an invented one. */
const openRange = z.strictObject({ min: z.number(), max: z.optional(z.number()) });
/** Translations by language code; which languages a set must carry is the builder's rule. */
const translated = <T extends z.ZodMiniType>(fields: T) => z.record(z.string(), fields);

export const RECOGNITIONS = ['full', 'provisional', 'preliminary', 'none'] as const;

export const breedRecord = z.strictObject({
  id: text,
  species_id: species,
  name: text,
  alt_names: z.array(z.string()),
  temperament: z.array(z.string()),
  life_span: z.nullable(range),
  weight: z.nullable(measure),
  height: z.nullable(z.strictObject({ imperial: openRange, metric: openRange })),
  origin: z.string(),
  country_code: z.nullable(z.string()),
  country_codes: z.array(z.string()),
  breed_groups: z.array(z.string()),
  wikipedia_url: z.nullable(z.string()),
  extinct: z.boolean(),
  /** A cross or non-pedigree type (Labradoodle, Domestic Shorthair), not a recognised breed; its group is `Mixed`. */
  mixed: z.boolean(),
  /** Extinct breeds: when the breed existed (free text) and what it was; null for living breeds. */
  period: z.nullable(z.string()),
  description: z.nullable(z.string()),
  registry_ids: z.strictObject({
    fci: z.nullable(z.number()),
    fci_group: z.nullable(z.number()),
    fci_section: z.nullable(z.number()),
    fci_provisional: z.nullable(z.boolean()),
    akc: z.boolean(),
    ems: z.nullable(z.string()),
    tica: z.nullable(z.string()),
    vbo: z.nullable(z.string()),
  }),
  recognition: z.record(z.string(), z.enum(RECOGNITIONS)),
  venom_codes: z.array(z.string()),
  source_urls: z.array(z.string()),
  /** Fields holding our own approximate figures rather than a registry's or a standard's (see docs/data.md). */
  estimated_fields: z.array(z.string()),
  /** Fields whose source states a single figure (Leonberger: 9 years), published as min = max: no range is known. */
  one_figure_fields: z.array(z.string()),
  i18n: translated(
    z.strictObject({
      name: text,
      breed_groups: z.optional(z.array(z.string())),
      /** Extinct breeds: the description, translated. */
      description: z.optional(z.string()),
    }),
  ),
});
export type BreedData = z.infer<typeof breedRecord>;

/** The fixed fact categories (documented in docs/data.md). */
export const FACT_CATEGORIES = [
  'anatomy',
  'behaviour',
  'breeds',
  'culture',
  'health',
  'history',
  'records',
  'science',
  'senses',
] as const;

export const factRecord = z.strictObject({
  id: text,
  slug: text,
  title: text,
  fact: text,
  species_id: species,
  breed_id: z.nullable(z.string()),
  category: z.enum(FACT_CATEGORIES),
  source_url: text,
  source_name: text,
  i18n: translated(z.strictObject({ title: text, fact: text })),
});
export type FactRecord = z.infer<typeof factRecord>;

export const HEALTH_TIP_CATEGORIES = [
  'nutrition',
  'exercise',
  'grooming',
  'preventative_care',
  'dental',
  'parasites',
  'behaviour',
  'senior_care',
  'puppy_kitten',
  'environment',
] as const;
export const LIFE_STAGES = ['young', 'adult', 'senior'] as const;

export const healthTipRecord = z.strictObject({
  id: text,
  slug: text,
  title: text,
  tip: text,
  category: z.enum(HEALTH_TIP_CATEGORIES),
  /** Null: a tip for both species. */
  species_id: z.nullable(species),
  breed_id: z.nullable(z.string()),
  life_stage: z.nullable(z.enum(LIFE_STAGES)),
  sources: z.array(z.strictObject({ url: text, name: text })),
  i18n: translated(z.strictObject({ title: text, tip: text })),
});
export type HealthTipRecord = z.infer<typeof healthTipRecord>;

export const JURISDICTION_LEVELS = ['state', 'province', 'canton', 'territory', 'county', 'city', 'region'] as const;
export const LEGISLATION_TYPES = ['breed_specific', 'characteristic_based', 'behavior_based', 'hybrid'] as const;
export const APPROACHES = ['ban', 'restriction', 'permit', 'approved_list'] as const;
export const LAW_STATUSES = ['in_force', 'repealed', 'partially_repealed', 'suspended'] as const;
/**
 * What a law row's key facts were checked against: the law's own text (statute, regulation, ordinance, gazette; on an
 * official portal or in a copy the note names), an official page restating it, or secondary sources only.
 */
export const VERIFICATIONS = ['primary_text', 'official_page', 'secondary'] as const;
/** What a cited page is: the law's text, an official page, an overview of many jurisdictions' rules, or other. */
export const SOURCE_KINDS = ['legal_text', 'official_page', 'overview', 'secondary'] as const;

export const lawRecord = z.strictObject({
  id: text,
  country_code: text,
  country_name: text,
  jurisdiction: z.nullable(
    z.strictObject({ level: z.enum(JURISDICTION_LEVELS), name: text, code: z.nullable(z.string()) }),
  ),
  /** Id of the law whose list of designated types this row changes (the XL Bully orders amend the 1991 laws). */
  amends: z.nullable(z.string()),
  title: text,
  legislation_type: z.enum(LEGISLATION_TYPES),
  approach: z.enum(APPROACHES),
  species_id: z.literal('dog'),
  breeds: z.array(z.strictObject({ name: text, breed_id: z.nullable(z.string()), includes_mixes: z.boolean() })),
  summary: text,
  status: z.enum(LAW_STATUSES),
  effective_date: z.nullable(z.string()),
  repealed_date: z.nullable(z.string()),
  preempts_local_bsl: z.boolean(),
  /** The first of `sources`. */
  source_url: text,
  /** Every page cited, the law's text first where one is cited. */
  sources: z.array(z.strictObject({ url: text, kind: z.enum(SOURCE_KINDS) })),
  verified_at: z.nullable(z.string()),
  verification: z.enum(VERIFICATIONS),
  verification_note: z.nullable(z.string()),
  /** Title and summary in German, Spanish and French (our own translations; official names stay as they are). */
  i18n: translated(z.strictObject({ title: text, summary: text })),
});
export type LawRecord = z.infer<typeof lawRecord>;
