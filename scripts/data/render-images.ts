/**
 * Renders the reference image catalogue (`data/images.json`) to JPEG files.
 *
 * Each image is one SVG document rasterised by sharp (librsvg) and encoded by sharp (mozjpeg library,
 * baseline encoder settings): a `width`×`height` canvas in the recipe's background colour, the Noto emoji pet
 * (`render.icon`) centred at `render.scale` of the shorter side, and the accessory emoji (`render.accessory`)
 * overlaid top-right. Icon artwork comes from `@iconify-json/noto` (Noto Emoji, Apache-2.0, Google); see
 * data/ATTRIBUTION-images.md.
 *
 * Output: `<outDir>/<file>` for every record (`file` is e.g. `catalogue/<id>.jpg`). A file that already exists
 * with the expected pixel size and the same render stamp (a hash of the recipe, stored in the JPEG's EXIF
 * ImageDescription) is skipped, so re-runs only render what is new or changed. Rendering is deterministic:
 * the same recipe gives the same bytes with the same sharp/libvips build.
 *
 * The catalogue's real photos (`data/photos.json`) are written to the same folder: resized from the shared files,
 * without metadata (see renderPhoto), and skipped when a metadata-free JPEG of the right size is there.
 *
 * Run directly: `npx tsx scripts/data/render-images.ts [outDir] [--only id1,id2]` (default outDir `.local/images`
 * under the repository).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { CatalogueImage, CoatRecipe } from './images.ts';
import { sharedDataDir } from './breeds.ts';
import { PHOTOS_FILE, type PhotoRecord } from './photos.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, '..', '..');
const CATALOGUE_FILE = path.join(REPO_ROOT, 'data', 'images.json');
export const DEFAULT_RENDER_DIR = path.join(REPO_ROOT, '.local', 'images');

/** Bump when the drawing or encoding changes: every file is then re-rendered once. */
const RENDERER_VERSION = 'coat-card/3';
const JPEG_QUALITY = 80;
/** Accessory size and margin as shares of the shorter side. */
const ACCESSORY_SIZE = 0.28;
const ACCESSORY_MARGIN = 0.04;

interface IconSet {
  icons: Record<string, { body: string; width?: number; height?: number; hidden?: boolean }>;
  aliases?: Record<string, { parent: string }>;
  width?: number;
  height?: number;
}

let iconSetPromise: Promise<IconSet> | undefined;

export function loadIconSet(): Promise<IconSet> {
  iconSetPromise ??= (async () => {
    const require = createRequire(import.meta.url);
    const file = require.resolve('@iconify-json/noto/icons.json');
    return JSON.parse(await readFile(file, 'utf8')) as IconSet;
  })();
  return iconSetPromise;
}

interface Icon {
  body: string;
  width: number;
  height: number;
}

function resolveIcon(set: IconSet, name: string): Icon {
  let key = name;
  for (let depth = 0; depth < 5 && set.icons[key] === undefined; depth++) {
    const parent = set.aliases?.[key]?.parent;
    if (parent === undefined) break;
    key = parent;
  }
  const icon = set.icons[key];
  if (icon === undefined) throw new Error(`unknown Noto icon "${name}"`);
  return { body: icon.body, width: icon.width ?? set.width ?? 16, height: icon.height ?? set.height ?? 16 };
}

/** Prefixes every id (and reference to it) so that two icons in one document cannot clash. */
function namespaceIds(body: string, prefix: string): string {
  return body
    .replace(/\bid="([^"]+)"/g, `id="${prefix}$1"`)
    .replace(/url\(#([^)]+)\)/g, `url(#${prefix}$1)`)
    .replace(/href="#([^"]+)"/g, `href="#${prefix}$1"`);
}

function nestedIcon(icon: Icon, prefix: string, x: number, y: number, size: number): string {
  return (
    `<svg x="${x}" y="${y}" width="${size}" height="${size}" viewBox="0 0 ${icon.width} ${icon.height}">` +
    `${namespaceIds(icon.body, prefix)}</svg>`
  );
}

/** The animal's drawing space; the silhouettes below are drawn in these units. */
const ART_W = 200;
const ART_H = 150;
/** Share of the card's height kept for the caption band at the bottom. */
const CAPTION_SHARE = 0.2;
const OUTLINE = '#3b3630';
const UNTAGGED_COAT: CoatRecipe = { base: '#b9b4ac', accent: '#8f8a82', pattern: 'solid', white: 'none' };

interface Silhouette {
  /** Body parts painted in the body colour (SVG elements without fill). */
  parts: string[];
  /** Tail as a stroked path. */
  tail: string;
  /** Where the colour "points" go: ears, face, lower legs, tail tip. */
  points: string[];
  /** White markings: chest, feet, blaze. */
  markings: string[];
  /** What a van pattern paints white: body and legs (head and tail keep the colour). */
  van: string[];
  /** Eye and nose, drawn on top. */
  face: string;
  /** The centre of the body, always painted in the body colour: the box a colour check samples. */
  torso: { x: number; y: number; w: number; h: number };
}

const DOG: Silhouette = {
  parts: [
    '<ellipse cx="95" cy="80" rx="55" ry="27"/>',
    '<circle cx="150" cy="50" r="21"/>',
    '<ellipse cx="170" cy="58" rx="15" ry="9"/>',
    '<rect x="54" y="92" width="13" height="46" rx="6"/>',
    '<rect x="74" y="94" width="13" height="44" rx="6"/>',
    '<rect x="115" y="92" width="13" height="46" rx="6"/>',
    '<rect x="133" y="88" width="13" height="50" rx="6"/>',
    '<path d="M128 62 L150 36 L160 70 Z"/>',
  ],
  tail: 'M44 70 Q18 52 24 32',
  points: [
    '<ellipse cx="139" cy="42" rx="8" ry="15" transform="rotate(20 139 42)"/>',
    '<ellipse cx="172" cy="60" rx="13" ry="8"/>',
    '<rect x="54" y="120" width="13" height="18"/>',
    '<rect x="74" y="120" width="13" height="18"/>',
    '<rect x="115" y="120" width="13" height="18"/>',
    '<rect x="133" y="120" width="13" height="18"/>',
  ],
  markings: [
    '<ellipse cx="143" cy="82" rx="10" ry="14"/>',
    '<rect x="54" y="128" width="13" height="10"/>',
    '<rect x="133" y="128" width="13" height="10"/>',
    '<ellipse cx="163" cy="47" rx="3" ry="9" transform="rotate(60 163 47)"/>',
  ],
  van: [
    '<ellipse cx="95" cy="80" rx="55" ry="27"/>',
    '<rect x="54" y="92" width="13" height="46" rx="6"/>',
    '<rect x="74" y="94" width="13" height="44" rx="6"/>',
    '<rect x="115" y="92" width="13" height="46" rx="6"/>',
    '<rect x="133" y="88" width="13" height="50" rx="6"/>',
  ],
  face: '<circle cx="155" cy="44" r="3" fill="#1d1b19"/><circle cx="184" cy="56" r="4" fill="#1d1b19"/>',
  torso: { x: 72, y: 68, w: 40, h: 22 },
};

const CAT: Silhouette = {
  parts: [
    '<ellipse cx="90" cy="90" rx="50" ry="23"/>',
    '<circle cx="147" cy="62" r="21"/>',
    '<path d="M129 52 L134 22 L148 42 Z"/>',
    '<path d="M149 42 L163 22 L166 52 Z"/>',
    '<rect x="55" y="100" width="11" height="38" rx="5"/>',
    '<rect x="72" y="102" width="11" height="36" rx="5"/>',
    '<rect x="106" y="102" width="11" height="36" rx="5"/>',
    '<rect x="121" y="98" width="11" height="40" rx="5"/>',
  ],
  tail: 'M42 86 Q8 74 26 40',
  points: [
    '<path d="M129 52 L134 22 L148 42 Z"/>',
    '<path d="M149 42 L163 22 L166 52 Z"/>',
    '<ellipse cx="150" cy="72" rx="13" ry="9"/>',
    '<rect x="55" y="122" width="11" height="16"/>',
    '<rect x="72" y="122" width="11" height="16"/>',
    '<rect x="106" y="122" width="11" height="16"/>',
    '<rect x="121" y="122" width="11" height="16"/>',
  ],
  markings: [
    '<ellipse cx="132" cy="92" rx="10" ry="12"/>',
    '<rect x="55" y="130" width="11" height="8"/>',
    '<rect x="121" y="130" width="11" height="8"/>',
    '<ellipse cx="147" cy="74" rx="7" ry="6"/>',
  ],
  van: [
    '<ellipse cx="90" cy="90" rx="50" ry="23"/>',
    '<rect x="55" y="100" width="11" height="38" rx="5"/>',
    '<rect x="72" y="102" width="11" height="36" rx="5"/>',
    '<rect x="106" y="102" width="11" height="36" rx="5"/>',
    '<rect x="121" y="98" width="11" height="40" rx="5"/>',
  ],
  face:
    '<circle cx="140" cy="58" r="2.6" fill="#2f4f2f"/><circle cx="155" cy="58" r="2.6" fill="#2f4f2f"/>' +
    '<circle cx="148" cy="68" r="2" fill="#5b3a3a"/>',
  torso: { x: 68, y: 80, w: 40, h: 18 },
};

const silhouetteOf = (species: CatalogueImage['species_id']): Silhouette => (species === 'dog' ? DOG : CAT);

/** Fixed scatter for spots and patches (art units), so a pattern never depends on randomness at render time. */
const SCATTER: [number, number][] = [
  [52, 74],
  [66, 90],
  [78, 66],
  [88, 100],
  [100, 78],
  [112, 92],
  [124, 70],
  [136, 96],
  [60, 104],
  [96, 62],
  [118, 108],
  [84, 84],
  [140, 60],
  [150, 44],
  [70, 120],
  [128, 124],
  [46, 88],
  [106, 70],
];

/** Stripes, spots, points and white markings painted over the body colour, clipped to the animal's outline. */
function patternLayer(art: Silhouette, coat: CoatRecipe): string {
  const a = coat.accent;
  switch (coat.pattern) {
    case 'stripes':
    case 'brindle': {
      const step = coat.pattern === 'brindle' ? 7 : 11;
      const width = coat.pattern === 'brindle' ? 2 : 3;
      let d = '';
      for (let x = 44; x <= 176; x += step) d += `M${x} 28 q6 55 -2 112 `;
      return `<path d="${d}" stroke="${a}" stroke-width="${width}" fill="none"/>`;
    }
    case 'spots':
    case 'ticked':
    case 'patches':
    case 'tortie': {
      const r = { spots: 3.2, ticked: 1.2, patches: 7, tortie: 8 }[coat.pattern];
      const pts: [number, number][] =
        coat.pattern === 'ticked'
          ? SCATTER.flatMap(([x, y]): [number, number][] => [
              [x, y],
              [x + 5, y + 4],
            ])
          : SCATTER;
      // keep the sampled torso mostly the body colour: no mark reaches into its centre (large tortie patches
      // centred just outside it covered most of a small cat's torso)
      const t = art.torso;
      return pts
        .filter(([x, y]) => !(x > t.x + 6 - r && x < t.x + t.w - 6 + r && y > t.y + 4 - r && y < t.y + t.h - 4 + r))
        .map(([x, y]) => `<circle cx="${x}" cy="${y}" r="${r}" fill="${a}"/>`)
        .join('');
    }
    case 'points':
    case 'tan-points':
      return `<g fill="${a}">${art.points.join('')}</g>`;
    case 'saddle':
      return `<ellipse cx="92" cy="66" rx="34" ry="10" fill="${a}"/>`;
    case 'mask':
      return `<g fill="${a}">${art.points.slice(1, 2).join('')}</g>`;
    default:
      return '';
  }
}

function whiteLayer(art: Silhouette, coat: CoatRecipe): string {
  const white = '#f7f5f0';
  if (coat.white === 'markings') return `<g fill="${white}">${art.markings.join('')}</g>`;
  // van: white body with coloured head and tail; mostly white: white with the coat colour in patches
  if (coat.white === 'van') return `<g fill="${white}">${art.van.join('')}</g>`;
  if (coat.white === 'mostly')
    return (
      `<g fill="${white}">${art.parts.join('')}</g>` +
      SCATTER.filter((_, i) => i % 3 === 0)
        .map(([x, y]) => `<circle cx="${x}" cy="${y}" r="8" fill="${coat.base}"/>`)
        .join('')
    );
  return '';
}

const escapeXml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Where the animal sits on a card of this size: its top-left corner and the scale from art units to pixels. */
export function artPlacement(width: number, height: number, scale: number): { x: number; y: number; k: number } {
  const areaH = height * (1 - CAPTION_SHARE);
  const k = (Math.min(width / ART_W, areaH / ART_H) * scale) / 0.8;
  return { x: (width - ART_W * k) / 2, y: (areaH - ART_H * k) / 2, k };
}

/** The pixel box, on the rendered card, that shows the body colour (what a colour check samples). */
export function torsoBox(image: CatalogueImage): { left: number; top: number; width: number; height: number } {
  const { x, y, k } = artPlacement(image.width, image.height, image.render.scale);
  const t = silhouetteOf(image.species_id).torso;
  return {
    left: Math.round(x + t.x * k),
    top: Math.round(y + t.y * k),
    width: Math.round(t.w * k),
    height: Math.round(t.h * k),
  };
}

/**
 * The SVG document drawn for one image: a card in the recipe's background colour with the dog or cat silhouette
 * painted in the tagged coat colour and pattern (grey when no colour is tagged), the accessory prop top-right,
 * and a caption band naming the breed and colour and saying the picture is an illustration.
 */
export function imageSvg(set: IconSet, image: CatalogueImage): string {
  const { width, height, render } = image;
  const art = silhouetteOf(image.species_id);
  const coat = render.coat ?? UNTAGGED_COAT;
  const { x, y, k } = artPlacement(width, height, render.scale);
  const body = art.parts.join('');
  const stroke = Math.max(1, 1.6 / k);
  const animal =
    `<g transform="translate(${x.toFixed(2)} ${y.toFixed(2)}) scale(${k.toFixed(4)})">` +
    `<defs><clipPath id="body">${body}</clipPath></defs>` +
    `<path d="${art.tail}" stroke="${OUTLINE}" stroke-width="${9 + 2 * stroke}" fill="none" stroke-linecap="round"/>` +
    `<path d="${art.tail}" stroke="${coat.pattern === 'points' ? coat.accent : coat.base}" stroke-width="9" fill="none" stroke-linecap="round"/>` +
    `<g fill="${coat.base}" stroke="${OUTLINE}" stroke-width="${stroke.toFixed(2)}">${body}</g>` +
    `<g clip-path="url(#body)">${whiteLayer(art, coat)}${patternLayer(art, coat)}</g>` +
    `${art.face}</g>`;
  let accessory = '';
  if (render.accessory !== null) {
    const shorter = Math.min(width, height);
    const size = Math.round(shorter * ACCESSORY_SIZE);
    const margin = Math.round(shorter * ACCESSORY_MARGIN);
    accessory = nestedIcon(resolveIcon(set, render.accessory), 'a-', width - size - margin, margin, size);
  }
  const bandTop = Math.round(height * (1 - CAPTION_SHARE));
  const bandH = height - bandTop;
  const titleSize = Math.max(12, Math.round(Math.min(bandH * 0.36, (width * 1.6) / Math.max(12, render.title.length))));
  const subSize = Math.max(
    10,
    Math.round(Math.min(bandH * 0.24, (width * 1.7) / Math.max(16, render.subtitle.length))),
  );
  const caption =
    `<rect y="${bandTop}" width="${width}" height="${bandH}" fill="#fbfaf7"/>` +
    `<rect y="${bandTop}" width="${width}" height="2" fill="#d8d3ca"/>` +
    `<text x="${width / 2}" y="${bandTop + bandH * 0.45}" text-anchor="middle" font-family="DejaVu Sans" ` +
    `font-weight="bold" font-size="${titleSize}" fill="#2b2825">${escapeXml(render.title)}</text>` +
    `<text x="${width / 2}" y="${bandTop + bandH * 0.8}" text-anchor="middle" font-family="DejaVu Sans" ` +
    `font-size="${subSize}" fill="#5c5750">${escapeXml(render.subtitle)}</text>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ` +
    `width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<rect width="${width}" height="${height}" fill="${render.background}"/>${animal}${accessory}${caption}</svg>`
  );
}

/** Hash of everything that determines the pixels; stored in the JPEG so stale files are re-rendered. */
function renderStamp(image: CatalogueImage): string {
  const input = JSON.stringify([RENDERER_VERSION, JPEG_QUALITY, image.width, image.height, image.render]);
  return createHash('sha256').update(input).digest('hex').slice(0, 16);
}

function description(image: CatalogueImage): string {
  return `pet-api catalogue ${image.id} ${RENDERER_VERSION} stamp:${renderStamp(image)}`;
}

async function isUpToDate(file: string, image: CatalogueImage): Promise<boolean> {
  try {
    const meta = await sharp(file).metadata();
    if (meta.format !== 'jpeg' || meta.width !== image.width || meta.height !== image.height) return false;
    return meta.exif?.includes(`stamp:${renderStamp(image)}`) ?? false;
  } catch {
    return false;
  }
}

export async function renderImage(set: IconSet, image: CatalogueImage): Promise<Buffer> {
  const svg = imageSvg(set, image);
  return sharp(Buffer.from(svg), { density: 72 })
    .flatten({ background: image.render.background })
    .jpeg({ quality: JPEG_QUALITY, chromaSubsampling: '4:2:0', mozjpeg: false })
    .withExif({
      IFD0: {
        ImageDescription: description(image),
        Artist:
          'Illustration generated by pet-api from its catalogue tags; prop icons Noto Emoji by Google (Apache-2.0)',
        Copyright: 'Prop icons: Noto Emoji (c) Google, Apache License 2.0; see data/ATTRIBUTION-images.md',
      },
    })
    .toBuffer();
}

/** JPEG quality of the resized photos (higher than the cards': photos have detail the flat cards lack). */
const PHOTO_QUALITY = 85;

/**
 * A catalogue photo as served: turned upright by its EXIF orientation, resized to its record's size and written as a
 * JPEG without any metadata (sharp keeps none unless asked: no EXIF, no GPS, no camera data).
 */
export function renderPhoto(photo: PhotoRecord, photosDir = path.join(sharedDataDir(), 'photos')): Promise<Buffer> {
  return sharp(path.join(photosDir, photo.source.file))
    .rotate()
    .resize(photo.width, photo.height, { fit: 'fill' })
    .jpeg({ quality: PHOTO_QUALITY, chromaSubsampling: '4:2:0', mozjpeg: false })
    .toBuffer();
}

async function isPhotoUpToDate(file: string, photo: PhotoRecord): Promise<boolean> {
  try {
    const meta = await sharp(file).metadata();
    return meta.format === 'jpeg' && meta.width === photo.width && meta.height === photo.height && !meta.exif;
  } catch {
    return false;
  }
}

/** Writes `bytes` to `target` through a temporary file, so a reader never sees half a JPEG. */
async function writeAtomically(target: string, bytes: Buffer): Promise<void> {
  const tmp = `${target}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, bytes);
    await rename(tmp, target);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

async function readCatalogue(): Promise<CatalogueImage[]> {
  return JSON.parse(await readFile(CATALOGUE_FILE, 'utf8')) as CatalogueImage[];
}

/**
 * Renders every catalogue image (or only the ids/files in `options.only`) into `outDir`.
 * Returns how many files were written and how many were already up to date.
 */
export async function renderImages(
  outDir: string,
  options: { only?: string[] } = {},
): Promise<{ rendered: number; skipped: number }> {
  const set = await loadIconSet();
  let images = await readCatalogue();
  const wanted = options.only !== undefined ? new Set(options.only) : undefined;
  if (wanted) images = images.filter((i) => wanted.has(i.id) || wanted.has(i.file));
  const dirs = new Set(images.map((i) => path.dirname(path.join(outDir, i.file))));
  for (const dir of dirs) await mkdir(dir, { recursive: true });

  // librsvg rasterisation is single-threaded, so several images in flight with one libvips thread each keep
  // every core busy; the in-flight count stays within libuv's default thread pool of 4.
  const previousConcurrency = sharp.concurrency();
  sharp.concurrency(1);
  const inFlight = Math.max(2, Math.min(4, availableParallelism() * 2));
  let rendered = 0;
  let skipped = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < images.length) {
      const image = images[next++] as CatalogueImage;
      const target = path.join(outDir, image.file);
      if (await isUpToDate(target, image)) {
        skipped++;
        continue;
      }
      await writeAtomically(target, await renderImage(set, image));
      rendered++;
    }
  };
  try {
    await Promise.all(Array.from({ length: inFlight }, worker));
  } finally {
    sharp.concurrency(previousConcurrency);
  }
  let photos = JSON.parse(await readFile(PHOTOS_FILE, 'utf8')) as PhotoRecord[];
  if (wanted) photos = photos.filter((p) => wanted.has(p.id) || wanted.has(p.file));
  for (const photo of photos) {
    const target = path.join(outDir, photo.file);
    await mkdir(path.dirname(target), { recursive: true });
    if (await isPhotoUpToDate(target, photo)) skipped++;
    else {
      await writeAtomically(target, await renderPhoto(photo));
      rendered++;
    }
  }
  return { rendered, skipped };
}

const invokedDirectly =
  process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  const args = process.argv.slice(2);
  const onlyAt = args.indexOf('--only');
  const only = onlyAt >= 0 ? (args[onlyAt + 1] ?? '').split(',').filter((s) => s !== '') : undefined;
  const positional = args.filter((_, i) => onlyAt < 0 || (i !== onlyAt && i !== onlyAt + 1));
  const outDir = positional[0] !== undefined ? path.resolve(positional[0]) : DEFAULT_RENDER_DIR;
  const started = performance.now();
  renderImages(outDir, only !== undefined ? { only } : {})
    .then(({ rendered, skipped }) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(
        `render-images: ${rendered} rendered, ${skipped} up to date, in ${seconds} s -> ${path.relative(process.cwd(), outDir) || '.'}`,
      );
    })
    .catch((err: unknown) => {
      console.error(err instanceof Error ? err.message : String(err));
      process.exit(1);
    });
}
