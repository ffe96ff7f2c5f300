import type { Config } from '../../config.ts';
import type { ImageGenerator } from '../../ports/image-generator.ts';
import { bedrockImageGenerator } from './aws.ts';
import { sharpStylist } from './local.ts';

/** Bedrock where an image model is configured (deployed), sharp filters otherwise (local mode). */
export const imageGeneratorFor = (config: Pick<Config, 'portraitModelId'>): ImageGenerator =>
  config.portraitModelId ? bedrockImageGenerator(config.portraitModelId) : sharpStylist;
