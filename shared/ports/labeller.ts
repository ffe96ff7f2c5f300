// Port: labels for a stored photo. Adapters: shared/adapters/rekognition-labeller.ts (deployed),
// shared/adapters/local-labeller.ts (npm start: says that no model runs) and fakeLabeller (tests).

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
