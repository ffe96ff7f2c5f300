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

/** How a deploy reaches traffic (infra/constructs/releases.ts): CodeDeploy canary with rollback, or all at once. */
export const DEPLOY_STRATEGIES = ['canary', 'all-at-once'] as const;
export type DeployStrategy = (typeof DEPLOY_STRATEGIES)[number];

/** Production shifts traffic by canary; staging takes a deploy at once. `-c deploy=…` overrides per deploy. */
export const DEPLOY_STRATEGY_BY_STAGE: Record<Stage, DeployStrategy> = {
  staging: 'all-at-once',
  production: 'canary',
};

export function parseDeployStrategy(value: unknown, stage: Stage): DeployStrategy {
  const strategy = value ?? DEPLOY_STRATEGY_BY_STAGE[stage];
  if (!DEPLOY_STRATEGIES.includes(strategy as DeployStrategy))
    throw new Error(`-c deploy must be one of ${DEPLOY_STRATEGIES.join(', ')} (got ${String(strategy)})`);
  return strategy as DeployStrategy;
}
