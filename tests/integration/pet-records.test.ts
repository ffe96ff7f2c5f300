// The pet's record on the local stack: records outlive the analysis cache (the test stack caches results for 20 s,
// tests/support/local-stack-setup.ts), go with the pet, and export whole, in order, with the inputs' hashes.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createAccount } from '../support/api-client.ts';
import { petItemCount } from '../support/pet-partition.ts';
import { aPetWithReadyPhotos } from '../support/factories/pets.ts';
import { TEST_ANALYSIS_RESULT_TTL_SECONDS } from '../support/local-stack-setup.ts';
import { visionRules } from '../support/vision-control.ts';

let key: string;
beforeAll(async () => {
  key = (await createAccount({ features: ['body_condition'] })).api_key;
});

/** The SHA-256 the service holds for each photo of the pet, by id. */
async function photoHashes(petId: string, imageIds: string[]) {
  const media = await Promise.all(imageIds.map((id) => api('GET', `/pets/${petId}/images/${id}`, { key })));
  return Object.fromEntries(media.map((m) => [m.body.id, m.body.sha256]));
}

const analyse = (petId: string, what: string) => api('POST', `/pets/${petId}/${what}`, { key });

describe('the pet record', () => {
  it('a record survives its cache item’s expiry, and is gone with the pet', { timeout: 120_000 }, async () => {
    const pet = await aPetWithReadyPhotos(key);
    const hashes = await photoHashes(pet.id, pet.imageIds);
    const first = await analyse(pet.id, 'estimated-age');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ cached: false, record_id: first.body.id });
    const again = await analyse(pet.id, 'estimated-age');
    expect(again.body).toMatchObject({ cached: true, record_id: first.body.id });

    // Past the cache TTL the same request asks the model again: the first result is no longer cached.
    await new Promise((r) => setTimeout(r, (TEST_ANALYSIS_RESULT_TTL_SECONDS + 2) * 1000));
    const rerun = await analyse(pet.id, 'estimated-age');
    expect(rerun.body).toMatchObject({ cached: false, record_id: rerun.body.id });
    expect(rerun.body.record_id).not.toBe(first.body.record_id);

    const kept = await api('GET', `/pets/${pet.id}/records/${first.body.record_id}`, { key });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({
      id: first.body.id,
      type: 'estimated_age',
      provider: 'openai',
      model_id: 'fake-vision-1',
      method_version: 'v1',
      lang: 'en',
      inputs: pet.imageIds.map((id) => ({ kind: 'photo', id, sha256: hashes[id] })),
      asked_by: { account_id: expect.any(String), sub_id: null },
      vet: null,
    });
    expect(kept.body.result).toMatchObject({ age_months: expect.any(Number) });
    const listed = await api('GET', `/pets/${pet.id}/records?type=estimated_age`, { key });
    expect(listed.body.map((r: { id: string }) => r.id)).toEqual([rerun.body.record_id, first.body.record_id]);

    expect((await api('DELETE', `/pets/${pet.id}`, { key })).status).toBe(200);
    expect((await api('GET', `/pets/${pet.id}/records`, { key })).status).toBe(404);
    expect(await petItemCount(pet.id, 'RECORD#')).toBe(0);
  });

  it('exports every record oldest first with the inputs’ hashes, as JSON and as CSV', async () => {
    const pet = await aPetWithReadyPhotos(key, {}, 2);
    const hashes = await photoHashes(pet.id, pet.imageIds);
    await visionRules({
      match: pet.name,
      name: 'body_condition_score',
      mode: 'ok',
      answer: { score: 6, confidence: 0.7, explanation: 'Waist, "barely", seen', recommendations: ['Walk more'] },
    });
    const made: string[] = [];
    for (const what of ['estimated-age', 'body-condition-score', 'muscle-condition-score']) {
      const res = await analyse(pet.id, what);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      made.push(res.body.record_id);
    }

    const exported = await api('GET', `/pets/${pet.id}/records/export`, { key });
    expect(exported.status).toBe(200);
    expect(exported.body).toMatchObject({ pet: { id: pet.id, name: pet.name }, record_count: 3 });
    expect(exported.body.records.map((r: { id: string }) => r.id)).toEqual(made);
    const inputs = [...pet.imageIds]
      .sort()
      .reverse()
      .map((id) => ({ kind: 'photo', id, sha256: hashes[id] }));
    for (const record of exported.body.records) expect(record.inputs).toEqual(inputs);

    const csv = await api('GET', `/pets/${pet.id}/records/export`, { key, headers: { accept: 'text/csv' } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = (csv.body as string).trimEnd().split('\r\n');
    expect(lines[0]!.split(',').slice(0, 3)).toEqual(['id', 'created_at', 'type']);
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(made);
    for (const line of lines.slice(1))
      for (const input of inputs) expect(line).toContain(`photo:${input.id}:${input.sha256}`);
    expect(lines[2]).toContain('""explanation"":""Waist, \\""barely\\"", seen""');
  });
});
