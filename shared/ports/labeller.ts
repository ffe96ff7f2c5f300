// Port: labels for a stored photo. Adapters (shared/adapters/labeller/): Amazon Rekognition deployed (aws.ts),
// local.ts under npm start (says that no model runs), fake.ts for tests; index.ts picks one from the configuration.

export interface ImageLabel {
  name: string;
  /** 0..1 */
  confidence: number;
}

export interface LabelResult {
  labels: ImageLabel[];
  /** Which model produced the labels (shown to integrators as `label_source`). */
  source: string;
}

export type Labeller = (bucket: string, key: string) => Promise<LabelResult>;
