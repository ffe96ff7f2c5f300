// Picks the vision-model adapter the configuration names; composed once per function by the analysis routes.
import type { AnalysisConfig } from '../../config.ts';
import type { VisionModel } from '../../ports/vision-model.ts';
import { noVisionModel, unconfigured } from './none.ts';
import { openAiCompatibleModel } from './local.ts';

export function createVisionModel(config: AnalysisConfig): VisionModel {
  if (config.provider === 'none') return noVisionModel;
  const missing = [
    ...(config.model ? [] : ['ANALYSIS_MODEL']),
    ...(config.provider === 'openai' && !config.baseUrl ? ['ANALYSIS_BASE_URL'] : []),
  ];
  if (missing.length > 0) return misconfigured(config.provider, missing);
  if (config.provider === 'bedrock') return lazyBedrock(config.model!);
  return openAiCompatibleModel({ baseUrl: config.baseUrl!, model: config.model!, apiKey: config.apiKey });
}

/** The Bedrock SDK loads on the first question, so cached answers never pay for it. */
function lazyBedrock(modelId: string): VisionModel {
  let model: Promise<VisionModel> | undefined;
  return {
    provider: 'bedrock',
    modelId,
    async ask(question) {
      model ??= import('./aws.ts').then((m) => m.bedrockModel({ modelId }));
      return (await model).ask(question);
    },
  };
}

const misconfigured = (provider: VisionModel['provider'], missing: string[]) =>
  unconfigured(
    provider,
    `Photo analysis is misconfigured: ANALYSIS_PROVIDER=${provider} needs ${missing.join(' and ')}`,
  );

const models = new WeakMap<AnalysisConfig, VisionModel>();

/** The configured model, created once per configuration (so once per warm function). */
export function visionModelFor(config: AnalysisConfig): VisionModel {
  const known = models.get(config);
  if (known) return known;
  const model = createVisionModel(config);
  models.set(config, model);
  return model;
}

/**
 * The request's dependencies plus the vision model: how the analysis routes compose the port. The configured model,
 * unless the dependencies already hold one (a test's fake).
 */
export const analysisDeps = <D extends { config: { analysis: AnalysisConfig }; vision?: VisionModel | undefined }>(
  deps: D,
) => ({
  ...deps,
  vision: deps.vision ?? visionModelFor(deps.config.analysis),
});
