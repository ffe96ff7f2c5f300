// Local mode has no labelling model: the labeller says so instead of pretending.
import type { Labeller } from '../../ports/labeller.ts';

export const localLabeller: Labeller = async () => ({
  labels: [],
  source: 'none: no labelling model runs in local mode',
});
