export const STAGES = ['staging', 'production'] as const;
export type Stage = (typeof STAGES)[number];

export function parseStage(value: unknown): Stage {
  const stage = value ?? 'staging';
  if (!STAGES.includes(stage as Stage))
    throw new Error(`-c stage must be one of ${STAGES.join(', ')} (got ${String(stage)})`);
  return stage as Stage;
}
