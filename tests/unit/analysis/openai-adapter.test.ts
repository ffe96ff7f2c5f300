import { createServer } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openAiCompatibleModel } from '../../../shared/adapters/vision-model/local.ts';
import { askModel } from '../../../shared/domain/analysis/ask.ts';
import type { PromptContext } from '../../../shared/domain/analysis/kinds.ts';
import { toModelImage } from '../../../shared/media/model-image.ts';
import type { VisionUnavailable } from '../../../shared/ports/vision-model.ts';
import { type FakeVisionServer, startFakeVisionServer } from '../../../scripts/local/fake-vision-server.ts';

const context: PromptContext = {
  pet: {
    name: 'Rex',
    species: 'dog',
    breeds: ['German Shepherd'],
    sex: 'male',
    neutered: true,
    ageMonths: 40,
    weightKg: 31,
  },
  lang: 'de',
  season: 'winter',
  country: 'AT',
  imageCount: 1,
};

let fake: FakeVisionServer;
let photo: Awaited<ReturnType<typeof toModelImage>>;

beforeAll(async () => {
  fake = await startFakeVisionServer();
  const original = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#a0522d' } })
    .jpeg()
    .withExif({ IFD0: { Copyright: 'owner-secret', Make: 'PhoneCo' } })
    .toBuffer();
  expect((await sharp(original).metadata()).exif).toBeDefined();
  photo = await toModelImage(original);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.calls.length = 0;
  fake.rules = [];
});

const model = (apiKey?: string) => openAiCompatibleModel({ baseUrl: fake.url, model: 'llava:13b', apiKey });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('expected a failure'),
    (error: unknown) => error as VisionUnavailable,
  );

describe('OpenAI-compatible adapter against a real HTTP server', () => {
  it('sends the contract: model, strict json_schema, photos as data: URLs, Bearer key when set; returns the validated answer', async () => {
    const answer = await askModel(model('sk-local'), 'body_condition_score', context, [photo], 5000);
    expect(answer).toMatchObject({ score: 5, confidence: 0.5 });
    expect(fake.calls).toHaveLength(1);
    const call = fake.calls[0]!;
    expect(call).toMatchObject({ model: 'llava:13b', name: 'body_condition_score', strict: true });
    expect(call.authorization).toBe('Bearer sk-local');
    expect(call.prompt).toContain('language code de');
    expect(call.prompt).toContain('Season: winter');
    expect(call.prompt).toContain('Country: AT');
    expect(call.images).toHaveLength(1);
  });

  it('photos reach the model downscaled to at most 1024 px, as JPEG, without EXIF', async () => {
    await askModel(model(), 'estimated_age', context, [photo], 5000);
    const sent = await sharp(Buffer.from(fake.calls[0]!.images[0]!, 'base64')).metadata();
    expect(sent).toMatchObject({ format: 'jpeg', width: 1024, height: 683 });
    expect(sent.exif).toBeUndefined();
    expect(fake.calls[0]!.authorization).toBeNull();
  });

  it('an answer that is not JSON is asked again once; twice invalid is invalid_answer', async () => {
    fake.rules = [{ mode: 'invalid_json', times: 1 }];
    await expect(askModel(model(), 'genealogy', context, [photo], 5000)).resolves.toMatchObject({
      is_mixed_breed: false,
    });
    expect(fake.calls).toHaveLength(2);

    fake.calls.length = 0;
    fake.rules = [{ mode: 'schema_invalid' }];
    expect((await failure(askModel(model(), 'genealogy', context, [photo], 5000))).reason).toBe('invalid_answer');
    expect(fake.calls).toHaveLength(2);
  });

  it('5xx, 429, refusals, timeouts and refused connections are VisionUnavailable, each with its reason', async () => {
    fake.rules = [{ mode: 'fail' }];
    expect((await failure(askModel(model(), 'estimated_age', context, [photo], 5000))).reason).toBe('provider_error');
    fake.rules = [{ mode: 'throttle' }];
    expect((await failure(askModel(model(), 'estimated_age', context, [photo], 5000))).reason).toBe('throttled');
    fake.rules = [{ mode: 'refuse' }];
    expect((await failure(askModel(model(), 'estimated_age', context, [photo], 5000))).reason).toBe('refused');
    fake.rules = [{ mode: 'slow', delayMs: 2000 }];
    expect((await failure(askModel(model(), 'estimated_age', context, [photo], 300))).reason).toBe('timeout');

    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const nobody = openAiCompatibleModel({ baseUrl: `http://127.0.0.1:${closedPort}`, model: 'm' });
    expect((await failure(askModel(nobody, 'estimated_age', context, [photo], 5000))).reason).toBe('unreachable');
  });
});
