// Picks the vision-model adapter the configuration names; composed once per function by the analysis routes.
import type { AnalysisConfig } from '../../config.ts';
import { type VisionModel, VisionUnavailable } from '../../ports/vision-model.ts';
import { bedrockModel } from './bedrock.ts';
import { noVisionModel } from './none.ts';
import { openAiCompatibleModel } from './openai.ts';

export function createVisionModel(config: AnalysisConfig): VisionModel {
  if (config.provider === 'none') return noVisionModel;
  const missing = [
    ...(config.model ? [] : ['ANALYSIS_MODEL']),
    ...(config.provider === 'openai' && !config.baseUrl ? ['ANALYSIS_BASE_URL'] : []),
  ];
  if (missing.length > 0) return misconfigured(config.provider, missing);
  if (config.provider === 'bedrock') return bedrockModel({ modelId: config.model! });
  return openAiCompatibleModel({ baseUrl: config.baseUrl!, model: config.model!, apiKey: config.apiKey });
}

function misconfigured(provider: VisionModel['provider'], missing: string[]): VisionModel {
  return {
    provider,
    modelId: null,
    ask: async () => {
      throw new VisionUnavailable(
        'not_configured',
        `Photo analysis is misconfigured: ANALYSIS_PROVIDER=${provider} needs ${missing.join(' and ')}`,
      );
    },
  };
}
