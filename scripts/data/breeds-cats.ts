/**
 * Cat breed records. No open data set carries cat measurements or
 * temperaments, so the breeds are authored in data/authored/cat-breeds.json;
 * VBO supplies registry recognition, EMS/TICA breed codes, synonyms and
 * registry links for the terms each authored breed names.
 */
import path from 'node:path';
import {
  breedI18n,
  CAT_REGISTRIES,
  type BreedI18n,
  type BreedRecord,
  type BuildContext,
  checkTemperament,
  claimId,
  type I18nLang,
  originFromCodes,
  type Recognition,
} from './breeds-model.ts';
import { omiaIdsOf, readVbo, type VboTerm } from './breeds-sources.ts';
import {
  heightFromCm,
  lifeSpan,
  nameKey,
  pair,
  readJson,
  slugify,
  uniqueBy,
  usableAltName,
  weightFromKg,
} from './breeds-util.ts';

export interface CatColourSpec {
  base: string[];
  patterns: string[];
  mods?: string[];
  extra?: string[];
}

interface CatEntry {
  name: string;
  alt_names: string[];
  /** VBO synonyms not to publish (misleading or misspelt). */
  drop_alt_names?: string[];
  vbo: string[];
  breed_groups: string[];
  country_codes: string[];
  origin?: string;
  weight_kg: [number, number];
  /** Shoulder height: our estimate (no registry standard states one for cats). */
  height_cm: [number, number];
  life_years: [number, number];
  temperament: string[];
  wikipedia_url: string | null;
  i18n: Partial<Record<'de' | 'es' | 'fr' | 'en-gb', string>>;
  colours: CatColourSpec;
  ems?: string;
  tica?: string;
  recognition?: Partial<Record<string, Recognition>>;
}

const REGISTRY_HOSTS: Record<string, string> = {
  'cfa.org': 'cfa',
  'tica.org': 'tica',
  'fifeweb.org': 'fife',
  'gccfcats.org': 'gccf',
  'wcf.de': 'wcf',
  'rareexoticfelineregistry.com': 'refr',
};
const RANK: Record<Recognition, number> = { full: 3, provisional: 2, preliminary: 1, none: 0 };

function hostOf(url: string): string {
  return url.replace(/^https?:\/\/(www\.)?/, '').split('/')[0] ?? '';
}

/** EMS code (FIFe first, then WCF) and TICA code from the VBO breed-code columns. */
function registryCodes(terms: VboTerm[]): { ems: string | null; tica: string | null } {
  const find = (t: VboTerm, host: string): string | null => {
    for (const c of t.codes) if (c.urls.some((u) => hostOf(u) === host)) return c.code.replace(/\s+non$/, '').trim();
    return null;
  };
  // the breed's own (first) term wins over its longhair/shorthair variety terms
  let ems: string | null = null;
  let tica: string | null = null;
  for (const t of terms) {
    ems ??= find(t, 'fifeweb.org') ?? find(t, 'wcf.de');
    tica ??= find(t, 'tica.org');
  }
  return { ems, tica };
}

function recognitionFrom(terms: VboTerm[]): Partial<Record<string, Recognition>> {
  const out: Partial<Record<string, Recognition>> = {};
  const raise = (reg: string, st: Recognition): void => {
    const cur = out[reg];
    if (cur === undefined || RANK[st] > RANK[cur]) out[reg] = st;
  };
  for (const t of terms) {
    for (const r of t.recognition) {
      for (const u of r.urls) {
        const reg = REGISTRY_HOSTS[hostOf(u)];
        if (reg) raise(reg, r.status);
      }
    }
  }
  // a registry page for the breed without a stated status still shows that the registry lists it
  for (const t of terms) for (const reg of Object.keys(t.registries)) if (out[reg] === undefined) raise(reg, 'full');
  return out;
}

export interface CatBuild {
  records: BreedRecord[];
  colourSpecs: Map<string, CatColourSpec>;
  /** Breed id → OMIA breed ids of the record's VBO terms. */
  omia: Map<string, string[]>;
  /** Every VBO term a breed record claimed (the mixed-breed pass takes only the others). */
  claimedVbo: Set<string>;
}

export async function buildCats(ctx: BuildContext): Promise<CatBuild> {
  const file = await readJson<{ breeds: CatEntry[] }>(path.join(ctx.authoredDir, 'cat-breeds.json'));
  const vbo = await readVbo(ctx.dataDir, 'cat');
  const used = new Map<string, string>();
  const colourSpecs = new Map<string, CatColourSpec>();
  const records: BreedRecord[] = [];
  const omia = new Map<string, string[]>();

  for (const c of file.breeds) {
    const id = claimId(ctx, slugify(c.name), 'cat');
    const terms: VboTerm[] = [];
    for (const v of c.vbo) {
      const t = vbo.get(v);
      if (!t) ctx.errors.push(`cat-breeds.json: ${c.name}: VBO term ${v} not found`);
      else if (used.has(v)) ctx.errors.push(`cat-breeds.json: ${c.name}: VBO term ${v} already used by ${used.get(v)}`);
      else {
        used.set(v, id);
        terms.push(t);
      }
    }
    for (const g of c.breed_groups)
      if (!ctx.groups.cat_groups.includes(g))
        ctx.errors.push(`${id}: group "${g}" is not in breed-groups.json cat_groups`);

    const omiaIds = omiaIdsOf(terms);
    if (omiaIds.length > 0) omia.set(id, omiaIds);
    const codes = registryCodes(terms);
    const recognition = { ...recognitionFrom(terms), ...(c.recognition ?? {}) };
    const ordered: Record<string, Recognition> = {};
    for (const reg of CAT_REGISTRIES) if (recognition[reg]) ordered[reg] = recognition[reg];

    const altNames = uniqueBy(
      [...c.alt_names, ...terms.flatMap((t) => [t.name, ...t.synonyms])]
        .map((s) => s.trim())
        .filter((s) => usableAltName(s) && nameKey(s) !== nameKey(c.name) && !(c.drop_alt_names ?? []).includes(s)),
      nameKey,
    ).slice(0, 15);

    const i18n: Partial<Record<I18nLang, BreedI18n>> = {};
    for (const lang of ['de', 'es', 'fr', 'en-gb'] as const) {
      const name = c.i18n[lang];
      if (name) i18n[lang] = breedI18n(ctx, name, c.breed_groups, lang);
    }

    const registryUrls = ['cfa', 'tica', 'fife', 'gccf', 'wcf']
      .flatMap((reg) => terms.map((t) => t.registries[reg] ?? ''))
      .filter((u) => u.startsWith('http'));
    const where = originFromCodes(ctx, c.country_codes, c.origin);
    colourSpecs.set(id, c.colours);

    records.push({
      id,
      species_id: 'cat',
      name: c.name,
      alt_names: altNames,
      temperament: checkTemperament(ctx, id, c.temperament),
      life_span: lifeSpan(pair(...c.life_years)),
      weight: weightFromKg(pair(...c.weight_kg)),
      height: heightFromCm(pair(...c.height_cm)),
      origin: where.origin,
      country_code: where.country_code,
      country_codes: where.country_codes,
      breed_groups: [...c.breed_groups],
      wikipedia_url: c.wikipedia_url,
      extinct: false,
      mixed: false,
      period: null,
      description: null,
      registry_ids: {
        fci: null,
        fci_group: null,
        fci_section: null,
        fci_provisional: null,
        akc: false,
        ems: c.ems ?? codes.ems,
        tica: c.tica ?? codes.tica,
        vbo: terms[0]?.id ?? null,
      },
      recognition: ordered,
      venom_codes: [],
      source_urls: uniqueBy([...(c.wikipedia_url ? [c.wikipedia_url] : []), ...registryUrls], (u) => u),
      // no open data set or registry standard gives cat sizes or life spans: all three are our estimates
      estimated_fields: ['height', 'weight', 'life_span'],
      one_figure_fields: [],
      i18n,
    });
  }
  // registry links shared by many breeds are index pages, not breed pages: keep only breed-specific ones
  const uses = new Map<string, number>();
  for (const r of records) for (const u of r.source_urls) uses.set(u, (uses.get(u) ?? 0) + 1);
  for (const r of records)
    r.source_urls = r.source_urls.filter((u) => u === r.wikipedia_url || (uses.get(u) ?? 0) <= 2);
  return { records, colourSpecs, omia, claimedVbo: new Set(used.keys()) };
}
