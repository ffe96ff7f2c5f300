import { describe, expect, it } from 'vitest';
import { eventsFromRecord } from '../../../shared/events/from-stream.ts';
import { aStoredReview } from '../../support/fixtures.ts';
import { streamRecord } from '../../support/stream-records.ts';
import { aStoredMeasurement } from '../../support/factories/respiration.ts';

const record = streamRecord;
const vote = {
  type: 'Vote',
  id: 7,
  account_id: 'acc-1',
  image_id: 'img',
  sub_id: null,
  value: 1,
  country_code: 'DE',
  created_at: '2026-11-22T10:00:00.000Z',
};
const upload = {
  type: 'Image',
  source: 'upload',
  id: 'up1',
  account_id: 'acc-1',
  file: 'uploads/acc-1/up1.jpg',
  sub_id: null,
  breed_ids: [],
  width: null,
  height: null,
  mime_type: 'image/jpeg',
  status: 'pending',
  created_at: '2026-11-22T10:00:00.000Z',
};

describe('events from stream records', () => {
  it('turns an inserted vote into vote.created with a stable id, the account and the country', () => {
    const [a] = eventsFromRecord(record('INSERT', vote), 'https://cdn');
    const [b] = eventsFromRecord(record('INSERT', vote), 'https://cdn');

    expect(a).toMatchObject({
      type: 'vote.created',
      account_id: 'acc-1',
      country_code: 'DE',
      occurred_at: '2026-11-22T12:00:00.000Z',
      resource: { id: 7, value: 1 },
    });
    expect(a!.id).toBe(b!.id);
    expect(a!.id).not.toBe(eventsFromRecord(record('INSERT', vote, undefined, 'rec-2'), 'https://cdn')[0]!.id);
  });

  it('ignores updates, removals and items that are not events', () => {
    expect(eventsFromRecord(record('MODIFY', vote, vote), 'x')).toEqual([]);
    expect(eventsFromRecord(record('REMOVE', undefined, vote), 'x')).toEqual([]);
    expect(eventsFromRecord(record('INSERT', { type: 'Account', id: 'a' }), 'x')).toEqual([]);
    expect(eventsFromRecord(record('INSERT', { ...upload, source: 'catalogue' }), 'x')).toEqual([]);
  });

  it('follows an upload through uploaded, processed and labels_created', () => {
    const uploaded = eventsFromRecord(
      record('MODIFY', upload, { ...upload, status: 'awaiting_upload' }),
      'https://cdn',
    );
    expect(eventsFromRecord(record('INSERT', { ...upload, status: 'awaiting_upload' }), 'https://cdn')).toEqual([]);
    const approved = { ...upload, status: 'approved', width: 10, height: 20 };
    const processed = eventsFromRecord(record('MODIFY', approved, upload), 'https://cdn');
    const labelled = eventsFromRecord(
      record(
        'MODIFY',
        { ...approved, labels: [{ name: 'Dog', confidence: 0.9 }], label_source: 'rekognition' },
        approved,
      ),
      'https://cdn',
    );

    expect(uploaded.map((e) => e.type)).toEqual(['image.uploaded']);
    expect(uploaded[0]!.resource).toMatchObject({ url: 'https://cdn/uploads/acc-1/up1.jpg' });
    expect(processed.map((e) => e.type)).toEqual(['image.processed']);
    expect(processed[0]!.resource).toMatchObject({ status: 'approved', reason: null });
    expect(labelled.map((e) => e.type)).toEqual(['image.labels_created']);
  });

  it('announces a respiratory-rate measurement once, when it leaves processing, completed or failed', () => {
    const measurement = aStoredMeasurement({ account_id: 'acc-1', lang: 'es' });
    const completed = {
      ...measurement,
      status: 'completed',
      breaths_per_minute: 18.5,
      within_baseline: true,
      signal_quality: 9.2,
      generated_at: '2026-11-22T10:00:04.000Z',
    };
    const failed = { ...measurement, status: 'failed', reason: 'too_dark', generated_at: '2026-11-22T10:00:04.000Z' };

    expect(eventsFromRecord(record('INSERT', measurement), '')).toEqual([]);
    expect(eventsFromRecord(record('MODIFY', { ...measurement, attempts: 2 }, measurement), '')).toEqual([]);
    const [done] = eventsFromRecord(record('MODIFY', completed, measurement), '');
    expect(done).toMatchObject({
      type: 'pet.respiratory_rate.completed',
      account_id: 'acc-1',
      resource: {
        id: 'rr-1',
        pet_id: 'pet-1',
        status: 'completed',
        breaths_per_minute: 18.5,
        breed_baseline: { low: 10, high: 30 },
        within_baseline: true,
        video_id: 'v-1',
        generated_at: '2026-11-22T10:00:04.000Z',
        sub_id: 'user-1',
        external_owner_id: 'owner-1',
        // In the language of the request.
        disclaimer: expect.stringContaining('no un diagnóstico veterinario'),
        validation: expect.stringContaining('docs/respiratory-rate.md#accuracy'),
      },
    });
    expect(done!.resource).not.toHaveProperty('attempts');
    const [refused] = eventsFromRecord(record('MODIFY', failed, measurement), '');
    expect(refused!.resource).toMatchObject({ status: 'failed', reason: 'too_dark' });
    expect(refused!.resource).not.toHaveProperty('breaths_per_minute');
  });

  it('adds pet.respiratory_rate.alert when the completing write holds an alert, under an id of the measurement', () => {
    const measurement = aStoredMeasurement({ account_id: 'acc-1' });
    const alert = {
      rules: ['threshold'],
      rule: { threshold_bpm: 30, rise_percent: 25 },
      baseline_bpm: 20,
      baseline_measurements: 3,
      change_percent: 70,
    };
    const completed = {
      ...measurement,
      status: 'completed',
      breaths_per_minute: 34,
      within_baseline: false,
      signal_quality: 9.2,
      generated_at: '2026-11-22T10:00:04.000Z',
    };
    const first = eventsFromRecord(record('MODIFY', { ...completed, alert }, measurement), '');
    const reread = eventsFromRecord(record('MODIFY', { ...completed, alert }, measurement, 'rec-2'), '');

    expect(first.map((e) => e.type)).toEqual(['pet.respiratory_rate.completed', 'pet.respiratory_rate.alert']);
    expect(first[1]!.resource).toEqual(first[0]!.resource);
    expect(first[1]!.resource).toMatchObject({ breaths_per_minute: 34, alert });
    // One measurement, one alert id, whichever stream record carries it; the completion's id is the record's.
    expect(reread[1]!.id).toBe(first[1]!.id);
    expect(reread[0]!.id).not.toBe(first[0]!.id);
    expect(
      eventsFromRecord(record('MODIFY', { ...completed, alert: null }, measurement), '').map((e) => e.type),
    ).toEqual(['pet.respiratory_rate.completed']);
    expect(eventsFromRecord(record('MODIFY', { ...completed, alert }, { ...completed, alert }), '')).toEqual([]);
  });
});

describe('body condition review events', () => {
  const pending = { type: 'BcsReview', ...aStoredReview() };
  const completed = { ...pending, status: 'completed', score: 5, category: 'ideal', decided_at: 'x', decided_by: 'v' };

  it('announces a new review as pet.bcs.review_requested: the review with the pet’s integrator ids, no accounts', () => {
    const [requested, ...rest] = eventsFromRecord(record('INSERT', pending), 'x');

    expect(rest).toEqual([]);
    expect(requested).toMatchObject({
      type: 'pet.bcs.review_requested',
      account_id: 'acc-user',
      resource: { id: 'rev-1', pet_id: 'pet-1', status: 'pending', sub_id: 'user-1', external_owner_id: 'owner-1' },
    });
    expect(requested!.resource).not.toHaveProperty('account_id');
    expect(requested!.resource).not.toHaveProperty('decided_by');
  });

  it('announces the decision once as pet.bcs.reviewed, and nothing for other changes', () => {
    const reviewed = eventsFromRecord(record('MODIFY', completed, pending), 'x');

    expect(reviewed.map((e) => e.type)).toEqual(['pet.bcs.reviewed']);
    expect(reviewed[0]!.resource).toMatchObject({ status: 'completed', score: 5, category: 'ideal' });
    expect(eventsFromRecord(record('MODIFY', completed, completed), 'x')).toEqual([]);
    expect(eventsFromRecord(record('REMOVE', undefined, completed), 'x')).toEqual([]);
    expect(eventsFromRecord(record('INSERT', { type: 'BcsReviewPending', review_id: 'rev-1' }), 'x')).toEqual([]);
  });

  it('carries the model’s reasoning, and null for a review requested before reviews kept it', () => {
    const [requested] = eventsFromRecord(record('INSERT', pending), 'x');
    expect(requested!.resource).toMatchObject({ analysis: { explanation: 'Waist barely visible' } });

    const { explanation: _none, ...olderSnapshot } = pending.analysis;
    const older = { ...pending, analysis: olderSnapshot };
    const [reviewed] = eventsFromRecord(record('MODIFY', { ...completed, analysis: olderSnapshot }, older), 'x');
    expect(reviewed!.resource).toMatchObject({ status: 'completed', analysis: { score: 7, explanation: null } });
  });
});
