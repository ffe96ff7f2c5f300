// The catalogue's pictures show what their tags say: a sample of rendered images is decoded and the body colour
// of the drawn animal is compared with the tagged coat colour; every card names its breed and says it is an
// illustration.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import images from '../../../data/images.json' with { type: 'json' };
import type { CatalogueImage } from '../../../scripts/data/images.ts';
import { imageSvg, loadIconSet, renderImage, torsoBox } from '../../../scripts/data/render-images.ts';

const catalogue = images as unknown as CatalogueImage[];
const hexRgb = (hex: string): [number, number, number] => {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
};

/** The most common colour in a region (5-bit buckets per channel), as the mean of that bucket's pixels. */
async function dominantColour(jpeg: Buffer, box: ReturnType<typeof torsoBox>): Promise<[number, number, number]> {
  const { data } = await sharp(jpeg).extract(box).raw().toBuffer({ resolveWithObject: true });
  const buckets = new Map<number, { n: number; r: number; g: number; b: number }>();
  for (let i = 0; i + 2 < data.length; i += 3) {
    const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
    const key = ((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3);
    const bucket = buckets.get(key) ?? { n: 0, r: 0, g: 0, b: 0 };
    bucket.n++;
    bucket.r += r;
    bucket.g += g;
    bucket.b += b;
    buckets.set(key, bucket);
  }
  const top = [...buckets.values()].sort((a, b) => b.n - a.n)[0]!;
  return [top.r / top.n, top.g / top.n, top.b / top.n];
}

describe('catalogue illustrations', () => {
  // every 50th image that has a coat tag whose body is painted in the coat colour (not mostly white)
  const sample = catalogue
    .filter((img) => img.render.coat !== null && img.render.coat.white !== 'mostly' && img.render.coat.white !== 'van')
    .filter((_, i) => i % 50 === 0);

  it('samples a spread of dogs and cats, solid and patterned', () => {
    expect(sample.length).toBeGreaterThanOrEqual(20);
    expect(new Set(sample.map((i) => i.species_id)).size).toBe(2);
    expect(new Set(sample.map((i) => i.render.coat!.pattern)).size).toBeGreaterThanOrEqual(4);
  });

  it("paints the animal's body in the tagged coat colour", async () => {
    const set = await loadIconSet();
    const misses: string[] = [];
    for (const image of sample) {
      const jpeg = await renderImage(set, image);
      const [r, g, b] = await dominantColour(jpeg, torsoBox(image));
      const [er, eg, eb] = hexRgb(image.render.coat!.base);
      const distance = Math.hypot(r - er, g - eg, b - eb);
      if (distance > 24) misses.push(`${image.id} ${image.render.subtitle}: ${distance.toFixed(1)}`);
    }
    expect(misses).toEqual([]);
  }, 60_000);

  it('names the breed and colour on every card and calls it an illustration', async () => {
    const set = await loadIconSet();
    for (const image of catalogue.slice(0, 40)) {
      const svg = imageSvg(set, image);
      expect(image.render.subtitle).toMatch(/Illustration$/);
      expect(svg).toContain(`>${image.render.title.replace(/&/g, '&amp;')}</text>`);
      expect(svg).toContain('Illustration</text>');
    }
    const tagged = catalogue.filter((i) => i.breed_ids.length > 0);
    expect(tagged.every((i) => !i.render.title.includes('not tagged'))).toBe(true);
  });
});
