// No model configured (the local default): every question fails honestly, naming what would enable a provider.
import { type VisionModel, VisionUnavailable } from '../../ports/vision-model.ts';

export const NOT_CONFIGURED_MESSAGE =
  'Photo analysis is not configured: set ANALYSIS_PROVIDER=openai with ANALYSIS_BASE_URL and ANALYSIS_MODEL ' +
  '(any OpenAI-compatible server, e.g. Ollama or vLLM), or ANALYSIS_PROVIDER=bedrock with ANALYSIS_MODEL';

export const noVisionModel = unconfigured('none', NOT_CONFIGURED_MESSAGE);

/** A model that cannot be asked: says why up front, and throws the same when asked anyway. */
export function unconfigured(provider: VisionModel['provider'], message: string): VisionModel {
  const unavailable = new VisionUnavailable('not_configured', message);
  return {
    provider,
    modelId: null,
    unavailable,
    ask: async () => {
      throw unavailable;
    },
  };
}
