// Labeller adapter for Amazon Rekognition, which reads the object straight from S3 (no bytes through Lambda).
import { DetectLabelsCommand, RekognitionClient } from '@aws-sdk/client-rekognition';
import type { Labeller } from '../../ports/labeller.ts';
import { traced } from '../../observability.ts';

const MIN_CONFIDENCE = 70;
const MAX_LABELS = 15;

let rekognition: RekognitionClient | undefined;

export const rekognitionLabeller: Labeller = async (bucket, key) => {
  rekognition ??= traced(new RekognitionClient({}));
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
