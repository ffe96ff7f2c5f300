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
import type { CatalogueImage, RenderRecipe } from './images.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, '..', '..');
const CATALOGUE_FILE = path.join(REPO_ROOT, 'data', 'images.json');
export const DEFAULT_RENDER_DIR = path.join(REPO_ROOT, '.local', 'images');

/** Bump when the drawing or encoding changes: every file is then re-rendered once. */
const RENDERER_VERSION = 'noto-render/1';
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

function loadIconSet(): Promise<IconSet> {
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

/** The SVG document drawn for one image. */
export function imageSvg(set: IconSet, width: number, height: number, render: RenderRecipe): string {
  const shorter = Math.min(width, height);
  const petSize = Math.round(shorter * render.scale);
  const pet = nestedIcon(
    resolveIcon(set, render.icon),
    'p-',
    Math.round((width - petSize) / 2),
    Math.round((height - petSize) / 2),
    petSize,
  );
  let accessory = '';
  if (render.accessory !== null) {
    const size = Math.round(shorter * ACCESSORY_SIZE);
    const margin = Math.round(shorter * ACCESSORY_MARGIN);
    accessory = nestedIcon(resolveIcon(set, render.accessory), 'a-', width - size - margin, margin, size);
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ` +
    `width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<rect width="${width}" height="${height}" fill="${render.background}"/>${pet}${accessory}</svg>`
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
  const svg = imageSvg(set, image.width, image.height, image.render);
  return sharp(Buffer.from(svg), { density: 72 })
    .flatten({ background: image.render.background })
    .jpeg({ quality: JPEG_QUALITY, chromaSubsampling: '4:2:0', mozjpeg: false })
    .withExif({
      IFD0: {
        ImageDescription: description(image),
        Artist: 'Noto Emoji artwork by Google (Apache-2.0)',
        Copyright: 'Noto Emoji (c) Google, Apache License 2.0; see data/ATTRIBUTION-images.md',
      },
    })
    .toBuffer();
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
  if (options.only !== undefined) {
    const wanted = new Set(options.only);
    images = images.filter((i) => wanted.has(i.id) || wanted.has(i.file));
  }
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
      const bytes = await renderImage(set, image);
      const tmp = `${target}.${process.pid}.tmp`;
      try {
        await writeFile(tmp, bytes);
        await rename(tmp, target);
      } catch (err) {
        await rm(tmp, { force: true });
        throw err;
      }
      rendered++;
    }
  };
  try {
    await Promise.all(Array.from({ length: inFlight }, worker));
  } finally {
    sharp.concurrency(previousConcurrency);
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
