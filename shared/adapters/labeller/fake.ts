// For tests: the same labels for every photo, with the source `fake`.
import type { ImageLabel, Labeller } from '../../ports/labeller.ts';

export const fakeLabeller =
  (labels: ImageLabel[]): Labeller =>
  async () => ({ labels, source: 'fake' });
