// Portraits by an Amazon Bedrock image model (Amazon Nova Canvas): text-to-image conditioned on the source photo's
// edges (CANNY_EDGE), so the pet keeps its pose and outline in every style.
import { BedrockRuntimeClient, InvokeModelCommand } from '@aws-sdk/client-bedrock-runtime';
import sharp from 'sharp';
import { GenerationRefused, type ImageGenerator, type PortraitStyle } from '../../ports/image-generator.ts';
import { traced } from '../../observability.ts';
import { inStyleType } from './style-type.ts';

export const STYLE_PROMPTS: Record<PortraitStyle, string> = {
  studio:
    'Professional studio portrait photograph of this pet, soft key light, shallow depth of field, plain dark grey backdrop, sharp fur detail',
  watercolour:
    'Watercolour painting of this pet on textured cotton paper, loose washes, soft bleeding edges, limited palette, white paper showing',
  pencil_sketch: 'Graphite pencil sketch of this pet on white paper, fine hatching, clean outlines, no colour',
};
const NEGATIVE = 'people, text, watermark, extra animals, extra limbs, deformed';

/** Nova Canvas sizes: multiples of 16 between 320 and 4,096 px, at most 4.19 megapixels; we draw at most 1,024 px. */
export function canvasSize(width: number, height: number): { width: number; height: number } {
  const scale = 1024 / Math.max(width, height);
  const snap = (v: number) => Math.min(1024, Math.max(320, Math.round((v * scale) / 16) * 16));
  return { width: snap(width), height: snap(height) };
}

export function bedrockImageGenerator(modelId: string, client = traced(new BedrockRuntimeClient({}))): ImageGenerator {
  return {
    name: `bedrock:${modelId}`,
    async generate(source, style) {
      const meta = await sharp(source).metadata();
      const size = canvasSize(meta.width ?? 1024, meta.height ?? 1024);
      const condition = await sharp(source)
        .resize({ ...size, fit: 'fill' })
        .png()
        .toBuffer();
      const response = await client
        .send(
          new InvokeModelCommand({
            modelId,
            contentType: 'application/json',
            accept: 'application/json',
            body: JSON.stringify({
              taskType: 'TEXT_IMAGE',
              textToImageParams: {
                text: STYLE_PROMPTS[style],
                negativeText: NEGATIVE,
                conditionImage: condition.toString('base64'),
                controlMode: 'CANNY_EDGE',
                controlStrength: 0.7,
              },
              imageGenerationConfig: { numberOfImages: 1, ...size, cfgScale: 6.5, seed: 7 },
            }),
          }),
        )
        .catch((error: unknown) => {
          // Content filters and malformed input fail the same way on every try.
          if ((error as { name?: string }).name === 'ValidationException')
            throw new GenerationRefused(`the image model refused the request: ${(error as Error).message}`);
          throw error;
        });
      const answer = JSON.parse(new TextDecoder().decode(response.body)) as { images?: string[]; error?: string };
      const image = answer.images?.[0];
      if (!image)
        throw new GenerationRefused(`the image model returned no image${answer.error ? `: ${answer.error}` : ''}`);
      return inStyleType({ bytes: Buffer.from(image, 'base64'), contentType: 'image/png', ...size }, style);
    },
  };
}
