/**
 * Real photographs in the image catalogue (issue 27): the licence-clean photos of ../shared/data/photos, listed with
 * their author, licence and breeds in data/authored/photos.json, become `kind: "photo"` records in data/photos.json.
 * The build checks each entry (the file exists, every breed is of the photo's species, the licence is one the catalogue
 * may show with its canonical URL) and fixes each photo's served size; scripts/data/render-images.ts writes the resized,
 * metadata-free JPEGs next to the cards. Deterministic: the same inputs give byte-identical output.
 *
 * Run directly: `npx tsx scripts/data/photos.ts` (exit code 1 and every problem listed on a violation).
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { sharedDataDir } from './breeds.ts';
import { imageIdFor } from './images.ts';
import { licenceUrl } from '../../shared/domain/images/licences.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, '..', '..');
const AUTHORED_FILE = path.join(REPO_ROOT, 'data', 'authored', 'photos.json');
export const PHOTOS_FILE = path.join(REPO_ROOT, 'data', 'photos.json');
const BREEDS_FILE = path.join(REPO_ROOT, 'data', 'breeds.json');

/** When the photos joined the catalogue: after every illustration, so a newest-first page starts with them. */
export const PHOTOS_ADDED_AT = '2026-11-28T00:00:00.000Z';
/** Served size: the long side at most this, never enlarged. */
const MAX_SIDE = 1200;

interface AuthoredPhoto {
  file: string;
  species_id: 'dog' | 'cat';
  breed_ids: string[];
  author: string;
  licence: string;
  licence_url: string;
  source_url: string | null;
  note?: string;
}

export interface PhotoRecord {
  id: string;
  file: string;
  width: number;
  height: number;
  species_id: 'dog' | 'cat';
  breed_ids: string[];
  category_ids: number[];
  colour_ids: string[];
  age_months: null;
  created_at: string;
  kind: 'photo';
  attribution: { author: string; licence: string; licence_url: string; source_url: string | null };
  /** The shared file it is made from and that file's SHA-256 (the id derives from it). */
  source: { file: string; sha256: string };
}

/** The served size: the long side at most MAX_SIDE, aspect kept (EXIF orientation applied first). */
export function servedSize(width: number, height: number): { width: number; height: number } {
  const k = Math.min(1, MAX_SIDE / Math.max(width, height));
  return { width: Math.round(width * k), height: Math.round(height * k) };
}

/** An entry's problems against the breed list (id → species); empty when the entry is fine. */
export function photoProblems(p: AuthoredPhoto, speciesOf: Map<string, string>): string[] {
  const problems: string[] = [];
  if (p.species_id !== 'dog' && p.species_id !== 'cat') problems.push('species_id must be dog or cat');
  if (!p.author?.trim()) problems.push('author is required');
  const url = p.licence.startsWith('https:') ? null : licenceUrl(p.licence);
  if (!url) problems.push(`licence ${p.licence} is not an id of a licence the catalogue may show`);
  else if (p.licence_url !== url) problems.push(`licence_url must be ${url}`);
  if (p.source_url !== null && !/^https:\/\/\S+$/.test(p.source_url)) problems.push('source_url must be https or null');
  if (p.breed_ids.length > 2) problems.push('at most 2 breeds');
  for (const b of p.breed_ids)
    if (speciesOf.get(b) !== p.species_id) problems.push(`breed ${b} is not a ${p.species_id} breed`);
  return problems;
}

async function toRecord(dir: string, p: AuthoredPhoto): Promise<PhotoRecord> {
  const bytes = await readFile(path.join(dir, p.file));
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const meta = await sharp(bytes).metadata();
  const turned = (meta.orientation ?? 1) >= 5;
  const size = servedSize(
    turned ? (meta.height ?? 0) : (meta.width ?? 0),
    turned ? (meta.width ?? 0) : (meta.height ?? 0),
  );
  const id = imageIdFor(`pet-api/catalogue-photo/v1/${sha256}`);
  return {
    id,
    file: `catalogue/${id}.jpg`,
    ...size,
    species_id: p.species_id,
    breed_ids: [...p.breed_ids],
    category_ids: [],
    colour_ids: [],
    age_months: null,
    created_at: PHOTOS_ADDED_AT,
    kind: 'photo',
    attribution: { author: p.author, licence: p.licence, licence_url: p.licence_url, source_url: p.source_url },
    source: { file: p.file, sha256 },
  };
}

/** Validates the authored list and writes data/photos.json; throws with every problem when one is found. */
export async function buildPhotos(): Promise<PhotoRecord[]> {
  const authored = (JSON.parse(await readFile(AUTHORED_FILE, 'utf8')) as { photos: AuthoredPhoto[] }).photos;
  const breeds = JSON.parse(await readFile(BREEDS_FILE, 'utf8')) as { id: string; species_id: string }[];
  const speciesOf = new Map(breeds.map((b) => [b.id, b.species_id]));
  const dir = path.join(sharedDataDir(), 'photos');
  const errors = authored.flatMap((p) => photoProblems(p, speciesOf).map((e) => `${p.file}: ${e}`));
  const records: PhotoRecord[] = [];
  for (const p of authored) {
    try {
      records.push(await toRecord(dir, p));
    } catch (err) {
      errors.push(`${p.file}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const ids = new Set(records.map((r) => r.id));
  if (ids.size !== records.length) errors.push('two photos have the same bytes');
  if (errors.length > 0) throw new Error(`photos: ${errors.length} problem(s)\n  - ${errors.join('\n  - ')}`);
  records.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  await writeFile(PHOTOS_FILE, `${JSON.stringify(records, null, 2)}\n`, 'utf8');
  return records;
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (invokedDirectly) {
  buildPhotos()
    .then((r) => console.log(`photos: wrote ${r.length} photos to data/photos.json`))
    .catch((err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exitCode = 1;
    });
}
