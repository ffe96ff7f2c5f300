// A drawing in its style's content type (PORTRAIT_CONTENT_TYPES), for generators that draw every style in one
// format (the image model answers PNG): a studio PNG is re-encoded as the JPEG its record names.
import sharp from 'sharp';
import { type GeneratedImage, PORTRAIT_CONTENT_TYPES, type PortraitStyle } from '../../ports/image-generator.ts';

export async function inStyleType(drawn: GeneratedImage, style: PortraitStyle): Promise<GeneratedImage> {
  const contentType = PORTRAIT_CONTENT_TYPES[style];
  if (drawn.contentType === contentType) return drawn;
  const image = sharp(drawn.bytes);
  const bytes = await (contentType === 'image/jpeg'
    ? image.jpeg({ quality: 90, mozjpeg: true })
    : image.png()
  ).toBuffer();
  return { ...drawn, bytes, contentType };
}
