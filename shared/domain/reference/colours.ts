import type { Deps } from '../../deps.ts';
import { requireBreed } from './breeds.ts';
import { type Language, type Translations, Translator } from './i18n.ts';
import { loadReferenceSet } from './snapshot-store.ts';
import type { Species } from './species.ts';

export interface ColourVariant {
  id: string;
  species_id: Species;
  code: string;
  name: string;
  kind: 'colour' | 'pattern' | 'modifier' | 'combination';
  i18n?: Translations<{ name: string }>;
}

export interface ColourData {
  variants: ColourVariant[];
  /** Breed id → ids (or codes) of the variants the breed's standard allows. */
  breeds: Record<string, string[]>;
}

export const loadColours = (deps: Pick<Deps, 'ddb' | 'config' | 'now'>) =>
  loadReferenceSet<ColourData>(deps, 'colours');

/**
 * The colours of one breed: first those its standard names (scope `breed`), then the species-wide colours,
 * patterns and modifiers (scope `species`) that apply to every breed of the species.
 */
export function coloursOfBreed(data: ColourData, breedId: string, species: Species) {
  const byRef = new Map<string, ColourVariant>();
  for (const v of data.variants) {
    byRef.set(v.id, v);
    if (!byRef.has(v.code)) byRef.set(`${v.species_id}:${v.code}`, v);
  }
  const specific = (data.breeds[breedId] ?? [])
    .map((ref) => byRef.get(ref) ?? byRef.get(`${species}:${ref}`))
    .filter((v): v is ColourVariant => v !== undefined);
  const specificIds = new Set(specific.map((v) => v.id));
  const speciesWide = data.variants.filter(
    (v) => v.species_id === species && v.kind !== 'combination' && !specificIds.has(v.id),
  );
  return [
    ...specific.map((v) => ({ variant: v, scope: 'breed' as const })),
    ...speciesWide.map((v) => ({ variant: v, scope: 'species' as const })),
  ];
}

/**
 * A breed's colours in the caller's language: first those its standard names, then the species-wide ones (404 for an
 * unknown breed), with the translator that served them.
 */
export async function breedColours(deps: Pick<Deps, 'ddb' | 'config' | 'now'>, breedId: string, lang?: Language) {
  const [breed, colours] = await Promise.all([requireBreed(deps, breedId), loadColours(deps)]);
  const translator = new Translator(lang ?? 'en');
  return {
    colours: coloursOfBreed(colours, breed.id, breed.species_id).map((c) => presentColour(c, translator)),
    translator,
  };
}

function presentColour(
  { variant, scope }: { variant: ColourVariant; scope: 'breed' | 'species' },
  translator: Translator,
) {
  const { name } = translator.apply({ name: variant.name }, variant.i18n);
  return { id: variant.id, code: variant.code, name, kind: variant.kind, species_id: variant.species_id, scope };
}
