// The image-generator port: a portrait of a pet in a style, drawn over a source photo so that the pose stays.
// Adapters (shared/adapters/image-generator/): an Amazon Bedrock image model deployed (aws.ts), sharp filters under
// npm start (local.ts), fake.ts for tests; index.ts picks one from the configuration.

export const PORTRAIT_STYLES = ['studio', 'watercolour', 'pencil_sketch'] as const;
export type PortraitStyle = (typeof PORTRAIT_STYLES)[number];

export type PortraitContentType = 'image/png' | 'image/jpeg';

/**
 * The type a portrait of each style is served as, whatever draws it, so its record names it from the request on: a
 * studio portrait is photographic (JPEG, a tenth of the PNG), washes and pencil lines keep sharp edges in PNG.
 */
export const PORTRAIT_CONTENT_TYPES: Record<PortraitStyle, PortraitContentType> = {
  studio: 'image/jpeg',
  watercolour: 'image/png',
  pencil_sketch: 'image/png',
};

export interface GeneratedImage {
  bytes: Buffer;
  contentType: PortraitContentType;
  width: number;
  height: number;
}

export interface ImageGenerator {
  /** Recorded on every portrait (`generator`), so a client knows what made it. */
  readonly name: string;
  /**
   * `source` is an upright JPEG or PNG without metadata (a photo's served copy or an earlier portrait); the answer is
   * of the style's type (PORTRAIT_CONTENT_TYPES).
   */
  generate(source: Uint8Array, style: PortraitStyle): Promise<GeneratedImage>;
}

/** A failure that trying again cannot fix (the model refused the image, the source is unusable). */
export class GenerationRefused extends Error {}

/** The name local portraits record: sharp filters, not a model. */
export const LOCAL_GENERATOR_NAME = 'sharp-filters';
