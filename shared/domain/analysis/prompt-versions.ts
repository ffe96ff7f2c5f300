// The current prompt version of each analysis kind, kept apart from the prompts and answer schemas (kinds.ts) so that
// code reading stored results by version (vet reviews) does not bundle them. Bump a kind's version here whenever its
// prompt or answer schema changes in a way that changes answers (docs/analysis.md).
export const PROMPT_VERSIONS = {
  body_condition_score: 'v1',
  estimated_age: 'v1',
  genealogy: 'v2',
  muscle_condition_score: 'v1',
  estimated_weight: 'v1',
  health_tips: 'v1',
} as const;
