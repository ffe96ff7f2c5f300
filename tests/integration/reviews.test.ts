// Body condition reviews end to end on the local stack: an owner's request and a vet's decision through the HTTP
// routes, both events from the table stream to a real receiver that verifies each signature, and the one-pending and
// one-decision rules under concurrent requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../shared/webhooks/signature.ts';
import { adminKey, api, createAccount, subscribe } from '../support/api-client.ts';
import { aPetWithBodyConditionResult, aPetWithReadyPhotos } from '../support/factories/pets.ts';
import { type Received, startReceiver } from '../support/receiver.ts';

let owner: string;
let other: string;
let vet: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let secret: string;

beforeAll(async () => {
  [owner, other, vet] = await Promise.all([
    createAccount({ features: ['body_condition'] }).then((a) => a.api_key),
    createAccount({ features: ['body_condition'] }).then((a) => a.api_key),
    createAccount({ role: 'vet', name: 'Dr Vet' }).then((a) => a.api_key),
  ]);
  receiver = await startReceiver();
  secret = (await subscribe(owner, receiver.url, ['pet.bcs.review_requested', 'pet.bcs.reviewed'])).signing_secret;
});
afterAll(() => receiver.close());

const aPetOfOwner = () => aPetWithReadyPhotos(owner, { sub_id: 'user-42', external_owner_id: 'usr_42' });

/** The owner's pet with a photo and a body condition result (score 7) to review. */
const petWithResult = () => aPetWithBodyConditionResult(owner, { sub_id: 'user-42', external_owner_id: 'usr_42' });

const requestReview = (petId: string, key = owner) =>
  api('POST', `/pets/${petId}/body-condition-score/reviews`, { key });
const decide = (id: string, verdict: 'complete' | 'reject', body: unknown, key = vet) =>
  api('POST', `/reviews/${id}/${verdict}`, { key, body });

/** The deliveries of one review's event, each checked against the endpoint's signature first. */
async function verifiedDeliveries(reviewId: string, eventType: string): Promise<Record<string, any>[]> {
  const matching = (r: Received) => r.body.includes(reviewId) && r.headers['x-webhook-event'] === eventType;
  const deadline = Date.now() + 15_000;
  while (!receiver.received.some(matching) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return receiver.received.filter(matching).map((delivery) => {
    const check = verifySignature({
      header: String(delivery.headers['x-webhook-signature']),
      rawBody: delivery.body,
      secret,
      nowSeconds: Math.floor(Date.now() / 1000),
    });
    expect(check.ok).toBe(true);
    return JSON.parse(delivery.body);
  });
}

describe('body condition reviews: the full cycle', () => {
  it('owner requests, vet completes; both events arrive signed with the review and the pet’s integrator ids', async () => {
    const pet = await petWithResult();

    const created = await requestReview(pet.id);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const review = created.body;
    expect(review).toMatchObject({
      pet_id: pet.id,
      analysis_id: pet.analysisId,
      status: 'pending',
      analysis: { score: 7, category: 'overweight', prompt_version: 'v1', image_ids: pet.imageIds },
      score: null,
      sub_id: 'user-42',
      external_owner_id: 'usr_42',
    });

    const queue = await api('GET', '/reviews?status=pending&limit=100', { key: vet });
    expect(queue.status).toBe(200);
    expect(queue.body.map((r: { id: string }) => r.id)).toContain(review.id);
    const requestedAt = queue.body.map((r: { requested_at: string }) => r.requested_at);
    expect(requestedAt).toEqual([...requestedAt].sort());
    const forVet = (await api('GET', `/reviews/${review.id}`, { key: vet })).body;
    expect(forVet).toMatchObject({ ...review, pet: { name: pet.name, species_id: 'dog' } });
    expect(forVet.photos.map((p: { id: string }) => p.id)).toEqual(pet.imageIds);
    const photo = await fetch(forVet.photos[0].url);
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toBe('image/jpeg');

    const completed = await decide(review.id, 'complete', { score: 6, notes: 'A little over: more walks' });
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    expect(completed.body).toMatchObject({ status: 'completed', score: 6, category: 'overweight' });

    // The decision is a record of the pet: the reviewed analysis and its photos with their hashes.
    const [kept, ...others] = (await api('GET', `/pets/${pet.id}/records?type=bcs_review`, { key: owner })).body;
    expect(others).toEqual([]);
    const photos = await Promise.all(
      pet.imageIds.map((id: string) => api('GET', `/pets/${pet.id}/images/${id}`, { key: owner })),
    );
    expect(kept).toMatchObject({
      id: completed.body.record_id,
      type: 'bcs_review',
      result: { review_id: review.id, status: 'completed', score: 6, notes: 'A little over: more walks' },
      inputs: [
        { kind: 'analysis', id: pet.analysisId, sha256: null },
        ...photos.map((p) => ({ kind: 'photo', id: p.body.id, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) })),
      ],
      vet: { account_id: expect.any(String), decision: 'completed' },
      created_at: completed.body.decided_at,
    });
    expect(kept.inputs.slice(1).map((i: { sha256: string }) => i.sha256)).toEqual(photos.map((p) => p.body.sha256));
    const exported = await api('GET', `/pets/${pet.id}/records/export?type=bcs_review`, { key: owner });
    expect(exported.body.records).toEqual([kept]);

    const [requested] = await verifiedDeliveries(review.id, 'pet.bcs.review_requested');
    expect(requested).toEqual({
      ...review,
      _metadata: { event_type: 'pet.bcs.review_requested', timestamp: expect.any(String) },
    });
    const [reviewed] = await verifiedDeliveries(review.id, 'pet.bcs.reviewed');
    for (const { _metadata } of [requested!, reviewed!]) {
      expect(_metadata.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/);
      expect(Date.now() - Date.parse(_metadata.timestamp)).toBeLessThan(30_000);
    }
    expect(reviewed).toEqual({
      ...completed.body,
      _metadata: { event_type: 'pet.bcs.reviewed', timestamp: expect.any(String) },
    });

    const listed = await api('GET', `/pets/${pet.id}/body-condition-score/reviews`, { key: owner });
    expect(listed.headers.get('pagination-count')).toBe('1');
    expect(listed.body).toEqual([completed.body]);
    const queueAfter = await api('GET', '/reviews?status=pending&limit=100', { key: vet });
    expect(queueAfter.body.map((r: { id: string }) => r.id)).not.toContain(review.id);
    // The decision freed the pet: a new review can be requested.
    expect((await requestReview(pet.id)).status).toBe(201);
  });

  it('a rejected review is announced as pet.bcs.reviewed with the reason', async () => {
    const pet = await petWithResult();
    const review = (await requestReview(pet.id)).body;

    const rejected = await decide(review.id, 'reject', { reason: 'The photos do not show the waist' });

    expect(rejected.status).toBe(200);
    const [reviewed] = await verifiedDeliveries(review.id, 'pet.bcs.reviewed');
    expect(reviewed).toMatchObject({ id: review.id, status: 'rejected', reason: 'The photos do not show the waist' });
  });

  it('answers 400 while the pet has no body condition result, and announces nothing', async () => {
    const pet = await aPetOfOwner();

    const res = await requestReview(pet.id);

    expect(res.status).toBe(400);
    expect(res.body.code).toBe('no_body_condition_result');
    expect((await api('GET', `/pets/${pet.id}/body-condition-score/reviews`, { key: owner })).body).toEqual([]);
  });
});

describe('body condition reviews: one pending review, one decision', () => {
  it('answers 409 naming the pending review to a second request, also when five arrive at once', async () => {
    const pet = await petWithResult();

    const answers = await Promise.all(Array.from({ length: 5 }, () => requestReview(pet.id)));

    const created = answers.filter((a) => a.status === 201);
    expect(created).toHaveLength(1);
    const conflicts = answers.filter((a) => a.status === 409);
    expect(conflicts).toHaveLength(4);
    for (const c of conflicts) expect(c.body).toMatchObject({ code: 'review_pending', review_id: created[0]!.body.id });
    const again = await requestReview(pet.id);
    expect(again.status).toBe(409);
    expect(again.body.message).toContain(created[0]!.body.id);
    const listed = await api('GET', `/pets/${pet.id}/body-condition-score/reviews`, { key: owner });
    expect(listed.body).toHaveLength(1);
  });

  it('lets exactly one of two vets deciding at once win; every later decision is 409', async () => {
    const pet = await petWithResult();
    const review = (await requestReview(pet.id)).body;
    const secondVet = (await createAccount({ role: 'vet' })).api_key;

    const answers = await Promise.all([
      decide(review.id, 'complete', { score: 5 }),
      decide(review.id, 'reject', { reason: 'Blurred' }, secondVet),
      decide(review.id, 'complete', { score: 8 }, adminKey()),
    ]);

    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    const winner = answers.find((a) => a.status === 200)!.body;
    for (const loser of answers.filter((a) => a.status === 409))
      expect(loser.body).toMatchObject({ code: 'review_not_pending', review_id: review.id, status: winner.status });
    expect((await decide(review.id, 'complete', { score: 5 })).status).toBe(409);
    expect((await api('GET', `/reviews/${review.id}`, { key: vet })).body).toMatchObject(winner);
    expect(await verifiedDeliveries(review.id, 'pet.bcs.reviewed')).toHaveLength(1);
    const kept = (await api('GET', `/pets/${pet.id}/records?type=bcs_review`, { key: owner })).body;
    expect(kept.map((r: { id: string; vet: { decision: string } }) => [r.id, r.vet.decision])).toEqual([
      [winner.record_id, winner.status],
    ]);
  });
});

describe('body condition reviews: the pet goes, its reviews go', () => {
  it('deleting the pet takes its pending review out of the vets’ queue; deciding it then is 404', async () => {
    const pet = await petWithResult();
    const review = (await requestReview(pet.id)).body;

    expect((await api('DELETE', `/pets/${pet.id}`, { key: owner })).status).toBe(200);

    const queue = await api('GET', '/reviews?limit=100', { key: vet });
    expect(queue.body.map((r: { id: string }) => r.id)).not.toContain(review.id);
    expect((await decide(review.id, 'complete', { score: 5 })).status).toBe(404);
    expect((await api('GET', `/reviews/${review.id}`, { key: vet })).status).toBe(404);
  });
});

describe('body condition reviews: who may do what', () => {
  it('answers 403 to non-vets on every vet route, and to other accounts on the owner routes', async () => {
    const pet = await petWithResult();
    const review = (await requestReview(pet.id)).body;

    for (const key of [owner, other]) {
      expect((await api('GET', '/reviews?status=pending', { key })).status).toBe(403);
      expect((await api('GET', `/reviews/${review.id}`, { key })).status).toBe(403);
      expect((await decide(review.id, 'complete', { score: 5 }, key)).body.code).toBe('vet_only');
      expect((await decide(review.id, 'reject', { reason: 'x' }, key)).status).toBe(403);
    }
    expect((await requestReview(pet.id, other)).status).toBe(403);
    expect((await api('GET', `/pets/${pet.id}/body-condition-score/reviews`, { key: other })).status).toBe(403);
    expect((await requestReview(pet.id, vet)).body.code).toBe('feature_not_enabled');
    expect((await api('GET', `/reviews/${review.id}`, { key: vet })).body.status).toBe('pending');
  });

  it('lets an administrator make an account a vet', async () => {
    const account = await createAccount();
    expect((await api('GET', '/reviews', { key: account.api_key })).status).toBe(403);

    const changed = await api('PATCH', `/accounts/${account.id}`, { key: adminKey(), body: { role: 'vet' } });

    expect(changed.body.role).toBe('vet');
    expect((await api('GET', '/reviews', { key: account.api_key })).status).toBe(200);
  });
});

describe('webhook topics', () => {
  it('lists every event the spec names, the review events included', async () => {
    const topics = await api('GET', '/webhooks/topics', { key: owner });

    expect(topics.body.map((t: { name: string }) => t.name)).toEqual(
      expect.arrayContaining([
        'pet.bcs.review_requested',
        'pet.bcs.reviewed',
        'image.uploaded',
        'image.processed',
        'image.labels_created',
        'vote.created',
        'favourite.created',
      ]),
    );
  });
});
