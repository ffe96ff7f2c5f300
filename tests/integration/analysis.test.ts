// Photo analysis end to end: the local stack's analysis routes, the real openai adapter over real HTTP, and the fake
// OpenAI-compatible server the test setup started (tests/support/fake-vision-server.ts).
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createAccount } from '../support/api-client.ts';
import { petItemCount } from '../support/pet-partition.ts';
import { addPhotos, aPet, aPetWithReadyPhotos, aPhoto, settled } from '../support/factories/pets.ts';
import { visionCalls, visionRules } from '../support/vision-control.ts';

let key: string;
let otherKey: string;

beforeAll(async () => {
  key = (await createAccount({ features: ['body_condition', 'calculators'] })).api_key;
  otherKey = (await createAccount()).api_key;
});

/** A pet with a unique name (the fake server's rules and call log select by it) and ready photos. */
const petWithPhotos = (fields: Record<string, string> = {}, photoCount = 1, owner = () => key) =>
  aPetWithReadyPhotos(owner(), fields, photoCount);

const analyse = (petId: string, what: string, query = '', apiKey = key) =>
  api('POST', `/pets/${petId}/${what}${query}`, { key: apiKey });

describe('analysis routes: shapes', () => {
  it('body condition score: WSAVA score, computed category, prompt version, model, photos, lang, not cached', async () => {
    const pet = await petWithPhotos();
    await visionRules({
      match: pet.name,
      name: 'body_condition_score',
      mode: 'ok',
      answer: { score: 7, confidence: 0.8, explanation: 'Waist barely visible', recommendations: ['Cut treats'] },
    });
    const res = await analyse(pet.id, 'body-condition-score', '?season=winter&country=gb');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      pet_id: pet.id,
      type: 'body_condition_score',
      prompt_version: 'v1',
      model: { provider: 'openai', id: 'fake-vision-1' },
      image_ids: pet.imageIds,
      lang: 'en',
      season: 'winter',
      country: 'GB',
      cached: false,
      score: 7,
      scale: 9,
      category: 'overweight',
      confidence: 0.8,
      recommendations: ['Cut treats'],
    });
    const [call] = await visionCalls(pet.name);
    expect(call).toMatchObject({ model: 'fake-vision-1', name: 'body_condition_score', strict: true, images: 1 });
    expect(call!.authorization).toBe('Bearer fake-key');
    expect(call!.prompt).toContain('Season: winter');
    expect(call!.prompt).toContain('Country: GB');
  });

  it('estimated age: months, range and a computed life stage', async () => {
    const pet = await petWithPhotos();
    await visionRules({
      match: pet.name,
      name: 'estimated_age',
      mode: 'ok',
      answer: { age_months: 100, age_range_months: { min: 84, max: 120 }, confidence: 0.6, reasons: 'Grey muzzle' },
    });
    const res = await analyse(pet.id, 'estimated-age');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'estimated_age', age_months: 100, life_stage: 'senior', cached: false });
  });

  it('genealogy: catalogue breeds; a low-confidence breed and an unknown name are unresolved, summing to 100', async () => {
    const pet = await petWithPhotos();
    await visionRules({
      match: pet.name,
      name: 'genealogy',
      mode: 'ok',
      answer: {
        is_mixed_breed: true,
        breeds: [
          { name: 'Alsatian', percentage: 60, confidence: 0.8 },
          { name: 'Space Wolf', percentage: 25, confidence: 0.7 },
          { name: 'labrador retriever', percentage: 20, confidence: 0.3 },
        ],
        predicted_age_months: 30,
        predicted_sex: 'male',
        confidence: 0.55,
        description: 'A sturdy mix',
      },
    });
    const res = await analyse(pet.id, 'genealogy', '?lang=pl');
    expect(res.status).toBe(200);
    // 60/25/20 is 105: scaled down to 57.1, 23.8, 19.0 → 57, 24, 19 (largest remainder); only the Alsatian resolves
    expect(res.body.breeds).toEqual([
      { breed_id: 'german-shepherd-dog', name: 'German Shepherd Dog', percentage: 57, confidence: 0.8 },
    ]);
    expect(res.body.unresolved).toBe(43);
    expect(res.body.unresolved_breeds).toEqual([
      { name: 'Space Wolf', percentage: 24, confidence: 0.7, reason: 'not_in_catalogue' },
      { name: 'Labrador Retriever', percentage: 19, confidence: 0.3, reason: 'low_confidence' },
    ]);
    expect(res.body.breeds[0].percentage + res.body.unresolved).toBe(100);
    expect(res.body).toMatchObject({ is_mixed_breed: true, predicted_sex: 'male', predicted_life_stage: 'adult' });
    expect(res.body.disclaimer).toContain('nie diagnoza weterynaryjna');
    expect(res.body.validation).toContain('docs/analysis.md#validation');
  });

  it('muscle condition: WSAVA grade and a wasting-risk flag', async () => {
    const pet = await petWithPhotos();
    await visionRules({
      match: pet.name,
      name: 'muscle_condition_score',
      mode: 'ok',
      answer: {
        muscle_condition: 'moderate_loss',
        confidence: 0.7,
        explanation: 'Spine prominent',
        recommendations: ['See a vet'],
      },
    });
    const res = await analyse(pet.id, 'muscle-condition-score');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: 'muscle_condition_score',
      muscle_condition: 'moderate_loss',
      wasting_risk: true,
    });
  });

  it('estimated weight → 201: c × model + (1 − c) × breed standard by sex × BCS factor, hand-computed', async () => {
    const pet = await petWithPhotos({ breed_ids: 'german-shepherd-dog', sex: 'male' });
    await visionRules({
      match: pet.name,
      name: 'estimated_weight',
      mode: 'ok',
      answer: { weight_kg: 30, weight_range_kg: { min: 28, max: 34 }, confidence: 0.6, reasons: 'Medium-large build' },
    });
    // Standard 23–41 kg; a male takes the upper half 32–41 (mid 36.5); no BCS yet:
    // 0.6 × 30 + 0.4 × 36.5 = 32.6; range 0.6 × 28 + 0.4 × 32 = 29.6 to 0.6 × 34 + 0.4 × 41 = 36.8
    const first = await analyse(pet.id, 'estimated-weight');
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({
      type: 'estimated_weight',
      method: 'model_and_breed_standard',
      weight_kg: 32.6,
      weight_range_kg: { min: 29.6, max: 36.8 },
      size_class: 'large',
      breed_standard_kg: { min: 32, max: 41 },
      body_condition_score: null,
      model_weight: 30,
    });

    // After a BCS of 7 the prior is 1.2 × (32–41) = 38.4–49.2 (mid 43.8): 0.6 × 30 + 0.4 × 43.8 = 35.5
    await visionRules({
      match: pet.name,
      name: 'body_condition_score',
      mode: 'ok',
      answer: { score: 7, confidence: 0.9, explanation: 'Heavy', recommendations: ['Less food'] },
    });
    expect((await analyse(pet.id, 'body-condition-score')).body.score).toBe(7);
    const second = await analyse(pet.id, 'estimated-weight');
    expect(second.body).toMatchObject({
      cached: true,
      weight_kg: 35.5,
      weight_range_kg: { min: 32.2, max: 40.1 },
      body_condition_score: 7,
    });
    // Pounds from the same estimate: 35.5 kg / 0.45359237 = 78.3 lb; the kilograms stay
    const imperial = await analyse(pet.id, 'estimated-weight', '?units=imperial');
    expect(imperial.body).toMatchObject({
      cached: true,
      units: 'imperial',
      weight_kg: 35.5,
      weight_lb: 78.3,
      weight_range_lb: { min: 71, max: 88.4 },
      model_weight_lb: 66.1,
    });
  });

  it('health tips: seeded tips of the breed and species plus generated tips built on earlier results', async () => {
    const pet = await petWithPhotos({ breed_ids: 'german-shepherd-dog' });
    await visionRules(
      {
        match: pet.name,
        name: 'body_condition_score',
        mode: 'ok',
        answer: { score: 8, confidence: 0.9, explanation: 'Obese', recommendations: ['Diet'] },
      },
      {
        match: pet.name,
        name: 'health_tips',
        mode: 'ok',
        answer: { tips: [{ category: 'nutrition', title: 'Smaller meals', tip: 'Weigh the food every day.' }] },
      },
    );
    await analyse(pet.id, 'body-condition-score');
    const res = await api('GET', `/pets/${pet.id}/health-tips?include_sources=true`, { key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const origins = res.body.items.map((t: { origin: string }) => t.origin);
    expect(origins).toContain('seeded');
    expect(
      res.body.items
        .filter((t: { origin: string }) => t.origin === 'seeded')
        .every((t: { sources?: unknown[] }) => Array.isArray(t.sources)),
    ).toBe(true);
    expect(res.body.items.filter((t: { origin: string }) => t.origin === 'generated')).toEqual([
      expect.objectContaining({ category: 'nutrition', title: 'Smaller meals' }),
    ]);
    expect(res.body.generated).toMatchObject({ prompt_version: 'v1', cached: false });
    const tipsCall = (await visionCalls(pet.name)).find((c) => c.name === 'health_tips')!;
    expect(tipsCall.prompt).toContain('Earlier body condition score result: score 8 of 9 (obese)');

    const unseeded = await api('GET', `/pets/${pet.id}/health-tips?include_seeded=false`, { key });
    expect(unseeded.body.items.map((t: { origin: string }) => t.origin)).toEqual(['generated']);
    expect(unseeded.body.generated.cached).toBe(true);
  });
});

describe('analysis routes: errors', () => {
  it('400 for a pet without photos, 403 for another account or without body_condition, 404 for an unknown pet', async () => {
    const bare = await aPet(key, { name: `Bare-${randomUUID().slice(0, 8)}` });
    expect(bare.status).toBe(201);
    for (const what of [
      'estimated-age',
      'genealogy',
      'muscle-condition-score',
      'estimated-weight',
      'body-condition-score',
    ]) {
      const res = await analyse(bare.body.id, what);
      expect(res.status, what).toBe(400);
      expect(res.body.code).toBe('pet_has_no_photos');
    }
    expect((await api('GET', `/pets/${bare.body.id}/health-tips`, { key })).status).toBe(400);

    const pet = await petWithPhotos();
    expect((await analyse(pet.id, 'estimated-age', '', otherKey)).status).toBe(403);
    const noFeature = await petWithPhotos({}, 1, () => otherKey);
    const forbidden = await analyse(noFeature.id, 'body-condition-score', '', otherKey);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.message).toContain('body_condition');
    expect((await analyse('01JNOSUCHPET0000000000000', 'estimated-age')).status).toBe(404);
    expect((await analyse(pet.id, 'body-condition-score', '?season=monsoon')).status).toBe(400);
    expect((await analyse(pet.id, 'estimated-age', '?lang=xx')).status).toBe(400);
  });

  it('right after a pet is created with a photo: waits for it and answers 200 on it (not 400), and a vet review follows', async () => {
    const created = await aPet(key, { name: `Fresh-${randomUUID().slice(0, 8)}` }, [await aPhoto(4_032)]);
    expect(created.status).toBe(201);
    expect(created.body.images[0].status).toBe('pending');

    const scored = await analyse(created.body.id, 'body-condition-score');
    expect(scored.status, JSON.stringify(scored.body)).toBe(200);
    expect(scored.body.image_ids).toEqual([created.body.images[0].id]);
    const review = await api('POST', `/pets/${created.body.id}/body-condition-score/reviews`, { key });
    expect(review.status, JSON.stringify(review.body)).toBe(201);

    const added = await addPhotos(key, created.body.id, [await aPhoto(4_033)]);
    const tips = await api('GET', `/pets/${created.body.id}/health-tips`, { key });
    expect(tips.status, JSON.stringify(tips.body)).toBe(200);
    expect(tips.body.generated.image_ids).toContain(added.body[0].id);
  });

  it('503 analysis_unavailable with Retry-After when the provider fails, is slow or answers invalid JSON; nothing cached', async () => {
    const pet = await petWithPhotos();
    for (const rule of [
      { mode: 'fail' as const },
      { mode: 'throttle' as const },
      { mode: 'slow' as const, delayMs: 9000 },
      { mode: 'invalid_json' as const },
    ]) {
      await visionRules({ match: pet.name, ...rule, times: rule.mode === 'invalid_json' ? 2 : 1 });
      const before = (await visionCalls(pet.name)).length;
      const res = await analyse(pet.id, 'estimated-age');
      expect(res.status, rule.mode).toBe(503);
      expect(res.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable', code: 'analysis_unavailable' });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      // an invalid answer is asked again once; the others are not retried
      expect((await visionCalls(pet.name)).length - before, rule.mode).toBe(rule.mode === 'invalid_json' ? 2 : 1);
    }
    const recovered = await analyse(pet.id, 'estimated-age');
    expect(recovered.status).toBe(200);
    expect(recovered.body.cached).toBe(false);
  });
});

describe('caching per request signature', () => {
  it('a repeat is cached with no provider call; another lang is a new signature; a new photo invalidates', async () => {
    const pet = await petWithPhotos();
    const first = await analyse(pet.id, 'estimated-age');
    expect(first.body.cached).toBe(false);
    const again = await analyse(pet.id, 'estimated-age');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ cached: true, id: first.body.id });
    expect(await visionCalls(pet.name)).toHaveLength(1);

    const german = await analyse(pet.id, 'estimated-age', '?lang=de');
    expect(german.body).toMatchObject({
      cached: false,
      lang: 'de',
      reasons: expect.stringContaining('answer language asked: de'),
    });
    const calls = await visionCalls(pet.name);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.prompt).toContain('German (language code de)');

    const added = await addPhotos(key, pet.id, [await aPhoto(4242, 320, 240)]);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const newId = added.body[0].id;
    expect((await settled(key, pet.id, newId)).body.status).toBe('ready');
    const afterPhoto = await analyse(pet.id, 'estimated-age');
    expect(afterPhoto.body.cached).toBe(false);
    expect(afterPhoto.body.image_ids).toEqual([newId, ...pet.imageIds]);
    expect(await visionCalls(pet.name)).toHaveLength(3);
  });

  it('the model sees the newest four photos of a pet with five', async () => {
    const pet = await petWithPhotos({}, 5);
    const res = await analyse(pet.id, 'estimated-age');
    expect(res.status).toBe(200);
    expect(res.body.image_ids).toHaveLength(4);
    expect(res.body.image_ids).toEqual([...pet.imageIds].sort().reverse().slice(0, 4));
    expect((await visionCalls(pet.name))[0]!.images).toBe(4);
  });

  it('5 concurrent identical requests make one provider call', async () => {
    const pet = await petWithPhotos();
    await visionRules({ match: pet.name, mode: 'slow', delayMs: 800 });
    const results = await Promise.all(Array.from({ length: 5 }, () => analyse(pet.id, 'genealogy')));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(results.filter((r) => r.body.cached === false)).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(await visionCalls(pet.name)).toHaveLength(1);
  });

  it('compare_version includes the earlier result only when one is cached for that version', async () => {
    const pet = await petWithPhotos();
    const plain = await analyse(pet.id, 'body-condition-score');
    expect(plain.body.comparison).toBeUndefined();
    const compared = await analyse(pet.id, 'body-condition-score', '?compare_version=v1');
    expect(compared.body.comparison).toMatchObject({ prompt_version: 'v1', result: { id: plain.body.id, score: 5 } });
    const none = await analyse(pet.id, 'body-condition-score', '?compare_version=v0');
    expect(none.body.comparison).toBeNull();
  });

  it('deleting the pet deletes its results', async () => {
    const pet = await petWithPhotos();
    expect((await analyse(pet.id, 'estimated-age')).status).toBe(200);
    expect(await petItemCount(pet.id, 'ANALYSIS')).toBe(2); // the result and the latest-result pointer
    expect((await api('DELETE', `/pets/${pet.id}`, { key })).status).toBe(200);
    expect(await petItemCount(pet.id, 'ANALYSIS')).toBe(0);
    expect((await analyse(pet.id, 'estimated-age')).status).toBe(404);
  });
});

describe('calculators through the local stack', () => {
  it('hand-computed energy of a 20 kg neutered dog, 422 weight_required without a usable weight', async () => {
    const res = await api('POST', '/calculators/energy-requirement', {
      key,
      body: { species_id: 'dog', weight_kg: 20, age_months: 36, neuter_status: 'neutered' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ rer_kcal_per_day: 662, mer: { selected_kcal_per_day: 1059 } });
    const imperial = await api('POST', '/calculators/energy-requirement?units=imperial', {
      key,
      body: { species_id: 'dog', weight_kg: 20, age_months: 36, neuter_status: 'neutered' },
    });
    expect(imperial.body).toMatchObject({ weight_kg: 20, weight_lb: 44.1, units: 'imperial', rer_kcal_per_day: 662 });
    const none = await api('POST', '/calculators/energy-requirement', { key, body: { species_id: 'cat' } });
    expect(none.status).toBe(422);
    expect(none.body.code).toBe('weight_required');
  });
});
