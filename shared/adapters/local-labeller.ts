// Labeller adapters without a model: local mode says that none runs instead of pretending, and tests get fixed labels.
import type { ImageLabel, Labeller } from '../ports/labeller.ts';

export const localLabeller: Labeller = async () => ({
  labels: [],
  source: 'none: no labelling model runs in local mode',
});

/** Deterministic: the same labels for every photo, with the source `fake`. */
export const fakeLabeller =
  (labels: ImageLabel[]): Labeller =>
  async () => ({ labels, source: 'fake' });
