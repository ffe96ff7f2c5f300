// The public library end to end on the local stack: an account puts an approved upload forward, an administrator
// approves it with tags and it joins /images/search as an attributed photo; denial, withdrawal, deletion, and the
// one-pending-request rule under concurrent requests.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../shared/webhooks/signature.ts';
import { adminKey, api, createAccount, send, subscribe } from '../support/api-client.ts';
import { until } from '../support/polling.ts';
import { type Received, startReceiver } from '../support/receiver.ts';

let owner: string;
let other: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let secret: string;

beforeAll(async () => {
  [owner, other] = await Promise.all([
    createAccount({ quota: 50 }).then((a) => a.api_key),
    createAccount().then((a) => a.api_key),
  ]);
  receiver = await startReceiver();
  secret = (
    await subscribe(owner, receiver.url, [
      'image.public_request.created',
      'image.public_request.approved',
      'image.public_request.denied',
    ])
  ).signing_secret;
});
afterAll(() => receiver.close());

let seed = 0;
/** An approved (processed) upload of the owner: a small JPEG of its own colour. */
async function anApprovedUpload(): Promise<string> {
  seed += 1;
  const bytes = await sharp({
    create: { width: 80, height: 60, channels: 3, background: { r: 40 * seed, g: 120, b: 200 - seed } },
  })
    .jpeg()
    .toBuffer();
  const form = new FormData();
  form.append('file', new Blob([bytes]), `rex-${seed}.jpg`);
  const created = await send('POST', '/images/upload', { headers: { 'x-api-key': owner }, body: form });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as string;
  const processed = await until(
    () => api('GET', `/images/${id}`, { key: owner }),
    (r) => r.body.status === 'approved',
  );
  expect(processed.body.status).toBe('approved');
  return id;
}

const putForward = (imageId: string, body: unknown = {}, key = owner) =>
  api('POST', `/images/${imageId}/public-requests`, { key, body });
const statusOf = (imageId: string, key = owner) => api('GET', `/images/${imageId}/public-requests/status`, { key });
const decide = (requestId: string, verdict: 'approve' | 'deny', body: unknown, key = adminKey()) =>
  api('POST', `/images/public-requests/${requestId}/${verdict}`, { key, body });
const beagleTags = { species_id: 'dog', breed_ids: ['beagle'], colour_ids: ['dog-tricolor'] };

/** Images of the beagle facet, newest first, and how many there are. */
async function newestBeagles() {
  const res = await api('GET', '/images/search?breed_ids=beagle&order=DESC&limit=5&include_colours=true', {
    key: other,
  });
  expect(res.status).toBe(200);
  return { images: res.body as Record<string, any>[], total: Number(res.headers.get('pagination-count')) };
}

/** The deliveries of one request's event, each checked against the endpoint's signature first. */
async function verifiedDeliveries(requestId: string, eventType: string): Promise<Record<string, any>[]> {
  const matching = (r: Received) => r.body.includes(requestId) && r.headers['x-webhook-event'] === eventType;
  await until(
    async () => receiver.received.some(matching),
    (found) => found,
  );
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

describe('public-image requests: the full cycle', () => {
  it('owner requests, administrator approves with tags: the photo joins search with its credit, once', async () => {
    const imageId = await anApprovedUpload();
    const before = await newestBeagles();

    const created = await putForward(imageId, { request_message: 'Rex on the beach', author: 'Ana Ruiz' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      image_id: imageId,
      status: 'pending',
      request_message: 'Rex on the beach',
      author: 'Ana Ruiz',
      licence: 'CC-BY-4.0',
      admin_message: null,
      tags: null,
      actioned_at: null,
    });
    const requestId = created.body.id as string;
    expect((await statusOf(imageId)).body).toMatchObject({ id: requestId, status: 'pending' });

    const again = await putForward(imageId);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'public_request_pending', request_id: requestId });

    const queue = await api('GET', '/images/public-requests?limit=100', { key: adminKey() });
    expect(queue.status).toBe(200);
    expect(queue.body.map((r: { id: string }) => r.id)).toContain(requestId);
    expect((await api('GET', '/images/public-requests', { key: owner })).status).toBe(403);
    expect((await decide(requestId, 'approve', beagleTags, owner)).status).toBe(403);

    const wrongTags = await decide(requestId, 'approve', { species_id: 'cat', breed_ids: ['beagle'] });
    expect(wrongTags.status).toBe(400);
    expect(wrongTags.body.code).toBe('invalid_tags');

    const approved = await decide(requestId, 'approve', { ...beagleTags, admin_message: 'Lovely' });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({
      status: 'approved',
      admin_message: 'Lovely',
      tags: { species_id: 'dog', breed_ids: ['beagle'], colour_ids: ['dog-tricolor'], category_ids: [] },
    });

    const after = await newestBeagles();
    expect(after.total).toBe(before.total + 1);
    expect(after.images[0]).toMatchObject({
      id: imageId,
      species_id: 'dog',
      kind: 'photo',
      attribution: { author: 'Ana Ruiz', licence: 'CC-BY-4.0', source_url: null },
      breeds: [expect.objectContaining({ id: 'beagle' })],
      colours: [expect.objectContaining({ id: 'dog-tricolor' })],
    });
    expect(before.images.every((i) => i.kind === 'illustration')).toBe(true);
    const byColour = await api('GET', '/images/search?colour_id=dog-tricolor&order=DESC&limit=1', { key: other });
    expect(byColour.body[0].id).toBe(imageId);
    const photo = await api('GET', `/images/${imageId}`, { key: other });
    expect(photo.status).toBe(200);
    expect(photo.body).toMatchObject({ id: imageId, kind: 'photo', status: 'approved' });
    expect((await fetch(photo.body.url)).status).toBe(200);

    const twice = await decide(requestId, 'approve', beagleTags);
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ code: 'public_request_not_pending', status: 'approved' });
    expect((await putForward(imageId)).body.code).toBe('image_already_public');
    expect((await newestBeagles()).total).toBe(before.total + 1);

    const [createdEvent] = await verifiedDeliveries(requestId, 'image.public_request.created');
    expect(createdEvent).toMatchObject({ id: requestId, status: 'pending', image_id: imageId });
    const [approvedEvent] = await verifiedDeliveries(requestId, 'image.public_request.approved');
    expect(approvedEvent).toMatchObject({
      id: requestId,
      status: 'approved',
      tags: { breed_ids: ['beagle'] },
      _metadata: { event_type: 'image.public_request.approved' },
    });
    expect(Date.parse(approvedEvent!._metadata.timestamp)).toBeGreaterThanOrEqual(
      Date.parse(approved.body.actioned_at) - 1000,
    );

    // Deleting the approved image takes it out of search in the same transaction.
    expect((await api('DELETE', `/images/${imageId}`, { key: owner })).status).toBe(200);
    const gone = await newestBeagles();
    expect(gone.total).toBe(before.total);
    expect(gone.images.map((i) => i.id)).not.toContain(imageId);
    expect((await api('GET', `/images/${imageId}`, { key: other })).status).toBe(404);
  });

  it('a denial carries the message and the owner may ask again; a withdrawal leaves no request', async () => {
    const imageId = await anApprovedUpload();
    const first = await putForward(imageId);
    expect(first.status).toBe(201);
    const denied = await decide(first.body.id, 'deny', { admin_message: 'Too blurry' });
    expect(denied.status).toBe(200);
    expect(denied.body).toMatchObject({ status: 'denied', admin_message: 'Too blurry', tags: null });
    expect((await statusOf(imageId)).body).toMatchObject({ status: 'denied', admin_message: 'Too blurry' });
    expect((await decide(first.body.id, 'approve', beagleTags)).status).toBe(409);
    const [deniedEvent] = await verifiedDeliveries(first.body.id, 'image.public_request.denied');
    expect(deniedEvent).toMatchObject({ status: 'denied', admin_message: 'Too blurry' });

    const second = await putForward(imageId, { licence: 'CC0-1.0' });
    expect(second.status).toBe(201);
    expect((await api('DELETE', `/images/${imageId}/public-requests`, { key: owner })).status).toBe(200);
    expect((await statusOf(imageId)).body).toMatchObject({ status: 'denied', id: first.body.id });
    const nothingPending = await api('DELETE', `/images/${imageId}/public-requests`, { key: owner });
    expect(nothingPending.status).toBe(404);
    expect(nothingPending.body.code).toBe('no_pending_public_request');
    expect((await decide(second.body.id, 'approve', beagleTags)).status).toBe(404);

    const fresh = await anApprovedUpload();
    expect((await statusOf(fresh)).body).toEqual({ image_id: fresh, status: 'none' });
  });

  it('answers 403 to another account and for catalogue images, 409 while the upload is still being checked', async () => {
    const imageId = await anApprovedUpload();
    expect((await putForward(imageId, {}, other)).status).toBe(403);
    expect((await statusOf(imageId, other)).status).toBe(403);
    const catalogue = await api('GET', '/images/search?limit=1', { key: owner });
    expect((await putForward(catalogue.body[0].id)).status).toBe(403);
    expect((await putForward('no-such-image')).status).toBe(404);
    const tooLong = await putForward(imageId, { request_message: 'x'.repeat(501) });
    expect(tooLong.status).toBe(400);
  });

  it('approving a request whose image was deleted meanwhile is a 404 and publishes nothing', async () => {
    const imageId = await anApprovedUpload();
    const request = await putForward(imageId);
    expect(request.status).toBe(201);
    const before = await newestBeagles();
    expect((await api('DELETE', `/images/${imageId}`, { key: owner })).status).toBe(200);

    const approve = await decide(request.body.id, 'approve', beagleTags);
    expect(approve.status).toBe(404);
    expect((await newestBeagles()).total).toBe(before.total);
    const queue = await api('GET', '/images/public-requests?limit=100', { key: adminKey() });
    expect(queue.body.map((r: { id: string }) => r.id)).not.toContain(request.body.id);
  });
});

describe('one pending request per image, under concurrency', () => {
  it('of eight simultaneous requests for one image exactly one is created, the others are 409', async () => {
    const imageId = await anApprovedUpload();

    const answers = await Promise.all(Array.from({ length: 8 }, () => putForward(imageId)));

    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    const winner = answers.find((a) => a.status === 201)!.body.id;
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.request_id).toBe(winner);
  });

  it('photos approved at the same moment all join search, each once', async () => {
    const images = await Promise.all([anApprovedUpload(), anApprovedUpload(), anApprovedUpload()]);
    const requests = await Promise.all(images.map((id) => putForward(id)));
    const before = await newestBeagles();

    const approvals = await Promise.all(requests.map((r) => decide(r.body.id, 'approve', beagleTags)));

    expect(approvals.map((a) => a.status)).toEqual([200, 200, 200]);
    const after = await newestBeagles();
    expect(after.total).toBe(before.total + 3);
    expect(new Set(after.images.slice(0, 3).map((i) => i.id))).toEqual(new Set(images));
  });
});
