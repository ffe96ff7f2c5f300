import { PROMPT_VERSIONS } from '../../../shared/domain/analysis/prompt-versions.ts';
// Handler-test fixtures of the analysis routes (docs/analysis.md). The mocked table holds the pets' partitions in
// memory, so what one request writes (the claim, the result, the latest result) the next one reads; the mocked
// bucket serves the photos' bytes; and the vision port is the deterministic in-process fake
// (shared/adapters/vision-model/fake.ts), injected as the functions' dependency. Its answers follow the schema (or a rule's
// answer), and it records every call. The adapters themselves have their own tests (tests/unit/analysis), and the
// integration layer reaches the fake OpenAI-compatible server through the real `openai` adapter.
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import sharp from 'sharp';
import { beforeEach, expect, it } from 'vitest';
import { type FakeRule, fakeVisionModel } from '../../../shared/adapters/vision-model/fake.ts';
import { noVisionModel } from '../../../shared/adapters/vision-model/none.ts';
import type { VisionModel } from '../../../shared/ports/vision-model.ts';
import { petPartition } from '../../../shared/db/keys.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import type { StoredAnalysis } from '../../../shared/domain/analysis/store.ts';
import type { PetMediaItem } from '../../../shared/domain/pets/media.ts';
import type { PetItem } from '../../../shared/domain/pets/pet.ts';
import type { BreedRecord } from '../../../shared/domain/reference/breeds.ts';
import type { HealthTipRecord } from '../../../shared/domain/reference/records.ts';
import { anAccount, mockDynamoWithAccounts, USER_KEY } from '../../support/fixtures.ts';
import { httpEvent, jsonBody, lambdaContext } from '../../support/http-event.ts';
import { aBreed, serveReferenceData } from '../../support/reference-fixtures.ts';
import { aStoredMedia, aStoredPet } from '../pets/pet-fixtures.ts';

export const NOW = new Date('2026-11-22T10:00:00.000Z');
export const MODEL_ID = 'fake-vision-1';
export const OTHER_KEY = 'live_other-test-key';
/** What a deployed analysis function has left when its handler runs (it stops at 29 s). */
export const DEPLOYED_TIME_LEFT_MS = 29_000;

/** The catalogue the analyses read: breed standards, names to match the model's breed names against, tips. */
export const BREEDS: BreedRecord[] = [
  aBreed({
    id: 'german-shepherd-dog',
    name: 'German Shepherd Dog',
    weight: { imperial: { min: 50, max: 90 }, metric: { min: 23, max: 41 } },
  }),
  aBreed({ id: 'labrador-retriever', name: 'Labrador Retriever', alt_names: ['Labrador'] }),
  aBreed({ id: 'siamese', name: 'Siamese', species_id: 'cat' }),
];

/**
 * The pets: `pet-1` (Rex, a male German Shepherd Dog born 2016-01, so a senior) of the caller with four ready
 * photos; `pet-bare` of the caller with only a video and a photo still processing; `pet-other` of another account.
 */
export const PETS = {
  rex: aStoredPet({ id: 'pet-1', breed_ids: ['german-shepherd-dog'], sex: 'male', birth_date: '2016-01' }),
  bare: aStoredPet({ id: 'pet-bare', name: 'Bare' }),
  other: aStoredPet({ id: 'pet-other', account_id: 'acc-other', name: 'Nemo' }),
};

/** A stored pet medium (ready photo unless overridden); `n` orders them: a higher `n` is newer. */
export function aStoredMedium(petId: string, n: number, overrides: Partial<PetMediaItem> = {}) {
  const nn = String(n).padStart(2, '0');
  const id = `img-${nn}`;
  return aStoredMedia({
    id,
    pet_id: petId,
    file: `pets/photos/acc-user/${petId}/${id}.jpg`,
    display_key: `pets/media/acc-user/${petId}/${id}/display.jpg`,
    sha256: `${nn}${'a'.repeat(62)}`,
    created_at: `2026-11-${nn}T00:00:00.000Z`,
    ...overrides,
  });
}

/** A result of `pet-1` stored as the latest of its kind and prompt version, as an earlier request would leave it. */
export function aLatestResult(
  kind: string,
  id: string,
  answer: unknown,
  promptVersion: string = PROMPT_VERSIONS[kind as keyof typeof PROMPT_VERSIONS] ?? 'v1',
): Record<string, unknown> {
  const result: StoredAnalysis = {
    id,
    pet_id: 'pet-1',
    type: kind,
    prompt_version: promptVersion,
    model: { provider: 'openai', id: MODEL_ID },
    image_ids: ['img-01'],
    lang: 'en',
    season: null,
    country: null,
    based_on: [],
    answer,
    created_at: '2026-11-10T00:00:00.000Z',
  };
  return {
    pk: petPartition('pet-1'),
    sk: `ANALYSIS_LATEST#${kind}#${promptVersion}`,
    type: 'AnalysisLatest',
    result,
    expiresAt: NOW.getTime() / 1000 + 86_400,
  };
}

/** A body condition answer as the model gives it (and the store keeps it). */
export const aBodyConditionAnswer = (score: number) => ({
  score,
  confidence: 0.8,
  explanation: 'Ribs hard to feel, no waist',
  recommendations: ['Weigh the food', 'Walk twice a day'],
});

/** A 2000 × 1500 JPEG: larger than the 1024 px a model may see. */
const PHOTO = sharp({ create: { width: 2000, height: 1500, channels: 3, background: '#8b5a2b' } })
  .jpeg()
  .toBuffer();

/** The pets' partitions as DynamoDB holds them, keyed `pk|sk`. */
export type Table = Map<string, Record<string, any>>;
const at = (key: { pk: string; sk: string }) => `${key.pk}|${key.sk}`;

/**
 * The mocked table and bucket of one test: the caller (`acc-user`, with `features`) and another account, the
 * catalogue, and the pets' partitions (`items`: pets, media, stored results). Writes land in the returned table.
 */
export function serveAnalysisData(
  options: { features?: string[]; items?: Record<string, any>[]; tips?: HealthTipRecord[]; pet?: PetItem } = {},
) {
  const pet = options.pet ?? PETS.rex;
  const ddb = mockDynamoWithAccounts([
    { apiKey: USER_KEY, account: anAccount({ features: options.features ?? [] }) },
    { apiKey: OTHER_KEY, account: anAccount({ id: 'acc-other' }) },
  ]);
  serveReferenceData(ddb, { breeds: BREEDS, 'health-tips': options.tips ?? [] });
  const table: Table = new Map();
  const rows = [
    ...[pet, PETS.bare, PETS.other].map((p) => ({ pk: petPartition(p.id), sk: 'PET', type: 'Pet', ...p })),
    ...[1, 2, 3, 4].map((n) => aStoredMedium(pet.id, n)),
    aStoredMedium('pet-bare', 1, { kind: 'video', content_type: 'video/mp4' }),
    aStoredMedium('pet-bare', 2, { status: 'pending' }),
    aStoredMedium('pet-other', 1, { account_id: 'acc-other' }),
    ...(options.items ?? []),
  ];
  for (const row of rows) table.set(at(row as { pk: string; sk: string }), row);

  for (const id of [pet.id, 'pet-bare', 'pet-other']) {
    const pk = petPartition(id);
    ddb.on(GetCommand, { Key: { pk } } as never).callsFake((input) => ({ Item: table.get(at(input.Key)) }));
    // The newest ready or processing photos: the query's key condition and filter, applied as DynamoDB would.
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ':pk': pk } } as never).callsFake((input) => {
      const values = input.ExpressionAttributeValues;
      const statuses = [values[':ready'], values[':pending']];
      const items = [...table.values()]
        .filter((row) => row.pk === pk && row.sk.startsWith(values[':media']))
        .filter((row) => row.kind === values[':photo'] && statuses.includes(row.status))
        .sort((a, b) => a.sk.localeCompare(b.sk));
      return { Items: input.ScanIndexForward === false ? items.reverse() : items };
    });
  }
  ddb.on(PutCommand).callsFake((input) => void table.set(at(input.Item), input.Item));
  ddb.on(DeleteCommand).callsFake((input) => void table.delete(at(input.Key)));
  ddb.on(TransactWriteCommand).callsFake((input) => {
    for (const { Put } of input.TransactItems) if (Put) table.set(at(Put.Item), Put.Item);
  });

  const s3 = mockClient(S3Client);
  s3.on(GetObjectCommand).callsFake(async () => {
    const bytes = new Uint8Array(await PHOTO);
    return { Body: { transformToByteArray: async () => bytes } };
  });
  return { ddb, s3, table };
}

/** The stored analysis items of a pet: results and claims by signature (`ANALYSIS#…`), latest results. */
export const analysisRows = (table: Table, petId = 'pet-1') =>
  [...table.values()].filter((row) => row.pk === petPartition(petId) && row.sk.startsWith('ANALYSIS'));

/**
 * Before each test, composes the functions' dependencies with the in-process fake vision model
 * (shared/adapters/vision-model/fake.ts) as their vision port (or with no model, after `withoutProvider()`), a fixed clock
 * and numbered ids. The returned handle steers the fake: its recorded calls and its rules.
 */
export function useFakeVision() {
  let model = fakeVisionModel(MODEL_ID);
  beforeEach(() => {
    model = fakeVisionModel(MODEL_ID);
    composeDeps(model);
  });
  return {
    get calls() {
      return model.calls;
    },
    /** The model answers `answer` to questions named `kind`, for `times` calls (every call when absent). */
    answers(kind: string, answer: unknown, times?: number) {
      model.rules.push({ name: kind, mode: 'ok', answer, ...(times && { times }) });
    },
    /** The model misbehaves (`fail`, `throttle`, `schema_invalid`, …) for `times` calls (every call when absent). */
    misbehaves(mode: FakeRule['mode'], times?: number) {
      model.rules.push({ mode, ...(times && { times }) });
    },
    /** No provider configured: the `none` adapter, what the configuration composes by default. */
    withoutProvider() {
      composeDeps(noVisionModel);
    },
  };
}

/**
 * The tests' clock: `sleep` moves `now` on and nothing waits for real; `onSleep` lets a test change the table as
 * time passes (a photo's processing ends).
 */
export const fakeClock = { waitedMs: 0, onSleep: undefined as ((waitedMs: number) => void) | undefined };

function composeDeps(vision: VisionModel) {
  let n = 0;
  fakeClock.waitedMs = 0;
  fakeClock.onSleep = undefined;
  setDepsForTest({
    now: () => new Date(NOW.getTime() + fakeClock.waitedMs),
    sleep: async (ms) => {
      fakeClock.waitedMs += ms;
      fakeClock.onSleep?.(fakeClock.waitedMs);
    },
    newId: () => `id-${++n}`,
    vision,
  });
}

export type Handler = (event: any, context: any) => Promise<any>;

/**
 * One request to an analysis route of `petId` under `key` (the caller's by default), with `timeLeftMs` of the
 * function's time left (10 s by default: less than an analysis needs, so nothing is waited for).
 */
export function analyse(
  handler: Handler,
  route: string,
  options: { petId?: string; query?: Record<string, string>; key?: string; method?: string; timeLeftMs?: number } = {},
) {
  const petId = options.petId ?? 'pet-1';
  return handler(
    httpEvent({
      method: options.method ?? 'POST',
      path: `/v1/pets/${petId}/${route}`,
      headers: { 'x-api-key': options.key ?? USER_KEY },
      pathParameters: { petId },
      ...(options.query && { query: options.query }),
    }),
    options.timeLeftMs === undefined
      ? lambdaContext
      : { ...lambdaContext, getRemainingTimeInMillis: () => options.timeLeftMs },
  );
}

/** An analysis route as its tests call it. */
export interface AnalysisRoute {
  handler: Handler;
  /** The path below `/v1/pets/{petId}/`. */
  route: string;
  method?: 'GET';
  /** The success status. */
  status: 200 | 201;
  /** What the table serves for this route's tests (the feature a route needs). */
  serve?: Parameters<typeof serveAnalysisData>[0];
  /** Whether the answer came from the store; `cached` unless the route nests it. */
  cachedOf?: (body: any) => boolean;
  /** Queries the route refuses, each with the one problem its 400 names. */
  badQueries: [Record<string, string>, string][];
}

/**
 * What every analysis route does alike (docs/analysis.md, Routes and Caching), each refusal before asking the model:
 * 400 naming the problem of a bad query, 403 for another account's pet, 404 for an unknown one, 400
 * `pet_has_no_photos` without a usable photo, a photo still processing waited for (409 `photos_processing` when it
 * stays so); one model call per request signature, repeats answered from the store; a provider failure is a 503 that
 * caches nothing.
 */
export function itBehavesLikeEveryAnalysis(route: AnalysisRoute, vision: ReturnType<typeof useFakeVision>) {
  const call = (petId?: string, query?: Record<string, string>) =>
    analyse(route.handler, route.route, {
      ...(route.method && { method: route.method }),
      ...(petId && { petId }),
      ...(query && { query }),
    });
  const cached = route.cachedOf ?? ((body: { cached: boolean }) => body.cached);
  const callBare = (options: { timeLeftMs: number }) =>
    analyse(route.handler, route.route, {
      ...(route.method && { method: route.method }),
      petId: 'pet-bare',
      ...options,
    });

  it.each(route.badQueries)('rejects %o with 400 naming the problem, asking no model', async (query, message) => {
    serveAnalysisData(route.serve);

    const result = await call(undefined, query);

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result)).toMatchObject({ statusCode: 400, error: 'Bad Request', message: [message] });
    expect(vision.calls).toHaveLength(0);
  });

  it("answers 403 for another account's pet, asking no model and writing nothing", async () => {
    const { table } = serveAnalysisData(route.serve);

    const result = await call('pet-other');

    expect(result.statusCode).toBe(403);
    expect(jsonBody(result)).toMatchObject({ statusCode: 403, message: 'Pet pet-other belongs to another account' });
    expect(vision.calls).toHaveLength(0);
    expect(analysisRows(table, 'pet-other')).toEqual([]);
  });

  it('answers 404 for a pet that does not exist', async () => {
    serveAnalysisData(route.serve);

    const result = await call('pet-nope');

    expect(result.statusCode).toBe(404);
    expect(jsonBody(result)).toMatchObject({
      statusCode: 404,
      error: 'Not Found',
      message: 'Pet pet-nope does not exist',
    });
    expect(vision.calls).toHaveLength(0);
  });

  it('waits for a photo still processing, within what the request can spare, and analyses it once ready', async () => {
    const { table } = serveAnalysisData(route.serve);
    const photo = aStoredMedium('pet-bare', 2, { status: 'pending' });
    fakeClock.onSleep = (waited) => {
      if (waited >= 600) table.set(at(photo), { ...photo, status: 'ready' });
    };

    const result = await callBare({ timeLeftMs: DEPLOYED_TIME_LEFT_MS });

    expect(result.statusCode).toBe(route.status);
    expect(vision.calls).toHaveLength(1);
    expect(fakeClock.waitedMs).toBe(700);
  });

  it('answers 409 photos_processing with Retry-After when the only photo is still processing after the wait', async () => {
    const { table } = serveAnalysisData(route.serve);

    const result = await callBare({ timeLeftMs: DEPLOYED_TIME_LEFT_MS });

    expect(result.statusCode).toBe(409);
    expect(result.headers['retry-after']).toBe('2');
    expect(jsonBody(result)).toMatchObject({ statusCode: 409, error: 'Conflict', code: 'photos_processing' });
    // 29 s left, 25 s of model budget and 2 s of slack after the photos: 2 s of waiting.
    expect(fakeClock.waitedMs).toBe(2_000);
    expect(vision.calls).toHaveLength(0);
    expect(analysisRows(table, 'pet-bare')).toEqual([]);
  });

  it('answers 400 pet_has_no_photos at once for a pet with only a video and a rejected photo', async () => {
    const { table } = serveAnalysisData(route.serve);
    const photo = aStoredMedium('pet-bare', 2, { status: 'pending' });
    table.set(at(photo), { ...photo, status: 'rejected' });

    const result = await callBare({ timeLeftMs: DEPLOYED_TIME_LEFT_MS });

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result)).toMatchObject({ statusCode: 400, error: 'Bad Request', code: 'pet_has_no_photos' });
    expect(fakeClock.waitedMs).toBe(0);
    expect(vision.calls).toHaveLength(0);
  });

  it('asks the model once per signature: a repeat is answered from the store, a new photo asks again', async () => {
    const { table } = serveAnalysisData(route.serve);

    const first = await call();
    const repeat = await call();
    const newPhoto = aStoredMedium('pet-1', 9);
    table.set(at(newPhoto), newPhoto);
    const afterNewPhoto = await call();

    expect([first, repeat, afterNewPhoto].map((r) => r.statusCode)).toEqual([route.status, route.status, route.status]);
    expect([first, repeat, afterNewPhoto].map((r) => cached(jsonBody(r)))).toEqual([false, true, false]);
    expect(vision.calls).toHaveLength(2);
  });

  it('answers 503 analysis_unavailable with Retry-After when the provider fails, and caches nothing', async () => {
    const { table } = serveAnalysisData(route.serve);
    vision.misbehaves('fail', 1);

    const failed = await call();

    expect(failed.statusCode).toBe(503);
    expect(failed.headers['retry-after']).toBe('30');
    expect(jsonBody(failed)).toMatchObject({ statusCode: 503, code: 'analysis_unavailable', reason: 'provider_error' });
    expect(analysisRows(table).filter((row) => row.sk.startsWith('ANALYSIS#'))).toEqual([]);
    const retried = await call();
    expect(retried.statusCode).toBe(route.status);
    expect(cached(jsonBody(retried))).toBe(false);
  });
}
