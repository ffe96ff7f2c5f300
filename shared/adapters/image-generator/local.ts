// Portraits drawn locally with sharp (libvips) filters, kept to the source's aspect ratio and outlines so that
// portraits of one source share its pose. Honest about what they are: the generator name says "sharp".
import sharp from 'sharp';
import {
  type GeneratedImage,
  type ImageGenerator,
  LOCAL_GENERATOR_NAME,
  type PortraitStyle,
} from '../../ports/image-generator.ts';

/** Longer edge of a portrait. */
export const PORTRAIT_EDGE = 1024;

const prepare = (source: Uint8Array) =>
  sharp(source, { limitInputPixels: 100_000_000 })
    .rotate()
    .resize({ width: PORTRAIT_EDGE, height: PORTRAIT_EDGE, fit: 'inside', withoutEnlargement: true })
    .removeAlpha();

/** Greyscale, then a colour dodge of its blurred negative: dark outlines on white, as a pencil would draw them. */
async function pencilSketch(source: Uint8Array): Promise<GeneratedImage> {
  const grey = await prepare(source).greyscale().toColourspace('b-w').png().toBuffer();
  const { width, height } = await sharp(grey).metadata();
  const blurredNegative = await sharp(grey).negate({ alpha: false }).blur(10).png().toBuffer();
  const bytes = await sharp(grey)
    .composite([{ input: blurredNegative, blend: 'colour-dodge' }])
    .greyscale()
    .normalise()
    .removeAlpha()
    .toColourspace('b-w')
    .png()
    .toBuffer();
  return { bytes, contentType: 'image/png', width: width!, height: height! };
}

/** Smoothed washes (median), a few flat colours, darkened edges and a paper grain. */
async function watercolour(source: Uint8Array): Promise<GeneratedImage> {
  const base = prepare(source);
  const { width, height } = await base
    .clone()
    .png()
    .toBuffer({ resolveWithObject: true })
    .then((r) => r.info);
  const washes = await base.clone().median(7).modulate({ saturation: 1.25 }).png().toBuffer();
  // Inverted Laplacian of the grey image: white paper, darker where colours change.
  const edges = await sharp(washes)
    .greyscale()
    .convolve({ width: 3, height: 3, kernel: [-1, -1, -1, -1, 8, -1, -1, -1, -1] })
    .negate({ alpha: false })
    .linear(1.4, -80)
    .toColourspace('srgb')
    .png()
    .toBuffer();
  const paper = await paperGrain(width, height);
  const painted = await sharp(washes)
    .composite([
      { input: edges, blend: 'multiply' },
      { input: paper, blend: 'soft-light' },
    ])
    .png()
    .toBuffer();
  // Sixteen colours, as a painter mixes few pigments (libimagequant, no dithering; PNG palettes come in 2, 4, 16 or 256).
  const bytes = await sharp(painted).png({ palette: true, colours: 16, dither: 0 }).toBuffer();
  return { bytes, contentType: 'image/png', width, height };
}

/** A deterministic paper texture (a fixed pseudo-random grain, blurred). */
async function paperGrain(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height);
  let seed = 0x2545f491;
  for (let i = 0; i < pixels.length; i++) {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    pixels[i] = 112 + ((seed >>> 0) % 32);
  }
  return sharp(pixels, { raw: { width, height, channels: 1 } })
    .blur(0.8)
    .toColourspace('srgb')
    .png()
    .toBuffer();
}

/**
 * The subject sharp at the centre of attention, the background blurred away from it, and a vignette: a studio
 * look without moving the subject (same frame, same aspect ratio).
 */
async function studio(source: Uint8Array): Promise<GeneratedImage> {
  const sharpCopy = await prepare(source).png().toBuffer({ resolveWithObject: true });
  const { width, height } = sharpCopy.info;
  const background = await sharp(sharpCopy.data)
    .blur(Math.max(4, Math.round(Math.min(width, height) / 60)))
    .png()
    .toBuffer();
  const ellipse = (stops: string) =>
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><radialGradient id="g" cx="50%" cy="50%" r="60%">${stops}</radialGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`,
    );
  // The sharp subject shows through an elliptical mask; outside it the blurred copy remains.
  const mask = await sharp(ellipse('<stop offset="55%" stop-color="#fff"/><stop offset="100%" stop-color="#000"/>'))
    .greyscale()
    .raw()
    .toBuffer();
  const subject = await sharp(sharpCopy.data)
    .joinChannel(mask, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
  const vignette = ellipse('<stop offset="60%" stop-color="#fff"/><stop offset="100%" stop-color="#555"/>');
  const bytes = await sharp(background)
    .composite([{ input: subject }, { input: vignette, blend: 'multiply' }])
    .modulate({ brightness: 1.03, saturation: 1.1 })
    .jpeg({ quality: 90, mozjpeg: true })
    .toBuffer();
  return { bytes, contentType: 'image/jpeg', width, height };
}

const STYLES: Record<PortraitStyle, (source: Uint8Array) => Promise<GeneratedImage>> = {
  pencil_sketch: pencilSketch,
  watercolour,
  studio,
};

export const sharpStylist: ImageGenerator = {
  name: LOCAL_GENERATOR_NAME,
  generate: (source, style) => STYLES[style](source),
};
