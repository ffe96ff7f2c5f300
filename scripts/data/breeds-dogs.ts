/**
 * Dog breed records: FCI nomenclature as the backbone, AKC numbers and groups
 * merged in, AKC-only breeds and curated extinct breeds added, and VBO terms
 * attached for alternative names, VeNom codes, Wikipedia links and
 * KC/UKC listing.
 */
import path from 'node:path';
import {
  breedI18n,
  type BreedI18n,
  type BreedRecord,
  type BuildContext,
  checkTemperament,
  claimId,
  type I18nLang,
  originFromCodes,
  type Recognition,
} from './breeds-model.ts';
import { type AkcBreed, type FciBreed, omiaIdsOf, readAkc, readFci, readVbo, type VboTerm } from './breeds-sources.ts';
import {
  caseTranslatedName,
  heightFromCm,
  lifeSpan,
  nameKey,
  pair,
  type Range,
  readJson,
  slugify,
  titleCaseEnglish,
  uniqueBy,
  usableAltName,
  weightFromKg,
} from './breeds-util.ts';

const DOG_TAXON = 'NCBITaxon:9615';
const MIXED_BREED = 'VBO:0200902';

interface FciOverrides {
  names: Record<string, { name?: string; alt_names?: string[]; drop_alt_names?: string[] }>;
  i18n: Record<string, Partial<Record<'de' | 'es' | 'fr', string>>>;
}
interface AkcOwn {
  country_codes: string[];
  vbo?: string[];
  variety_of_fci?: number;
  alt_names?: string[];
  i18n?: Partial<Record<'de' | 'es' | 'fr' | 'en-gb', string>>;
}
interface AkcFile {
  map: Record<string, { fci?: number[]; own?: AkcOwn }>;
  group_updates: Record<string, string>;
}
interface ExtinctEntry {
  name: string;
  country_codes: string[];
  alt_names?: string[];
  wikipedia_url: string;
  vbo?: string[];
  height_cm?: [number, number];
  weight_kg?: [number, number];
  i18n?: Partial<Record<'de' | 'es' | 'fr', string>>;
  /** When the breed existed, and what it was, in our words from the sources (its Wikipedia article and those it cites). */
  period: string;
  description: string;
  description_i18n: Record<'de' | 'es' | 'fr', string>;
}
/** A breed or type outside FCI and AKC (data/authored/dog-other-breeds.json). */
interface OtherEntry {
  name: string;
  vbo?: string[];
  alt_names?: string[];
  drop_alt_names?: string[];
  breed_groups: string[];
  country_codes: string[];
  height_cm: [number, number];
  weight_kg: [number, number];
  life_years: [number, number];
  basis: 'standard' | 'estimate';
  defined_by?: string;
  temperament: string[];
  wikipedia_url?: string;
  i18n?: Partial<Record<'de' | 'es' | 'fr', string>>;
}
interface VboFile {
  claims: Record<string, string[]>;
  no_auto_attach: string[];
}
type MeasuredField = 'height' | 'weight' | 'life_span';
interface MeasurementEntry {
  height_cm?: [number, number];
  /** The standard states only a minimum height (published without `max`). */
  height_min_cm?: number;
  weight_kg?: [number, number];
  life_years?: [number, number];
  /** Fields whose figures a breed standard states (the others are our estimates). */
  from_standard?: MeasuredField[];
  /** Fields whose only source states one figure (published as min = max, listed in `one_figure_fields`). */
  one_figure?: MeasuredField[];
}

interface DogDraft {
  kind: 'fci' | 'akc' | 'other' | 'extinct';
  id: string;
  name: string;
  authoredAlt: string[];
  dropAlt: string[];
  fci: FciBreed | null;
  akc: AkcBreed[];
  varietyOfFci: number | null;
  countryCodes: string[];
  originLabel?: string;
  vboExplicit: string[];
  authoredI18n: Partial<Record<I18nLang, string>>;
  wikipedia: string | null;
  heightCm?: [number, number];
  weightKg?: [number, number];
  /** Authored breed outside FCI/AKC: its groups, figures and temperament. */
  other?: OtherEntry;
  /** Extinct breed: its period and description. */
  history?: ExtinctEntry;
  // filled by the VBO pass
  vboPrimary: VboTerm | null;
  vboSecondary: VboTerm[];
}

/** How each AKC class maps to a recognition level. */
function akcRecognition(group: string): Recognition {
  if (group === 'Foundation Stock Service') return 'preliminary';
  if (group === 'Miscellaneous Class') return 'provisional';
  return 'full';
}

/** "Poodle (Toy)" → "Toy Poodle"; other names unchanged. */
function akcDisplayName(name: string): string {
  const m = name.match(/^(.+?) \((.+)\)$/);
  return m ? `${m[2]} ${m[1]}` : name;
}

export interface DogBuild {
  records: BreedRecord[];
  stats: Record<string, number>;
  /** Breed id → OMIA breed ids of every VBO term the record claimed (primary, varieties, synonyms). */
  omia: Map<string, string[]>;
  /** Every VBO term a breed record claimed (the mixed-breed pass takes only the others). */
  claimedVbo: Set<string>;
}

export async function buildDogs(ctx: BuildContext): Promise<DogBuild> {
  const fciList = await readFci(ctx.dataDir);
  const akcList = await readAkc(ctx.dataDir);
  const vbo = await readVbo(ctx.dataDir, 'dog');
  const overrides = await readJson<FciOverrides>(path.join(ctx.authoredDir, 'dog-fci.json'));
  const akcFile = await readJson<AkcFile>(path.join(ctx.authoredDir, 'dog-akc.json'));
  const otherList = (await readJson<{ breeds: OtherEntry[] }>(path.join(ctx.authoredDir, 'dog-other-breeds.json')))
    .breeds;
  const extinctList = await readJson<ExtinctEntry[]>(path.join(ctx.authoredDir, 'dog-extinct.json'));
  const measurements = (
    await readJson<{ breeds: Record<string, MeasurementEntry> }>(path.join(ctx.authoredDir, 'dog-measurements.json'))
  ).breeds;
  const temperaments = (
    await readJson<{ breeds: Record<string, string[]> }>(path.join(ctx.authoredDir, 'dog-temperaments.json'))
  ).breeds;
  const vboFile = await readJson<VboFile>(path.join(ctx.authoredDir, 'dog-vbo.json'));
  const links = (await readJson<{ wikipedia: Record<string, string> }>(path.join(ctx.authoredDir, 'dog-links.json')))
    .wikipedia;

  // ------------------------------------------------------------ drafts
  const drafts: DogDraft[] = [];
  const byFci = new Map<number, DogDraft>();
  for (const f of fciList) {
    const ov = overrides.names[String(f.id)];
    const fciName = titleCaseEnglish(f.name);
    const name = ov?.name ?? fciName;
    const country = ctx.countries.fci[f.country];
    if (!country) ctx.errors.push(`FCI ${f.id}: country "${f.country}" missing from countries.json`);
    const d: DogDraft = {
      kind: 'fci',
      id: claimId(ctx, slugify(name), 'dog'),
      name,
      authoredAlt: [...(ov?.alt_names ?? []), ...(fciName !== name ? [fciName] : [])],
      dropAlt: ov?.drop_alt_names ?? [],
      fci: f,
      akc: [],
      varietyOfFci: null,
      countryCodes: country?.codes ?? [],
      ...(country?.origin ? { originLabel: country.origin } : {}),
      vboExplicit: [],
      authoredI18n: {},
      wikipedia: null,
      vboPrimary: null,
      vboSecondary: [],
    };
    drafts.push(d);
    byFci.set(f.id, d);
  }

  for (const a of akcList) {
    const m = akcFile.map[a.name];
    if (!m) {
      ctx.errors.push(`AKC breed "${a.name}" has no entry in dog-akc.json`);
      continue;
    }
    if (m.fci) {
      for (const n of m.fci) {
        const d = byFci.get(n);
        if (!d) ctx.errors.push(`dog-akc.json: "${a.name}" points at unknown FCI ${n}`);
        else d.akc.push(a);
      }
      continue;
    }
    const own = m.own;
    if (!own) {
      ctx.errors.push(`dog-akc.json: "${a.name}" has neither fci nor own`);
      continue;
    }
    const name = akcDisplayName(a.name);
    const i18n: Partial<Record<I18nLang, string>> = {};
    for (const [k, v] of Object.entries(own.i18n ?? {})) i18n[k as I18nLang] = v;
    drafts.push({
      kind: 'akc',
      id: claimId(ctx, slugify(name), 'dog'),
      name,
      authoredAlt: own.alt_names ?? [],
      dropAlt: [],
      fci: null,
      akc: [a],
      varietyOfFci: own.variety_of_fci ?? null,
      countryCodes: own.country_codes,
      vboExplicit: own.vbo ?? [],
      authoredI18n: i18n,
      wikipedia: null,
      vboPrimary: null,
      vboSecondary: [],
    });
  }

  for (const o of otherList) {
    const i18n: Partial<Record<I18nLang, string>> = {};
    for (const [k, v] of Object.entries(o.i18n ?? {})) i18n[k as I18nLang] = v;
    drafts.push({
      kind: 'other',
      id: claimId(ctx, slugify(o.name), 'dog'),
      name: o.name,
      authoredAlt: o.alt_names ?? [],
      dropAlt: o.drop_alt_names ?? [],
      fci: null,
      akc: [],
      varietyOfFci: null,
      countryCodes: o.country_codes,
      vboExplicit: o.vbo ?? [],
      authoredI18n: i18n,
      wikipedia: o.wikipedia_url ?? null,
      heightCm: o.height_cm,
      weightKg: o.weight_kg,
      other: o,
      vboPrimary: null,
      vboSecondary: [],
    });
  }

  for (const e of extinctList) {
    const i18n: Partial<Record<I18nLang, string>> = {};
    for (const [k, v] of Object.entries(e.i18n ?? {})) i18n[k as I18nLang] = v;
    drafts.push({
      kind: 'extinct',
      id: claimId(ctx, slugify(e.name), 'dog'),
      name: e.name,
      authoredAlt: e.alt_names ?? [],
      dropAlt: [],
      fci: null,
      akc: [],
      varietyOfFci: null,
      countryCodes: e.country_codes,
      vboExplicit: e.vbo ?? [],
      authoredI18n: i18n,
      wikipedia: e.wikipedia_url,
      ...(e.height_cm ? { heightCm: e.height_cm } : {}),
      ...(e.weight_kg ? { weightKg: e.weight_kg } : {}),
      history: e,
      vboPrimary: null,
      vboSecondary: [],
    });
  }

  // ------------------------------------------------------------ VBO terms
  for (const id of Object.keys(vboFile.claims))
    if (!drafts.some((d) => d.id === id)) ctx.errors.push(`dog-vbo.json: unknown id ${id}`);
  const claimedVbo = assignVbo(ctx, drafts, vbo, vboFile);

  // ------------------------------------------------------------ records
  const ids = new Set(drafts.map((d) => d.id));
  for (const id of Object.keys(measurements))
    if (!ids.has(id)) ctx.errors.push(`dog-measurements.json: unknown id ${id}`);
  for (const id of Object.keys(temperaments))
    if (!ids.has(id)) ctx.errors.push(`dog-temperaments.json: unknown id ${id}`);
  for (const [id, url] of Object.entries(links)) {
    const d = drafts.find((x) => x.id === id);
    if (!d) ctx.errors.push(`dog-links.json: unknown id ${id}`);
    else d.wikipedia = url;
  }

  const stats: Record<string, number> = { measured_akc: 0, measured_authored: 0, measured_none: 0 };
  const records = drafts.map((d) => {
    const rec = toRecord(
      ctx,
      d,
      overrides,
      akcFile,
      measurements[d.id],
      d.other?.temperament ?? temperaments[d.id] ?? [],
    );
    const fromAkc = d.akc.some((a) => a.heightCm[1] > 0);
    const m = measurements[d.id];
    if (m?.height_cm || m?.height_min_cm || m?.weight_kg || m?.life_years)
      stats.measured_authored = (stats.measured_authored ?? 0) + 1;
    else if (fromAkc) stats.measured_akc = (stats.measured_akc ?? 0) + 1;
    else if (!rec.height && !rec.weight) stats.measured_none = (stats.measured_none ?? 0) + 1;
    return rec;
  });
  const omia = new Map<string, string[]>();
  for (const d of drafts) {
    const ids = omiaIdsOf([...(d.vboPrimary ? [d.vboPrimary] : []), ...d.vboSecondary]);
    if (ids.length > 0) omia.set(d.id, ids);
  }
  return { records, stats, omia, claimedVbo };
}

// ---------------------------------------------------------------- VBO assignment

function assignVbo(ctx: BuildContext, drafts: DogDraft[], vbo: Map<string, VboTerm>, file: VboFile): Set<string> {
  const noAuto = new Set(file.no_auto_attach);
  const claimed = new Map<string, DogDraft>();
  const children = new Map<string, VboTerm[]>();
  for (const t of vbo.values()) {
    const list = children.get(t.parent) ?? [];
    list.push(t);
    children.set(t.parent, list);
  }
  const underMixed = (t: VboTerm): boolean => {
    let p = t.parent;
    for (let i = 0; i < 10 && p; i++) {
      if (p === MIXED_BREED) return true;
      p = vbo.get(p)?.parent ?? '';
    }
    return t.id === MIXED_BREED;
  };
  const claim = (d: DogDraft, t: VboTerm, primary: boolean): void => {
    if (claimed.has(t.id)) return;
    claimed.set(t.id, d);
    if (primary && !d.vboPrimary) d.vboPrimary = t;
    else d.vboSecondary.push(t);
  };

  // 1. explicit claims (AKC breeds that FCI counts as varieties, curated extinct terms)
  for (const d of drafts) {
    for (const [i, id] of d.vboExplicit.entries()) {
      const t = vbo.get(id);
      if (!t) ctx.errors.push(`${d.id}: VBO term ${id} not found`);
      else claim(d, t, i === 0);
    }
  }
  // 2. FCI cross-references
  const byFciNumber = new Map<number, VboTerm[]>();
  for (const t of vbo.values()) for (const n of t.fci) byFciNumber.set(n, [...(byFciNumber.get(n) ?? []), t]);
  for (const d of drafts) {
    if (!d.fci) continue;
    const terms = (byFciNumber.get(d.fci.id) ?? []).filter((t) => !claimed.has(t.id));
    terms.sort((a, b) => Number(b.parent === DOG_TAXON) - Number(a.parent === DOG_TAXON) || (a.id < b.id ? -1 : 1));
    for (const t of terms) claim(d, t, !d.vboPrimary);
  }
  // 2b. curated extra terms (secondary unless the record has no term yet)
  for (const d of drafts) {
    for (const id of file.claims[d.id] ?? []) {
      const t = vbo.get(id);
      if (!t) ctx.errors.push(`dog-vbo.json: ${d.id}: VBO term ${id} not found`);
      else if (claimed.has(id))
        ctx.errors.push(`dog-vbo.json: ${d.id}: VBO term ${id} already claimed by ${claimed.get(id)?.id}`);
      else claim(d, t, !d.vboPrimary);
    }
  }
  // 3. name match for drafts still without a primary term (AKC-only, extinct)
  const keysOf = (d: DogDraft): Set<string> => {
    const keys = new Set<string>([
      nameKey(d.name),
      ...d.authoredAlt.map(nameKey),
      ...d.akc.map((a) => nameKey(a.name)),
    ]);
    if (d.vboPrimary) for (const s of [d.vboPrimary.name, ...d.vboPrimary.synonyms]) keys.add(nameKey(s));
    return keys;
  };
  const activeTerms = [...vbo.values()]
    .filter((t) => !underMixed(t) && !noAuto.has(t.id))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  for (const d of drafts) {
    if (d.vboPrimary) continue;
    const keys = keysOf(d);
    const byName = activeTerms.filter((t) => !claimed.has(t.id) && keys.has(nameKey(t.name)));
    const bySyn = activeTerms.filter((t) => !claimed.has(t.id) && t.synonyms.some((s) => keys.has(nameKey(s))));
    const pick = [...byName, ...bySyn].sort(
      (a, b) => Number(b.parent === DOG_TAXON) - Number(a.parent === DOG_TAXON),
    )[0];
    if (pick) claim(d, pick, true);
    else ctx.notes.push(`${d.id}: no VBO term`);
  }
  // 4. varieties below a claimed primary term
  for (const d of drafts) {
    const stack = d.vboPrimary ? [d.vboPrimary] : [];
    while (stack.length > 0) {
      const t = stack.pop();
      if (!t) break;
      for (const c of (children.get(t.id) ?? []).sort((a, b) => (a.id < b.id ? -1 : 1))) {
        if (!claimed.has(c.id)) claim(d, c, false);
        stack.push(c);
      }
    }
  }
  // 5. unclaimed terms whose name is a name of exactly one record
  const keyOwners = new Map<string, Set<DogDraft>>();
  for (const d of drafts) for (const k of keysOf(d)) keyOwners.set(k, (keyOwners.get(k) ?? new Set()).add(d));
  for (const t of activeTerms) {
    if (claimed.has(t.id)) continue;
    const owners = keyOwners.get(nameKey(t.name));
    if (owners && owners.size === 1) {
      const [d] = [...owners];
      if (d) {
        claim(d, t, false);
        ctx.notes.push(`VBO ${t.id} "${t.name}" attached to ${d.id} by name`);
      }
    }
  }
  return new Set(claimed.keys());
}

// ---------------------------------------------------------------- record assembly

function toRecord(
  ctx: BuildContext,
  d: DogDraft,
  overrides: FciOverrides,
  akcFile: AkcFile,
  measured: MeasurementEntry | undefined,
  temperament: string[],
): BreedRecord {
  const f = d.fci;
  const terms = [...(d.vboPrimary ? [d.vboPrimary] : []), ...d.vboSecondary];

  // groups
  const akcGroups = uniqueBy(
    d.akc.map((a) => akcFile.group_updates[a.name] ?? a.group),
    (g) => g,
  );
  const akcNames = akcGroups.map((g) => {
    const n = ctx.groups.akc_groups[g];
    if (!n) ctx.errors.push(`${d.id}: unknown AKC group "${g}"`);
    return n ?? g;
  });
  const fciGroup = f ? ctx.groups.fci_groups[f.group] : undefined;
  if (f && !fciGroup) ctx.errors.push(`${d.id}: unknown FCI group "${f.group}"`);
  const akcFull = akcGroups.some((g) => akcRecognition(g) === 'full');
  const breedGroups = d.other
    ? [...d.other.breed_groups]
    : uniqueBy(
        akcFull
          ? [...akcNames, ...(fciGroup ? [fciGroup.name] : [])]
          : [...(fciGroup ? [fciGroup.name] : []), ...akcNames],
        (g) => g,
      );
  for (const g of breedGroups) if (!ctx.groups.i18n[g]) ctx.errors.push(`${d.id}: group "${g}" has no translations`);
  for (const g of breedGroups) if (g.includes(',')) ctx.errors.push(`${d.id}: group "${g}" contains a comma`);

  // measurements: AKC numbers (several varieties → overall range), then authored figures
  const akcRange = (pick: (a: AkcBreed) => [number, number]): Range | null => {
    const rs = d.akc.map((a) => pair(pick(a)[0], pick(a)[1])).filter((r): r is Range => r !== null);
    if (rs.length === 0) return null;
    return { min: Math.min(...rs.map((r) => r.min)), max: Math.max(...rs.map((r) => r.max)) };
  };
  const hRange = measured?.height_min_cm
    ? { min: measured.height_min_cm }
    : measured?.height_cm
      ? pair(...measured.height_cm)
      : d.heightCm
        ? pair(...d.heightCm)
        : akcRange((a) => a.heightCm);
  const wRange = measured?.weight_kg
    ? pair(...measured.weight_kg)
    : d.weightKg
      ? pair(...d.weightKg)
      : akcRange((a) => a.weightKg);
  const lRange = measured?.life_years
    ? pair(...measured.life_years)
    : d.other
      ? pair(...d.other.life_years)
      : akcRange((a) => a.lifeYears);
  // which figures are our own estimates rather than a registry's (AKC numbers, a standard's stated range)
  const estimated: string[] = [];
  if (d.other) {
    if (d.other.basis === 'estimate') estimated.push('height', 'weight', 'life_span');
  } else if (measured) {
    const fromStandard = measured.from_standard ?? [];
    if ((measured.height_cm || measured.height_min_cm) && !fromStandard.includes('height')) estimated.push('height');
    if (measured.weight_kg && !fromStandard.includes('weight')) estimated.push('weight');
    if (measured.life_years && !fromStandard.includes('life_span')) estimated.push('life_span');
  }
  if (d.kind === 'extinct') {
    if (d.heightCm) estimated.push('height');
    if (d.weightKg) estimated.push('weight');
  }

  // recognition
  const recognition: Record<string, Recognition> = {};
  if (d.kind !== 'extinct') {
    if (f) recognition.fci = f.provisional ? 'provisional' : 'full';
    else if (d.varietyOfFci === null) recognition.fci = 'none';
    const akcLevels = akcGroups.map(akcRecognition);
    recognition.akc = akcLevels.includes('full')
      ? 'full'
      : akcLevels.includes('provisional')
        ? 'provisional'
        : akcLevels.includes('preliminary')
          ? 'preliminary'
          : 'none';
    const ukc = terms.find((t) => t.registries.ukc);
    if (ukc) recognition.ukc = 'full';
    const kc = terms.filter((t) => t.registries.kc?.includes('thekennelclub.org.uk'));
    if (kc.length > 0)
      recognition.kc = kc.some((t) => !/-imp\/?$/.test(t.registries.kc ?? '')) ? 'full' : 'provisional';
  }

  // names
  const altNames = uniqueBy(
    [
      ...d.authoredAlt,
      ...d.akc.map((a) => akcDisplayName(a.name)),
      ...(d.vboPrimary ? [d.vboPrimary.name, ...d.vboPrimary.synonyms] : []),
    ]
      .map((s) => s.trim())
      .filter((s) => usableAltName(s) && nameKey(s) !== nameKey(d.name) && !d.dropAlt.includes(s)),
    nameKey,
  ).slice(0, 15);

  // translations
  const i18n: Partial<Record<I18nLang, BreedI18n>> = {};
  for (const lang of ['de', 'es', 'fr', 'pl', 'uk', 'en-gb'] as const) {
    let name: string | undefined = d.authoredI18n[lang];
    if (!name && f) {
      const ov = overrides.i18n[String(f.id)]?.[lang as 'de' | 'es' | 'fr'];
      const raw = f.translations[lang as 'de']?.name;
      if (ov) name = ov;
      else if (raw && (lang === 'de' || lang === 'es' || lang === 'fr')) name = caseTranslatedName(raw, lang, d.name);
      else if (raw) name = raw.replace(/\s+/g, ' ').trim();
    }
    const description = d.history?.description_i18n[lang as 'de' | 'es' | 'fr'];
    if (!name && description) name = d.name;
    if (name) i18n[lang] = { ...breedI18n(ctx, name, breedGroups, lang), ...(description ? { description } : {}) };
  }
  if (d.history)
    for (const lang of ['de', 'es', 'fr'] as const)
      if (!d.history.description_i18n?.[lang]) ctx.errors.push(`${d.id}: extinct breed without a ${lang} description`);

  // links
  const wikipedia = d.wikipedia ?? terms.flatMap((t) => t.wikipedia)[0] ?? null;
  const registryUrls = (reg: string): string[] =>
    terms.map((t) => t.registries[reg] ?? '').filter((u) => u.startsWith('http'));
  const sourceUrls = uniqueBy(
    [
      ...(f ? [f.url, f.pdf] : []),
      ...(wikipedia ? [wikipedia] : []),
      ...(d.akc.length > 0 ? registryUrls('akc') : []),
      ...registryUrls('kc'),
      ...registryUrls('ukc'),
      ...(d.other?.defined_by ? [d.other.defined_by] : []),
    ].filter((u) => u !== ''),
    (u) => u,
  );

  const where = originFromCodes(ctx, d.countryCodes, d.originLabel);
  const fciSection = f && fciGroup ? (ctx.groups.fci_sections[String(fciGroup.number)]?.[f.section] ?? null) : null;
  if (f?.section && fciSection === null) ctx.errors.push(`${d.id}: FCI section "${f.section}" has no number`);

  return {
    id: d.id,
    species_id: 'dog',
    name: d.name,
    alt_names: altNames,
    temperament: checkTemperament(ctx, d.id, temperament),
    life_span: lifeSpan(lRange),
    weight: weightFromKg(wRange),
    height: heightFromCm(hRange),
    origin: where.origin,
    country_code: where.country_code,
    country_codes: where.country_codes,
    breed_groups: breedGroups,
    wikipedia_url: wikipedia,
    extinct: d.kind === 'extinct',
    mixed: false,
    period: d.history?.period ?? null,
    description: d.history?.description ?? null,
    registry_ids: {
      fci: f ? f.id : null,
      fci_group: fciGroup ? fciGroup.number : null,
      fci_section: fciSection,
      fci_provisional: f ? f.provisional !== '' : null,
      akc: d.akc.length > 0,
      ems: null,
      tica: null,
      vbo: d.vboPrimary?.id ?? null,
    },
    recognition,
    venom_codes: uniqueBy(
      terms.flatMap((t) => t.venom),
      (v) => v,
    ),
    source_urls: sourceUrls,
    estimated_fields: estimated,
    one_figure_fields: measured?.one_figure ?? [],
    i18n,
  };
}
