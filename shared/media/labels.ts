import { DetectLabelsCommand, RekognitionClient } from '@aws-sdk/client-rekognition';
import type { Config } from '../config.ts';

export interface ImageLabel {
  name: string;
  /** 0..1 */
  confidence: number;
}

export interface LabelResult {
  labels: ImageLabel[];
  source: string;
}

export type Labeller = (bucket: string, key: string) => Promise<LabelResult>;

const MIN_CONFIDENCE = 70;
const MAX_LABELS = 15;

let rekognition: RekognitionClient | undefined;

/** Amazon Rekognition reads the object straight from S3 (no bytes through Lambda). */
const rekognitionLabeller: Labeller = async (bucket, key) => {
  rekognition ??= new RekognitionClient({});
  const { Labels = [] } = await rekognition.send(
    new DetectLabelsCommand({
      Image: { S3Object: { Bucket: bucket, Name: key } },
      MaxLabels: MAX_LABELS,
      MinConfidence: MIN_CONFIDENCE,
    }),
  );
  return {
    labels: Labels.map((l) => ({ name: l.Name ?? '', confidence: Math.round(l.Confidence ?? 0) / 100 })),
    source: 'rekognition',
  };
};

/** Local mode has no labelling model yet: the result says so instead of pretending. */
const noLabeller: Labeller = async () => ({ labels: [], source: 'none: no labelling model runs in local mode' });

export const labellerFor = (config: Pick<Config, 'labelsProvider'>): Labeller =>
  config.labelsProvider === 'rekognition' ? rekognitionLabeller : noLabeller;
