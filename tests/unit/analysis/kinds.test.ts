import { readFileSync } from 'node:fs';
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { ANSWER_SCHEMAS_PATH, answerJsonSchemas } from '../../../scripts/openapi/answer-schemas.ts';
import { createVisionModel } from '../../../shared/adapters/vision-model/index.ts';
import { analysisUnavailable } from '../../../shared/domain/analysis/ask.ts';
import {
  type AnalysisKind,
  answerJsonSchema,
  KINDS,
  type PromptContext,
} from '../../../shared/domain/analysis/kinds.ts';
import { VisionUnavailable } from '../../../shared/ports/vision-model.ts';
import { exampleOf } from '../../../shared/adapters/vision-model/fake.ts';

const kinds = Object.keys(KINDS) as AnalysisKind[];
const context: PromptContext = {
  pet: {
    name: 'Rex',
    species: 'dog',
    breeds: ['Beagle'],
    sex: 'female',
    neutered: false,
    ageMonths: 14,
    weightKg: null,
  },
  lang: 'pl',
  season: 'summer',
  country: 'PL',
  imageCount: 3,
  earlier: { body_condition_score: 'score 7 of 9 (overweight)' },
};

/** OpenAI's strict mode: every object closed and every property required. */
function expectStrict(schema: Record<string, any>, path: string) {
  if (schema.type === 'object') {
    expect(schema.additionalProperties, path).toBe(false);
    expect([...schema.required].sort(), path).toEqual(Object.keys(schema.properties).sort());
    for (const [key, child] of Object.entries(schema.properties)) expectStrict(child as any, `${path}.${key}`);
  }
  if (schema.items) expectStrict(schema.items, `${path}[]`);
}

describe('analysis kinds registry', () => {
  it.each(kinds)('%s: a strict JSON Schema, a versioned prompt in the requested language', (kind) => {
    expectStrict(answerJsonSchema(kind), kind);
    expect(KINDS[kind].promptVersion).toMatch(/^v\d+$/);
    const prompt = KINDS[kind].prompt(context);
    expect(prompt).toContain('Polish (language code pl)');
    expect(prompt).toContain('Pet: Rex, a dog (breed on record: Beagle)');
    expect(prompt.includes('Season: summer')).toBe(KINDS[kind].usesSeasonAndCountry);
    expect(prompt.includes('Country: PL')).toBe(KINDS[kind].usesSeasonAndCountry);
  });

  it('sends the JSON Schemas zod converts the answer schemas to (npm run openapi rewrites the committed file)', () => {
    expect(JSON.parse(readFileSync(ANSWER_SCHEMAS_PATH, 'utf8'))).toEqual(answerJsonSchemas());
  });

  it.each(kinds)('%s: what the fake server generates from the JSON Schema passes the zod schema', (kind) => {
    expect(z.safeParse(KINDS[kind].answer, exampleOf(answerJsonSchema(kind) as never, 'en')).success).toBe(true);
  });

  it('health tips build on earlier results', () => {
    expect(KINDS.health_tips.prompt(context)).toContain(
      'Earlier body condition score result: score 7 of 9 (overweight)',
    );
  });
});

describe('provider selection', () => {
  const config = { baseUrl: undefined, model: undefined, apiKey: undefined, timeoutMs: 25_000 };
  const reasonOf = async (provider: 'none' | 'openai' | 'bedrock', extra = {}) => {
    const model = createVisionModel({ ...config, provider, ...extra });
    return (await model.ask({} as never).catch((e: unknown) => e)) as VisionUnavailable;
  };

  it('none: 503 analysis_unavailable naming the variables that enable a provider, with Retry-After', async () => {
    const error = await reasonOf('none');
    expect(error).toBeInstanceOf(VisionUnavailable);
    const http = analysisUnavailable(error as VisionUnavailable);
    expect(http).toMatchObject({ status: 503, code: 'analysis_unavailable', headers: { 'retry-after': '300' } });
    for (const name of ['ANALYSIS_PROVIDER', 'ANALYSIS_BASE_URL', 'ANALYSIS_MODEL'])
      expect(http.message).toContain(name);
  });

  it('a provider without its settings says which are missing instead of failing later', async () => {
    expect((await reasonOf('openai', { model: 'llava' }))?.message).toContain('needs ANALYSIS_BASE_URL');
    expect((await reasonOf('bedrock'))?.message).toContain('needs ANALYSIS_MODEL');
    expect(createVisionModel({ ...config, provider: 'openai', baseUrl: 'http://x', model: 'llava' })).toMatchObject({
      provider: 'openai',
      modelId: 'llava',
    });
  });
});
