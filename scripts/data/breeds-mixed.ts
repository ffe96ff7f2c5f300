/**
 * Crosses and non-pedigree types (Labradoodle, Pomsky, Domestic Shorthair): the names people type for animals that
 * no registry keeps as a breed. Taken from VBO, not hand-picked: every term under VBO's Mixed Breed term of the
 * species that no breed record claimed, plus the few crosses VBO files elsewhere and minus the generic or misfiled
 * terms, both listed with their reason in data/authored/mixed-breeds.json. No standard gives them figures, a
 * temperament or an origin, so those stay empty (documented in docs/data.md).
 */
import path from 'node:path';
import {
  type BreedI18n,
  type BreedRecord,
  type BuildContext,
  breedI18n,
  claimId,
  type SpeciesId,
} from './breeds-model.ts';
import { readVbo, type VboTerm } from './breeds-sources.ts';
import { nameKey, readJson, slugify, uniqueBy, usableAltName } from './breeds-util.ts';

const MIXED_GROUP = 'Mixed';
const SIZE_PREFIX = /^(Miniature|Petite|Standard|Giant) /;

interface MixedFile {
  parents: Record<SpeciesId, string>;
  also: Record<string, string>;
  exclude: Record<string, string>;
  i18n: Record<string, Partial<Record<'de' | 'es' | 'fr', string>>>;
}

/** The selected terms, size varieties folded into their cross: primary term → its varieties. */
function selectTerms(
  ctx: BuildContext,
  vbo: Map<string, VboTerm>,
  parent: string,
  claimed: Set<string>,
  file: MixedFile,
): Map<VboTerm, VboTerm[]> {
  for (const id of [...Object.keys(file.also), ...Object.keys(file.exclude)])
    if (vbo.has(id) && claimed.has(id)) ctx.errors.push(`mixed-breeds.json: ${id} is claimed by a breed record`);
  const picked = [...vbo.values()]
    .filter((t) => !claimed.has(t.id) && !(t.id in file.exclude) && (t.parent === parent || t.id in file.also))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  const byName = new Map(picked.map((t) => [nameKey(t.name), t]));
  const out = new Map<VboTerm, VboTerm[]>();
  for (const t of picked) {
    const base = SIZE_PREFIX.test(t.name) ? byName.get(nameKey(t.name.replace(SIZE_PREFIX, ''))) : undefined;
    if (!base) out.set(t, out.get(t) ?? []);
  }
  for (const t of picked) {
    const base = SIZE_PREFIX.test(t.name) ? byName.get(nameKey(t.name.replace(SIZE_PREFIX, ''))) : undefined;
    if (base) out.get(base)?.push(t);
  }
  return out;
}

/** Both species' mixed records; they claim ids after every breed record (the collision rule's order). */
export async function buildMixed(ctx: BuildContext, claimed: Record<SpeciesId, Set<string>>): Promise<BreedRecord[]> {
  const file = await readJson<MixedFile>(path.join(ctx.authoredDir, 'mixed-breeds.json'));
  const records: BreedRecord[] = [];
  const known = new Set<string>();
  for (const species of ['dog', 'cat'] as const) {
    const vbo = await readVbo(ctx.dataDir, species);
    for (const id of vbo.keys()) known.add(id);
    for (const [term, varieties] of selectTerms(ctx, vbo, file.parents[species], claimed[species], file))
      records.push(mixedRecord(ctx, species, [term, ...varieties], file.i18n));
  }
  for (const id of [...Object.keys(file.also), ...Object.keys(file.exclude)])
    if (!known.has(id)) ctx.errors.push(`mixed-breeds.json: VBO term ${id} not found`);
  for (const id of Object.keys(file.i18n))
    if (!records.some((r) => r.id === id)) ctx.errors.push(`mixed-breeds.json: i18n for unknown id ${id}`);
  return records;
}

function mixedRecord(
  ctx: BuildContext,
  species: SpeciesId,
  terms: [VboTerm, ...VboTerm[]],
  names: MixedFile['i18n'],
): BreedRecord {
  const [term] = terms;
  const id = claimId(ctx, slugify(term.name), species);
  const groups = [MIXED_GROUP];
  const i18n: Partial<Record<'de' | 'es' | 'fr', BreedI18n>> = {};
  for (const lang of ['de', 'es', 'fr'] as const)
    i18n[lang] = breedI18n(ctx, names[id]?.[lang] ?? term.name, groups, lang);
  const wikipedia = terms.flatMap((t) => t.wikipedia)[0] ?? null;
  return {
    id,
    species_id: species,
    name: term.name,
    // VeNom's "Cockapoo ( Spoodle )" and "Bullador – English" forms repeat names listed on their own
    alt_names: uniqueBy(
      terms
        .flatMap((t) => [t.name, ...t.synonyms])
        .map((s) => s.trim())
        .filter((s) => usableAltName(s) && !/[(–]/.test(s) && nameKey(s) !== nameKey(term.name)),
      nameKey,
    ),
    temperament: [],
    life_span: null,
    weight: null,
    height: null,
    origin: '',
    country_code: null,
    country_codes: [],
    breed_groups: groups,
    wikipedia_url: wikipedia,
    extinct: false,
    mixed: true,
    period: null,
    description: null,
    registry_ids: {
      fci: null,
      fci_group: null,
      fci_section: null,
      fci_provisional: null,
      akc: false,
      ems: null,
      tica: null,
      vbo: term.id,
    },
    recognition: {},
    venom_codes: uniqueBy(
      terms.flatMap((t) => t.venom),
      (v) => v,
    ),
    source_urls: wikipedia ? [wikipedia] : [],
    estimated_fields: [],
    one_figure_fields: [],
    i18n,
  };
}
