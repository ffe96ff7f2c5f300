import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { sharpStylist } from '../../../shared/adapters/image-generator/local.ts';
import { PORTRAIT_CONTENT_TYPES, PORTRAIT_STYLES } from '../../../shared/ports/image-generator.ts';
import { aSourcePhoto } from '../../support/factories/pets.ts';

async function pixels(bytes: Buffer, size?: number) {
  const image = sharp(bytes).removeAlpha().toColourspace('srgb');
  const sized = size ? image.resize(size, size, { fit: 'fill' }) : image;
  return sized.raw().toBuffer({ resolveWithObject: true });
}

const distinctColours = async (bytes: Buffer) => {
  const { data } = await pixels(bytes);
  const colours = new Set<number>();
  for (let i = 0; i + 2 < data.length; i += 3) colours.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
  return colours.size;
};

/** Gradient magnitude of the grey image at 96×96: where the outlines are. */
async function edgeMap(bytes: Buffer): Promise<number[]> {
  const { data } = await sharp(bytes)
    .greyscale()
    .resize(96, 96, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => data[y * 96 + x]!;
  const edges: number[] = [];
  for (let y = 1; y < 95; y++)
    for (let x = 1; x < 95; x++) edges.push(Math.hypot(at(x + 1, y) - at(x - 1, y), at(x, y + 1) - at(x, y - 1)));
  return edges;
}

function correlation(a: number[], b: number[]): number {
  const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
  const [ma, mb] = [mean(a), mean(b)];
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < a.length; i++) {
    num += (a[i]! - ma) * (b[i]! - mb);
    da += (a[i]! - ma) ** 2;
    db += (b[i]! - mb) ** 2;
  }
  return num / Math.sqrt(da * db);
}

describe('portraits drawn with sharp filters', () => {
  it('pencil_sketch is grayscale: every pixel has equal red, green and blue', async () => {
    const source = await aSourcePhoto();
    const sketch = await sharpStylist.generate(source, 'pencil_sketch');
    const { data, info } = await pixels(sketch.bytes);
    let coloured = 0;
    for (let i = 0; i + 2 < data.length; i += 3) if (data[i] !== data[i + 1] || data[i + 1] !== data[i + 2]) coloured++;
    expect(info.channels).toBe(3);
    expect(coloured).toBe(0);
    // Mostly paper: a sketch is light.
    const stats = await sharp(sketch.bytes).stats();
    expect(stats.channels[0]!.mean).toBeGreaterThan(170);
  });

  it('watercolour has far fewer distinct colours than its source', async () => {
    const source = await aSourcePhoto();
    const painting = await sharpStylist.generate(source, 'watercolour');
    const [before, after] = [await distinctColours(source), await distinctColours(painting.bytes)];
    expect(after).toBeLessThanOrEqual(16);
    expect(before).toBeGreaterThan(after * 20);
  });

  it.each(['studio', 'watercolour', 'pencil_sketch'] as const)(
    '%s keeps the pose: same aspect ratio and an edge map correlated with the source',
    async (style) => {
      const source = await aSourcePhoto(480, 360);
      const portrait = await sharpStylist.generate(source, style);
      const meta = await sharp(portrait.bytes).metadata();

      expect([portrait.width, portrait.height]).toEqual([meta.width, meta.height]);
      expect(meta.width! / meta.height!).toBeCloseTo(480 / 360, 2);
      expect(correlation(await edgeMap(source), await edgeMap(portrait.bytes))).toBeGreaterThan(0.5);
      expect(sharpStylist.name).toBe('sharp-filters');
    },
  );

  it('studio keeps the subject sharp and blurs and darkens the frame edges', async () => {
    const source = await aSourcePhoto(480, 360);
    const studio = await sharpStylist.generate(source, 'studio');
    const corner = async (bytes: Buffer) =>
      (await sharp(bytes).extract({ left: 0, top: 0, width: 60, height: 45 }).stats()).channels[0]!.mean;
    expect(await corner(studio.bytes)).toBeLessThan(await corner(source));
  });

  it.each(PORTRAIT_STYLES)('draws %s in the content type its record names', async (style) => {
    const drawn = await sharpStylist.generate(await aSourcePhoto(120, 90), style);
    const format = (await sharp(drawn.bytes).metadata()).format;
    expect([drawn.contentType, `image/${format}`]).toEqual([
      PORTRAIT_CONTENT_TYPES[style],
      PORTRAIT_CONTENT_TYPES[style],
    ]);
  });

  it('draws at most 1024 px on the longer side and never enlarges', async () => {
    const big = await sharpStylist.generate(await aSourcePhoto(2000, 1000), 'pencil_sketch');
    const small = await sharpStylist.generate(await aSourcePhoto(300, 200), 'pencil_sketch');
    expect([big.width, big.height]).toEqual([1024, 512]);
    expect([small.width, small.height]).toEqual([300, 200]);
  });
});
