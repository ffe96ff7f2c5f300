// The image-generator port: a portrait of a pet in a style, drawn over a source photo so that the pose stays.
// Adapters (shared/adapters/portraits/): an Amazon Bedrock image model deployed, sharp filters locally, a fake.

export const PORTRAIT_STYLES = ['studio', 'watercolour', 'pencil_sketch'] as const;
export type PortraitStyle = (typeof PORTRAIT_STYLES)[number];

export interface GeneratedImage {
  bytes: Buffer;
  contentType: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
}

export interface ImageGenerator {
  /** Recorded on every portrait (`generator`), so a client knows what made it. */
  readonly name: string;
  /** `source` is an upright JPEG or PNG without metadata (a photo's served copy or an earlier portrait). */
  generate(source: Uint8Array, style: PortraitStyle): Promise<GeneratedImage>;
}

/** A failure that trying again cannot fix (the model refused the image, the source is unusable). */
export class GenerationRefused extends Error {}

/** The name local portraits record: sharp filters, not a model. */
export const LOCAL_GENERATOR_NAME = 'sharp-filters';
