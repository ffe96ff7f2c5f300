export const STAGES = ['staging', 'production'] as const;
export type Stage = (typeof STAGES)[number];

export function parseStage(value: unknown): Stage {
  const stage = value ?? 'staging';
  if (!STAGES.includes(stage as Stage))
    throw new Error(`-c stage must be one of ${STAGES.join(', ')} (got ${String(stage)})`);
  return stage as Stage;
}

/**
 * The Bedrock vision model each stage's analysis routes may invoke (IAM is scoped to exactly this model).
 * Staging runs the cheaper Nova Lite; production Nova Pro. `-c analysisModel=<id>` overrides per deploy.
 */
export const ANALYSIS_MODEL_BY_STAGE: Record<Stage, string> = {
  staging: 'amazon.nova-lite-v1:0',
  production: 'amazon.nova-pro-v1:0',
};
