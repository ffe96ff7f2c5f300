// A deterministic generator for tests of the portrait flow: a flat image of the source's size in the style's type, no
// filters.
import sharp from 'sharp';
import type { ImageGenerator } from '../../ports/image-generator.ts';
import { inStyleType } from './style-type.ts';

export const fakeImageGenerator: ImageGenerator = {
  name: 'fake',
  async generate(source, style) {
    const { width = 64, height = 64 } = await sharp(source).metadata();
    const shade = { studio: 40, watercolour: 120, pencil_sketch: 200 }[style];
    const bytes = await sharp({ create: { width, height, channels: 3, background: { r: shade, g: shade, b: shade } } })
      .png()
      .toBuffer();
    return inStyleType({ bytes, contentType: 'image/png', width, height }, style);
  },
};
