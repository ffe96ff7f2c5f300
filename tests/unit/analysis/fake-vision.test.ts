// The in-process fake vision model (the handler tests' vision port) answers and fails as the OpenAI-compatible
// adapter does when the fake server over HTTP is steered by the same rules.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeRule, fakeVisionModel } from '../../../shared/adapters/vision-model/fake.ts';
import { openAiCompatibleModel } from '../../../shared/adapters/vision-model/local.ts';
import { askModel } from '../../../shared/domain/analysis/ask.ts';
import type { PromptContext } from '../../../shared/domain/analysis/kinds.ts';
import { toModelImage } from '../../../shared/media/model-image.ts';
import type { VisionModel } from '../../../shared/ports/vision-model.ts';
import { type FakeVisionServer, startFakeVisionServer } from '../../../scripts/local/fake-vision-server.ts';

const context: PromptContext = {
  pet: { name: 'Rex', species: 'dog', breeds: [], sex: null, neutered: null, ageMonths: null, weightKg: null },
  lang: 'fr',
  imageCount: 1,
};

let server: FakeVisionServer;
let photo: Awaited<ReturnType<typeof toModelImage>>;
beforeAll(async () => {
  server = await startFakeVisionServer();
  photo = await toModelImage(
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#888' } })
      .jpeg()
      .toBuffer(),
  );
});
afterAll(() => server.close());

/** What askModel makes of one answer of `model` under `rules`: the answer, or the reason it gave none. */
async function outcome(model: VisionModel, steer: (rules: FakeRule[]) => void, rules: FakeRule[], timeoutMs = 5000) {
  steer(rules.map((r) => ({ ...r })));
  return askModel(model, 'estimated_age', context, [photo], timeoutMs).then(
    (answer) => ({ answer }),
    (error: { reason?: string }) => ({ reason: error.reason }),
  );
}

describe('the fake vision model', () => {
  const fake = fakeVisionModel('fake-vision-1');

  it.each<[string, FakeRule[], number?]>([
    ['a schema example in the asked language', []],
    [
      'a rule’s answer',
      [
        {
          name: 'estimated_age',
          mode: 'ok',
          answer: { age_months: 30, age_range_months: { min: 24, max: 36 }, confidence: 0.9, reasons: 'Teeth' },
        },
      ],
    ],
    ['provider_error for a failing model', [{ mode: 'fail' }]],
    ['throttled', [{ mode: 'throttle' }]],
    ['refused', [{ mode: 'refuse' }]],
    ['one retry after an answer that is not JSON', [{ mode: 'invalid_json', times: 1 }]],
    ['invalid_answer after two answers outside the schema', [{ mode: 'schema_invalid' }]],
    ['timeout when slower than the deadline', [{ mode: 'slow', delayMs: 2000 }], 200],
  ])('answers like the OpenAI-compatible adapter: %s', async (_, rules, timeoutMs) => {
    const http = openAiCompatibleModel({ baseUrl: server.url, model: 'fake-vision-1' });

    const expected = await outcome(http, (r) => (server.rules = r), rules, timeoutMs);
    const actual = await outcome(fake, (r) => (fake.rules = r), rules, timeoutMs);

    expect(actual).toEqual(expected);
  });

  it('records each question: its name, instructions, prompt and the images as sent', async () => {
    const model = fakeVisionModel();

    await askModel(model, 'genealogy', context, [photo], 5000);

    expect(model).toMatchObject({ provider: 'fake', modelId: 'fake-vision-1' });
    expect(model.calls).toEqual([
      {
        name: 'genealogy',
        system: expect.stringContaining('veterinary assistant'),
        prompt: expect.stringContaining('language code fr'),
        images: [photo],
      },
    ]);
  });

  it('explains how it reached its score from the answer schema, not with a fixed sentence', async () => {
    const model = fakeVisionModel();
    const answer = await askModel(model, 'body_condition_score', { ...context, lang: 'de' }, [photo], 5000);

    expect(answer).toMatchObject({ score: 5, confidence: 0.5 });
    expect(answer.explanation).toBe(
      'Deterministic test model, no photo judged: score 5, the middle of 1–9; confidence 0.5, the middle of 0–1; ' +
        'recommendations 1 item, the fewest allowed (answer language asked: de).',
    );
    // Another schema, another derivation: nested ranges and enums are explained too.
    const muscle = await askModel(model, 'muscle_condition_score', context, [photo], 5000);
    expect(muscle.explanation).toContain('muscle_condition normal, the first of 4 choices');
    const age = await askModel(model, 'estimated_age', context, [photo], 5000);
    expect(age.reasons).toContain('age_range_months.min 180, the middle of 0–360');
  });
});
