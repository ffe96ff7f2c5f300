// Picks the labeller the configuration names; composed by the two photo processors, the only functions that bundle
// the Rekognition SDK.
import type { Config } from '../../config.ts';
import type { Labeller } from '../../ports/labeller.ts';
import { rekognitionLabeller } from './aws.ts';
import { localLabeller } from './local.ts';

/** Amazon Rekognition deployed, the local adapter (no model) under npm start. */
export const labellerFor = (config: Pick<Config, 'labelsProvider'>): Labeller =>
  config.labelsProvider === 'rekognition' ? rekognitionLabeller : localLabeller;
