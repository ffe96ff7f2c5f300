// No model configured (the local default): every question fails honestly, naming what would enable a provider.
import { type VisionModel, VisionUnavailable } from '../../ports/vision-model.ts';

export const NOT_CONFIGURED_MESSAGE =
  'Photo analysis is not configured: set ANALYSIS_PROVIDER=openai with ANALYSIS_BASE_URL and ANALYSIS_MODEL ' +
  '(any OpenAI-compatible server, e.g. Ollama or vLLM), or ANALYSIS_PROVIDER=bedrock with ANALYSIS_MODEL';

export const noVisionModel: VisionModel = {
  provider: 'none',
  modelId: null,
  ask: async () => {
    throw new VisionUnavailable('not_configured', NOT_CONFIGURED_MESSAGE);
  },
};
