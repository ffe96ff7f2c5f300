// The vision model's answer schemas as JSON Schema (shared/domain/analysis/answer-schemas.json), converted from the
// analysis kinds' zod schemas by zod's own `toJSONSchema`; `npm run openapi` writes the file and a unit test fails
// when it is stale. Generated here, so the analysis functions read an object instead of bundling the converter.
import { join } from 'node:path';
import * as z from 'zod/mini';
import { type AnalysisKind, KINDS } from '../../shared/domain/analysis/kinds.ts';

export const ANSWER_SCHEMAS_PATH = join(
  import.meta.dirname,
  '..',
  '..',
  'shared',
  'domain',
  'analysis',
  'answer-schemas.json',
);

/** Each kind's answer schema, without the `$schema` marker some model servers reject. */
export function answerJsonSchemas(): Record<AnalysisKind, Record<string, unknown>> {
  return Object.fromEntries(
    Object.entries(KINDS).map(([kind, { answer }]) => {
      const { $schema: _marker, ...schema } = z.toJSONSchema(answer) as Record<string, unknown>;
      return [kind, schema];
    }),
  ) as Record<AnalysisKind, Record<string, unknown>>;
}
