// The public library end to end on the local stack: an account puts an approved upload forward, an administrator
// approves it with tags and it joins /images/search as an attributed photo; denial, withdrawal, deletion, and the
// one-pending-request rule under concurrent requests.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../shared/webhooks/signature.ts';
import { adminKey, api, createAccount, send, subscribe } from '../support/api-client.ts';
import { until } from '../support/polling.ts';
import { anApprovedUpload } from '../support/factories/images.ts';
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
const anOwnUpload = () => anApprovedUpload(owner, ++seed);

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
    const imageId = await anOwnUpload();
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
    // Other files share the stack and may approve beagle photos of their own: only this photo's absence before counts.
    expect(before.images.map((i) => i.id)).not.toContain(imageId);
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
    const imageId = await anOwnUpload();
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

    const fresh = await anOwnUpload();
    expect((await statusOf(fresh)).body).toEqual({ image_id: fresh, status: 'none' });
  });

  it('answers 403 to another account and for catalogue images, 409 while the upload is still being checked', async () => {
    const imageId = await anOwnUpload();
    expect((await putForward(imageId, {}, other)).status).toBe(403);
    expect((await statusOf(imageId, other)).status).toBe(403);
    const catalogue = await api('GET', '/images/search?limit=1', { key: owner });
    expect((await putForward(catalogue.body[0].id)).status).toBe(403);
    expect((await putForward('no-such-image')).status).toBe(404);
    const tooLong = await putForward(imageId, { request_message: 'x'.repeat(501) });
    expect(tooLong.status).toBe(400);
  });

  it('approving a request whose image was deleted meanwhile is a 404 and publishes nothing', async () => {
    const imageId = await anOwnUpload();
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
    const imageId = await anOwnUpload();

    const answers = await Promise.all(Array.from({ length: 8 }, () => putForward(imageId)));

    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    const winner = answers.find((a) => a.status === 201)!.body.id;
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.request_id).toBe(winner);
  });

  it('photos approved at the same moment all join search, each once', async () => {
    const images = await Promise.all([anOwnUpload(), anOwnUpload(), anOwnUpload()]);
    const requests = await Promise.all(images.map((id) => putForward(id)));
    const before = await newestBeagles();

    const approvals = await Promise.all(requests.map((r) => decide(r.body.id, 'approve', beagleTags)));

    expect(approvals.map((a) => a.status)).toEqual([200, 200, 200]);
    const after = await newestBeagles();
    expect(after.total).toBe(before.total + 3);
    expect(new Set(after.images.slice(0, 3).map((i) => i.id))).toEqual(new Set(images));
  });
});

/** The GPS IFD pointer (tag 0x8825) in IFD0 of an EXIF block as sharp reports it (`Exif\0\0` + TIFF). */
function hasGpsPosition(exif: Buffer | undefined): boolean {
  if (!exif) return false;
  const tiff = exif.subarray(exif.toString('latin1', 0, 4) === 'Exif' ? 6 : 0);
  const little = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const ifd0 = little ? tiff.readUInt32LE(4) : tiff.readUInt32BE(4);
  return Array.from({ length: u16(ifd0) }, (_, i) => u16(ifd0 + 2 + i * 12)).includes(0x8825);
}

/** What a JPEG carries besides pixels: its EXIF/XMP/IPTC blocks, orientation, and any APP1 segment in the raw bytes. */
async function metadataOf(bytes: Buffer) {
  const meta = await sharp(bytes).metadata();
  return {
    format: meta.format,
    width: meta.width,
    height: meta.height,
    exif: meta.exif,
    xmp: meta.xmp,
    iptc: meta.iptc,
    orientation: meta.orientation,
    app1: bytes.includes(Buffer.from('Exif\0\0', 'latin1')) || bytes.includes(Buffer.from('http://ns.adobe.com/xap')),
  };
}

describe('privacy of published photos', () => {
  /** A phone photo: stored sideways (EXIF orientation 6) with the camera, its serial and where it was taken. */
  const phonePhoto = () =>
    sharp({ create: { width: 120, height: 80, channels: 3, background: { r: 200, g: 90, b: 30 } } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({
        IFD0: { Make: 'PhoneCo', Model: 'Pocket 9', Software: 'Camera 4.2' },
        IFD2: { BodySerialNumber: 'SN-0042-7781' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '51/1 30/1 1234/100',
          GPSLongitudeRef: 'W',
          GPSLongitude: '0/1 7/1 3900/100',
        },
      })
      .toBuffer();

  const approvedUpload = (id: string) =>
    until(
      () => api('GET', `/images/${id}`, { key: owner }),
      (r) => r.body.status !== 'pending' && r.body.status !== 'awaiting_upload',
    );

  const expectClean = async (url: string) => {
    const served = await fetch(url);
    expect(served.status, url).toBe(200);
    const bytes = Buffer.from(await served.arrayBuffer());
    const meta = await metadataOf(bytes);
    expect(meta).toEqual({
      format: 'jpeg',
      // Upright: the orientation is applied to the pixels, since the tag goes with the rest.
      width: 80,
      height: 120,
      exif: undefined,
      xmp: undefined,
      iptc: undefined,
      orientation: undefined,
      app1: false,
    });
    for (const secret of ['PhoneCo', 'Pocket 9', 'SN-0042-7781']) expect(bytes.includes(secret)).toBe(false);
  };

  it('a photo with GPS EXIF, uploaded and approved for the public library, is served and published without any metadata', async () => {
    const original = await phonePhoto();
    const carried = await sharp(original).metadata();
    expect(hasGpsPosition(carried.exif)).toBe(true);
    expect(carried.orientation).toBe(6);
    expect(original.includes('SN-0042-7781')).toBe(true);

    const form = new FormData();
    form.append('file', new Blob([original]), 'walk.jpg');
    const created = await send('POST', '/images/upload', { headers: { 'x-api-key': owner }, body: form });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    const processed = await approvedUpload(id);
    expect(processed.body).toMatchObject({ status: 'approved', width: 80, height: 120, mime_type: 'image/jpeg' });
    // The owner's own URL already serves the clean copy; the original is gone from the bucket.
    expect(processed.body.url).toBe(created.body.url);
    await expectClean(processed.body.url);
    const originalUrl = String(processed.body.url).replace(/\/images\/([^/]+\/[^/]+)$/, '/uploads/$1');
    expect((await fetch(originalUrl)).status).toBe(404);

    const request = await putForward(id, { author: 'Ana Ruiz' });
    expect(request.status, JSON.stringify(request.body)).toBe(201);
    expect(request.body.image_url).toBe(processed.body.url);
    const approved = await decide(request.body.id, 'approve', beagleTags);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);

    const published = (await newestBeagles()).images.find((i) => i.id === id);
    expect(published).toMatchObject({ url: processed.body.url, width: 80, height: 120, kind: 'photo' });
    await expectClean(published!.url);
    const seenByOthers = await api('GET', `/images/${id}`, { key: other });
    expect(seenByOthers.body.url).toBe(processed.body.url);
  });

  it('a two-step upload is served as the same clean copy', async () => {
    const original = await phonePhoto();
    const slot = await api('POST', '/images/uploads', {
      key: owner,
      body: { content_type: 'image/jpeg', size: original.length, filename: 'walk.jpg' },
    });
    expect(slot.status, JSON.stringify(slot.body)).toBe(201);
    const put = await fetch(slot.body.upload.url, { method: 'PUT', headers: slot.body.upload.headers, body: original });
    expect(put.status).toBe(200);

    const processed = await approvedUpload(slot.body.id);

    expect(processed.body).toMatchObject({ status: 'approved', width: 80, height: 120, url: slot.body.url });
    await expectClean(processed.body.url);
  });
});
