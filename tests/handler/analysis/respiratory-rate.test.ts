import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { handler as measure } from '../../../events/analysis/measure-respiratory-rate.ts';
import { handler as create } from '../../../functions/analysis/create-respiratory-rate.ts';
import { handler as read } from '../../../functions/analysis/get-respiratory-rate.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import { anAccount, mockDynamoWithAccounts, USER_KEY } from '../../support/fixtures.ts';
import { callWithKey, httpEvent, jsonBody, lambdaContext, postWithKey } from '../../support/http-event.ts';
import { aStoredMeasurement } from '../../support/factories/respiration.ts';
import { renderBreathingVideo } from '../../support/breathing-video.ts';
import { aStoredPet, servePet } from '../pets/pet-fixtures.ts';
import { conditionalCheckFailed, conditionFailsOn } from '../../support/dynamo-errors.ts';
import { allWrites, writesTo, writeTo } from '../../support/dynamo-writes.ts';
import { petKey, petRecordKey, respiratoryRateKey } from '../../../shared/db/keys.ts';

const s3 = mockClient(S3Client);
const video = (id: string, status: string, kind = 'video') => ({
  pk: 'PET#pet-1',
  sk: `MEDIA#${id}`,
  type: 'PetMedia',
  id,
  account_id: 'acc-user',
  pet_id: 'pet-1',
  kind,
  status,
  file: `pets/videos/acc-user/pet-1/${id}.mp4`,
  display_key: status === 'ready' ? `pets/media/acc-user/pet-1/${id}/video.mp4` : null,
  content_type: 'video/mp4',
  bytes: 1000,
  created_at: '2026-11-22T09:00:00.000Z',
});
const post = (body: unknown, key = USER_KEY) =>
  postWithKey(create, key, '/pets/pet-1/respiratory-rate', body, { petId: 'pet-1' });

const inserted = (n: number): DynamoDBRecord => ({
  eventName: 'INSERT',
  dynamodb: { SequenceNumber: String(n), NewImage: marshall(aStoredMeasurement({ attempts: 0 })) as never },
});

describe('respiratory rate: the request, the record and the measuring consumer', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  beforeEach(() => {
    ddb = mockDynamoWithAccounts([
      { apiKey: USER_KEY, account: anAccount({ features: ['respiratory_rate'] }) },
      { apiKey: 'live_no-feature', account: anAccount({ id: 'acc-plain' }) },
    ]);
    servePet(ddb, aStoredPet({ species_id: 'cat' }));
    ddb.on(QueryCommand).resolves({ Items: [video('v-2', 'pending'), video('v-1', 'ready')] });
    ddb.on(TransactWriteCommand).resolves({});
    s3.reset();
    setDepsForTest({ newId: () => 'rr-1', now: () => new Date('2026-11-22T10:00:00Z') });
  });

  it('answers 202 and records a processing measurement of the newest ready video with the species baseline', async () => {
    const result = await post({});

    expect(result.statusCode).toBe(202);
    expect(jsonBody(result)).toEqual({
      id: 'rr-1',
      pet_id: 'pet-1',
      video_id: 'v-1',
      status: 'processing',
      created_at: '2026-11-22T10:00:00.000Z',
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
    // Never over another measurement, and only while the pet exists.
    expect(writeTo(ddb, respiratoryRateKey('pet-1', 'rr-1'))).toMatchObject({
      put: { type: 'RespiratoryRate', status: 'processing', breed_baseline: { low: 20, high: 30 } },
      conditional: true,
    });
    expect(writeTo(ddb, petKey('pet-1'))).toMatchObject({ check: true, conditional: true });
  });

  it("keeps the request's language for the disclaimer of the result and its webhook, English by default", async () => {
    const inGerman = httpEvent({
      method: 'POST',
      path: '/v1/pets/pet-1/respiratory-rate',
      headers: { 'x-api-key': USER_KEY },
      query: { lang: 'de' },
      body: {},
      pathParameters: { petId: 'pet-1' },
    });
    expect((await create(inGerman, lambdaContext)).statusCode).toBe(202);
    expect(writeTo(ddb, respiratoryRateKey('pet-1', 'rr-1')).put).toMatchObject({ lang: 'de' });

    ddb.resetHistory();
    await post({});
    expect(writeTo(ddb, respiratoryRateKey('pet-1', 'rr-1')).put).toMatchObject({ lang: 'en' });
  });

  it('needs the early-access feature', async () => {
    const result = await post({}, 'live_no-feature');
    expect(result.statusCode).toBe(403);
    expect(jsonBody(result)).toMatchObject({ code: 'feature_not_enabled' });
  });

  it('answers 400 when the pet has no video, or none processed yet, and writes nothing', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });
    expect(jsonBody(await post({}))).toMatchObject({ statusCode: 400, code: 'pet_has_no_videos' });
    ddb.on(QueryCommand).resolves({ Items: [video('v-2', 'pending')] });
    expect(jsonBody(await post({}))).toMatchObject({ statusCode: 400, code: 'video_not_ready' });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('takes a named video of the pet, and refuses photos and ids the pet does not have as the media routes do', async () => {
    ddb
      .on(GetCommand, { Key: { pk: 'PET#pet-1', sk: 'MEDIA#v-9' } } as never)
      .resolves({ Item: video('v-9', 'ready') });
    ddb
      .on(GetCommand, { Key: { pk: 'PET#pet-1', sk: 'MEDIA#ph-1' } } as never)
      .resolves({ Item: { ...video('ph-1', 'ready', 'photo'), content_type: 'image/jpeg' } });

    expect(jsonBody(await post({ video_id: 'v-9' }))).toMatchObject({ video_id: 'v-9', status: 'processing' });
    expect(jsonBody(await post({ video_id: 'ph-1' }))).toMatchObject({ statusCode: 400, code: 'not_a_video' });
    expect(jsonBody(await post({ video_id: 'nope' }))).toMatchObject({
      statusCode: 404,
      message: 'Image nope does not exist on pet pet-1',
    });
    expect(jsonBody(await post({ video_id: 'v-1', extra: true }))).toMatchObject({ statusCode: 400 });
  });

  it('reads a finished measurement in the spec shape', async () => {
    ddb.on(GetCommand, { Key: { pk: 'PET#pet-1', sk: 'RESPIRATORY#rr-1' } } as never).resolves({
      Item: aStoredMeasurement({
        status: 'completed',
        breaths_per_minute: 24.5,
        within_baseline: true,
        signal_quality: 12.3,
        generated_at: '2026-11-22T10:00:05.000Z',
      }),
    });
    const get = (id: string, query?: Record<string, string>) =>
      callWithKey(read, USER_KEY, `/pets/pet-1/respiratory-rate/${id}`, query, {
        petId: 'pet-1',
        measurementId: id,
      });

    expect(jsonBody(await get('rr-1'))).toEqual({
      id: 'rr-1',
      pet_id: 'pet-1',
      video_id: 'v-1',
      status: 'completed',
      breaths_per_minute: 24.5,
      breed_baseline: { low: 10, high: 30 },
      within_baseline: true,
      signal_quality: 12.3,
      created_at: '2026-11-22T10:00:00.000Z',
      generated_at: '2026-11-22T10:00:05.000Z',
      alert: null,
      disclaimer:
        "A breathing rate measured from a video, not a veterinary diagnosis: see a vet about your pet's health.",
      validation: expect.stringMatching(
        /^Videos rendered at 12–45 breaths a minute .*: docs\/respiratory-rate\.md#accuracy$/,
      ),
    });
    // In the language asked for, else the request's (stored with the measurement).
    expect(jsonBody(await get('rr-1', { lang: 'fr' })).disclaimer).toMatch(/pas un diagnostic vétérinaire/);
    expect(jsonBody(await get('rr-1', { lang: 'klingon' }))).toMatchObject({ statusCode: 400 });
    expect((await get('rr-2')).statusCode).toBe(404);
  });

  describe('the measuring consumer', () => {
    /** The writes that end a measurement: its status, set only while it is processing. */
    const finished = () =>
      allWrites(ddb).filter(({ update, conditionValues }) => update?.status && conditionValues[0] === 'processing');

    it('handles only new processing measurements', async () => {
      const other: DynamoDBRecord = {
        eventName: 'MODIFY',
        dynamodb: { SequenceNumber: '1', NewImage: marshall(aStoredMeasurement({ status: 'completed' })) as never },
      };
      expect(await measure({ Records: [other] })).toEqual({ batchItemFailures: [] });
      expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
    });

    it('leaves a measurement alone that is already finished or was deleted with its pet', async () => {
      ddb.on(UpdateCommand).rejects(conditionalCheckFailed());
      expect(await measure({ Records: [inserted(1)] })).toEqual({ batchItemFailures: [] });
      expect(finished()).toHaveLength(0);
    });

    it('ends failed (video_unavailable) when the video was deleted before it was measured', async () => {
      ddb.on(UpdateCommand).resolves({ Attributes: aStoredMeasurement() });
      expect(await measure({ Records: [inserted(1)] })).toEqual({ batchItemFailures: [] });
      expect(finished()[0]!.update).toMatchObject({ status: 'failed', reason: 'video_unavailable' });
      // A failed measurement has no result to keep.
      expect(writesTo(ddb, petRecordKey('pet-1', 'rr-1'))).toEqual([]);
    });

    it('reports a failing attempt to the stream, and ends failed after the last attempt', async () => {
      ddb
        .on(GetCommand, { Key: { pk: 'PET#pet-1', sk: 'MEDIA#v-1' } } as never)
        .resolves({ Item: video('v-1', 'ready') });
      ddb.on(UpdateCommand).resolves({ Attributes: aStoredMeasurement({ attempts: 2 }) });
      s3.on(GetObjectCommand).rejects(new Error('S3 is having a moment'));
      expect(await measure({ Records: [inserted(7)] })).toEqual({ batchItemFailures: [{ itemIdentifier: '7' }] });
      expect(finished()).toHaveLength(0);

      ddb.on(UpdateCommand).resolves({ Attributes: aStoredMeasurement({ attempts: 4 }) });
      expect(await measure({ Records: [inserted(7)] })).toEqual({ batchItemFailures: [] });
      expect(finished()[0]!.update).toMatchObject({ status: 'failed', reason: 'measurement_error' });
    });

    describe('a completed rate and the alert rule', () => {
      // A clip the consumer measures at exactly 34 breaths a minute (tests/integration/respiratory-alerts.test.ts).
      let clip: Buffer;
      const dir = mkdtempSync(join(tmpdir(), 'breathing-34-'));
      beforeAll(async () => {
        await renderBreathingVideo(join(dir, 'clip.mp4'), { bpm: 34, seconds: 12 });
        clip = readFileSync(join(dir, 'clip.mp4'));
      }, 60_000);
      afterAll(() => rmSync(dir, { recursive: true, force: true }));

      const earlier = (...rates: number[]) =>
        rates.map((rate, i) =>
          aStoredMeasurement({ id: `rr-0${i}`, status: 'completed', breaths_per_minute: rate, signal_quality: 9 }),
        );
      const measureWith = async (measurement: Record<string, unknown>, before: Record<string, unknown>[]) => {
        ddb
          .on(GetCommand, { Key: { pk: 'PET#pet-1', sk: 'MEDIA#v-1' } } as never)
          .resolves({ Item: video('v-1', 'ready') });
        ddb.on(UpdateCommand).resolves({ Attributes: measurement });
        ddb.on(QueryCommand).resolves({ Items: before });
        s3.on(GetObjectCommand).callsFake(() => ({ Body: Readable.from(clip) }));
        expect(await measure({ Records: [inserted(1)] })).toEqual({ batchItemFailures: [] });
        return finished()[0]!.update;
      };

      it('stores the alert in the write that completes the measurement: the species default fires both rules over a baseline of 20', async () => {
        const done = await measureWith(aStoredMeasurement({ attempts: 1 }), earlier(20, 21, 20));

        expect(done).toMatchObject({
          status: 'completed',
          breaths_per_minute: 34,
          alert: {
            rules: ['threshold', 'rise'],
            rule: { threshold_bpm: 30, rise_percent: 25 },
            baseline_bpm: 20,
            baseline_measurements: 3,
            change_percent: 70,
          },
        });
      });

      it('keeps the completed measurement as a record of the pet, in the same transaction, while the pet exists', async () => {
        await measureWith(aStoredMeasurement({ attempts: 1, lang: 'de' }), earlier(20, 21, 20));

        expect(writeTo(ddb, petRecordKey('pet-1', 'rr-1')).put?.record).toEqual({
          id: 'rr-1',
          pet_id: 'pet-1',
          type: 'respiratory_rate',
          created_at: '2026-11-22T10:00:00.000Z',
          result: {
            breaths_per_minute: 34,
            breed_baseline: { low: 10, high: 30 },
            within_baseline: false,
            signal_quality: expect.any(Number),
            alert: expect.objectContaining({ rules: ['threshold', 'rise'], baseline_bpm: 20 }),
          },
          // The SHA-256 of the bytes measured: the served copy the owner can download.
          inputs: [{ kind: 'video', id: 'v-1', sha256: createHash('sha256').update(clip).digest('hex') }],
          provider: null,
          model_id: null,
          method_version: 'motion-spectrum-1',
          lang: 'de',
          season: null,
          country: null,
          asked_by: { account_id: 'acc-user', sub_id: 'user-1' },
          vet: null,
        });
        expect(writeTo(ddb, petKey('pet-1')).check).toBe(true);
        expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
      });

      it('leaves nothing when the pet was deleted while the video was measured, and does not retry', async () => {
        ddb.on(TransactWriteCommand).callsFake(conditionFailsOn(petKey('pet-1')));

        expect(await measureWith(aStoredMeasurement({ attempts: 1 }), earlier())).toMatchObject({
          status: 'completed',
        });
      });

      it('judges by the rule fixed at the request, and stores no alert when it does not fire', async () => {
        const rule = { threshold_bpm: 40, rise_percent: 25 };
        const done = await measureWith(aStoredMeasurement({ attempts: 1, alert_rule: rule }), earlier(30, 34, 32));

        expect(done).toMatchObject({ status: 'completed', breaths_per_minute: 34, alert: null });
      });
    });
  });
});
