import { allWrites } from '../../support/dynamo-writes.ts';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { handler } from '../../../functions/analysis/create-age-estimate.ts';
import { jsonBody } from '../../support/http-event.ts';
import { aStoredPet } from '../pets/pet-fixtures.ts';
import {
  aStoredMedium,
  analyse,
  analysisRows,
  itBehavesLikeEveryAnalysis,
  MODEL_ID,
  NOW,
  serveAnalysisData,
  useFakeVision,
} from './analysis-fixtures.ts';

const vision = useFakeVision();
const estimateAge = (query?: Record<string, string>) => analyse(handler, 'estimated-age', query && { query });
const anAge = (months: number) => ({
  age_months: months,
  age_range_months: { min: Math.max(0, months - 12), max: months + 12 },
  confidence: 0.7,
  reasons: 'Grey muzzle, cloudy lenses',
});

describe('POST /v1/pets/{petId}/estimated-age', () => {
  it("answers the model's estimate with the computed life stage and every result's envelope", async () => {
    serveAnalysisData();
    vision.answers('estimated_age', anAge(100));

    const result = await estimateAge();

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toEqual({
      id: expect.any(String),
      pet_id: 'pet-1',
      type: 'estimated_age',
      prompt_version: 'v1',
      model: { provider: 'fake', id: MODEL_ID },
      image_ids: ['img-04', 'img-03', 'img-02', 'img-01'],
      lang: 'en',
      created_at: NOW.toISOString(),
      cached: false,
      disclaimer: "An estimate from photos, not a veterinary diagnosis: see a vet about your pet's health.",
      validation: expect.stringMatching(/: docs\/analysis\.md#validation$/),
      record_id: jsonBody(result).id,
      age_months: 100,
      age_range_months: { min: 88, max: 112 },
      life_stage: 'senior',
      confidence: 0.7,
      reasons: 'Grey muzzle, cloudy lenses',
    });
  });

  it.each([
    ['dog', 11, 'puppy'],
    ['dog', 83, 'adult'],
    ['dog', 84, 'senior'],
    ['cat', 11, 'kitten'],
    ['cat', 100, 'adult'],
    ['cat', 132, 'senior'],
  ] as const)('computes the life stage of a %s of %i months: %s', async (species, months, stage) => {
    serveAnalysisData({ pet: aStoredPet({ id: 'pet-1', species_id: species }) });
    vision.answers('estimated_age', anAge(months));

    expect(jsonBody(await estimateAge()).life_stage).toBe(stage);
  });

  it("shows the model the newest four ready photos, resized JPEGs, and the pet's record in the prompt", async () => {
    serveAnalysisData({
      items: [
        aStoredMedium('pet-1', 5),
        aStoredMedium('pet-1', 6, { status: 'pending' }),
        aStoredMedium('pet-1', 7, { kind: 'video', content_type: 'video/mp4' }),
        aStoredMedium('pet-1', 8, { kind: 'portrait' }),
      ],
    });

    const body = jsonBody(await estimateAge());

    expect(body.image_ids).toEqual(['img-05', 'img-04', 'img-03', 'img-02']);
    const [call] = vision.calls;
    expect(call!.images).toHaveLength(4);
    expect(call!.images[0]!.mediaType).toBe('image/jpeg');
    const seen = await sharp(call!.images[0]!.bytes).metadata();
    expect(seen).toMatchObject({ format: 'jpeg', width: 1024, height: 768 });
    expect(call!.prompt).toContain('Pet: Rex, a dog (breed on record: German Shepherd Dog).');
    expect(call!.prompt).toContain('Sex: male');
    expect(call!.prompt).toContain('Age on record: 130 months');
    expect(call!.prompt).toContain('Photos attached: 4.');
  });

  it('writes free text in the requested language and keys the stored result by it', async () => {
    serveAnalysisData();

    const german = jsonBody(await estimateAge({ lang: 'DE' }));
    const english = jsonBody(await estimateAge());

    expect(german).toMatchObject({
      lang: 'de',
      reasons: expect.stringContaining('answer language asked: de'),
      cached: false,
    });
    expect(english).toMatchObject({
      lang: 'en',
      reasons: expect.stringContaining('answer language asked: en'),
      cached: false,
    });
    expect(vision.calls.map((c) => c.prompt.match(/language code (\S+)\)/)?.[1])).toEqual(['de', 'en']);
  });

  it('stores the result under its signature and as the latest estimate, both for 30 days, after claiming it', async () => {
    const { ddb, table } = serveAnalysisData();

    const body = jsonBody(await estimateAge());

    // The claim: only the request whose conditional put wins asks the model; the others wait for its result.
    const [claim] = allWrites(ddb);
    expect(claim).toMatchObject({
      put: { sk: expect.stringMatching(/^ANALYSIS#estimated_age#/), status: 'running', owner: expect.any(String) },
      conditional: true,
    });
    const rows = analysisRows(table);
    const expiresAt = NOW.getTime() / 1000 + 30 * 24 * 3600;
    expect(rows).toEqual([
      expect.objectContaining({
        sk: expect.stringMatching(/^ANALYSIS#estimated_age#[0-9a-f]{40}$/),
        status: 'done',
        result: expect.objectContaining({
          id: body.id,
          answer: expect.objectContaining({ age_months: body.age_months }),
        }),
        expiresAt,
      }),
      expect.objectContaining({
        sk: 'ANALYSIS_LATEST#estimated_age#v1',
        result: expect.objectContaining({ id: body.id }),
        expiresAt,
      }),
    ]);
  });

  it('keeps the answer as a record of the pet in the same transaction, once, and a cached repeat points at it', async () => {
    const { ddb, table } = serveAnalysisData();
    vision.answers('estimated_age', anAge(100));

    const body = jsonBody(await estimateAge({ lang: 'de' }));
    const again = jsonBody(await estimateAge({ lang: 'de' }));

    expect(again).toMatchObject({ cached: true, record_id: body.id });
    const records = [...table.values()].filter((row) => row.sk.startsWith('RECORD#'));
    expect(records).toEqual([
      expect.objectContaining({
        sk: `RECORD#${body.id}`,
        gsi1pk: 'PET#pet-1#RECORDS#estimated_age',
        record: {
          id: body.id,
          pet_id: 'pet-1',
          type: 'estimated_age',
          created_at: NOW.toISOString(),
          result: anAge(100),
          inputs: [4, 3, 2, 1].map((n) => ({ kind: 'photo', id: `img-0${n}`, sha256: `0${n}${'a'.repeat(62)}` })),
          provider: 'fake',
          model_id: MODEL_ID,
          method_version: 'v1',
          lang: 'de',
          season: null,
          country: null,
          asked_by: { account_id: 'acc-user', sub_id: 'user-1' },
          vet: null,
        },
      }),
    ]);
    expect(records[0]).not.toHaveProperty('expiresAt');
    // Written with the result: the record, only while it is new, and the pet's existence in one transaction.
    const writes = allWrites(ddb).filter((w) => w.key.sk === `RECORD#${body.id}` || (w.check && w.key.sk === 'PET'));
    expect(writes.map((w) => w.conditional)).toEqual([true, true]);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('answers 503 naming the settings that enable a provider, with Retry-After, when no model is configured', async () => {
    serveAnalysisData();
    vision.withoutProvider();

    const result = await estimateAge();

    expect(result.statusCode).toBe(503);
    expect(result.headers['retry-after']).toBe('300');
    const body = jsonBody(result);
    expect(body).toMatchObject({
      statusCode: 503,
      error: 'Service Unavailable',
      code: 'analysis_unavailable',
      reason: 'not_configured',
      path: '/v1/pets/pet-1/estimated-age',
    });
    for (const name of ['ANALYSIS_PROVIDER', 'ANALYSIS_BASE_URL', 'ANALYSIS_MODEL'])
      expect(body.message).toContain(name);
  });

  itBehavesLikeEveryAnalysis(
    {
      handler,
      route: 'estimated-age',
      status: 200,
      badQueries: [
        [{ lang: 'it' }, 'lang is not supported; use one of: en, en-gb, de, es, fr, pl, uk'],
        [{ season: 'winter' }, "unknown query parameter 'season'"],
      ],
    },
    vision,
  );
});
