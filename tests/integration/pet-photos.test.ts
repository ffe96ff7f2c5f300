import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { getAccount } from '../../shared/domain/accounts/store.ts';
import { addPetPhotos, createPet } from '../../shared/domain/pets/service.ts';
import { adminKey, api, createAccount } from '../support/api-client.ts';
import { depsWithUnreachableObjectStore } from '../support/unreachable-store.ts';
import { addPhotos, aPet, aPhoto, bucketKeys, postForm, sendParts, settled } from '../support/factories/pets.ts';
import { startReceiver } from '../support/receiver.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('pet photos against the local bucket, queues and sharp', () => {
  let owner: { id: string; api_key: string };
  beforeAll(async () => {
    owner = await createAccount({ quota: 1000 });
  });

  it('stores photos, then processes them from the stored object: real dimensions, a thumbnail, no EXIF or GPS', async () => {
    const withGps = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#a06030' } })
      .withExif({
        IFD0: { Make: 'PetCam' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
      })
      .jpeg()
      .toBuffer();
    expect((await sharp(withGps).metadata()).exif?.includes(Buffer.from('PetCam'))).toBe(true);
    const pet = (await aPet(owner.api_key, { name: 'Snap', sub_id: 'user-9', external_owner_id: 'owner-9' })).body;

    const added = await addPhotos(owner.api_key, pet.id, [withGps]);
    expect(added.status).toBe(200);
    expect(added.body).toEqual([
      expect.objectContaining({
        pet_id: pet.id,
        kind: 'photo',
        status: 'pending',
        url: null,
        content_type: 'image/jpeg',
        bytes: withGps.length,
        width: 640,
        height: 480,
        sha256: sha256(withGps),
        duplicate: false,
      }),
    ]);

    const ready = await settled(owner.api_key, pet.id, added.body[0].id);
    expect(ready.body).toMatchObject({ status: 'ready', width: 640, height: 480 });
    const display = Buffer.from(await (await fetch(ready.body.url)).arrayBuffer());
    const thumbnail = Buffer.from(await (await fetch(ready.body.thumbnail_url)).arrayBuffer());
    const displayMeta = await sharp(display).metadata();
    const thumbnailMeta = await sharp(thumbnail).metadata();
    expect([displayMeta.width, displayMeta.height, displayMeta.exif]).toEqual([640, 480, undefined]);
    expect([thumbnailMeta.width, thumbnailMeta.height, thumbnailMeta.exif]).toEqual([320, 240, undefined]);
    expect(display.includes(Buffer.from('PetCam'))).toBe(false);
    expect(ready.body.url).toContain('X-Amz-Expires=');
    expect((await api('GET', `/pets/${pet.id}`, { key: owner.api_key })).body.photo_count).toBe(1);
  });

  it('returns the existing record for bytes already on the pet, stores no copy and counts nothing', async () => {
    const pet = (await aPet(owner.api_key)).body;
    const photo = await aPhoto(41);
    const first = await addPhotos(owner.api_key, pet.id, [photo]);
    const usage = (await api('GET', '/accounts/quota', { key: owner.api_key })).body.usage;

    const again = await addPhotos(owner.api_key, pet.id, [photo, photo]);

    expect(again.status).toBe(200);
    expect(again.body.map((p: { id: string; duplicate: boolean }) => [p.id, p.duplicate])).toEqual([
      [first.body[0].id, true],
      [first.body[0].id, true],
    ]);
    expect((await api('GET', '/accounts/quota', { key: owner.api_key })).body.usage).toBe(usage);
    expect((await api('GET', `/pets/${pet.id}`, { key: owner.api_key })).body.photo_count).toBe(1);
    expect(await bucketKeys(`pets/photos/${owner.id}/${pet.id}/`)).toHaveLength(1);
    const other = (await aPet(owner.api_key)).body;
    expect((await addPhotos(owner.api_key, other.id, [photo])).body[0].duplicate).toBe(false);
  });

  it('accepts exactly 100 photos of 20 parallel requests of 10 on a fresh pet; the rest get the spec 429 body', async () => {
    const account = await createAccount({ quota: 1000 });
    const pet = (await aPet(account.api_key)).body;
    const batches = await Promise.all(
      Array.from({ length: 20 }, async (_, b) =>
        Promise.all(Array.from({ length: 10 }, (_, i) => aPhoto(1000 + b * 10 + i, 16, 16))),
      ),
    );

    const results = await Promise.all(batches.map((photos) => addPhotos(account.api_key, pet.id, photos)));

    const accepted = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    expect(accepted.flatMap((r) => r.body).filter((p: { duplicate: boolean }) => !p.duplicate)).toHaveLength(100);
    expect(accepted.length + refused.length).toBe(20);
    expect(refused[0]!.body).toMatchObject({
      statusCode: 429,
      error: 'Too Many Requests',
      code: 'pet_upload_rate_exceeded',
      limit: 100,
      window_hours: 24,
      recent_uploads: 100,
      requested: 10,
      path: `/v1/pets/${pet.id}/images`,
    });
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThan(86_000);
    expect((await api('GET', `/pets/${pet.id}`, { key: account.api_key })).body.photo_count).toBe(100);
    expect((await api('GET', '/accounts/quota', { key: account.api_key })).body.usage).toBe(100);
    // A duplicate still passes: it counts against no limit.
    const again = await addPhotos(account.api_key, pet.id, [batches[0]![0]!]);
    expect(again.status === 200 ? again.body[0].duplicate : again.status).toBe(
      accepted.some((r) => r.body.some((p: { sha256: string }) => p.sha256 === sha256(batches[0]![0]!))) ? true : 429,
    );
  });

  it('gives back record, hash, rate slot, quota and count when the object store fails; a new pet is not kept', async () => {
    const account = await createAccount({ quota: 1000 });
    const pet = (await aPet(account.api_key)).body;
    expect((await addPhotos(account.api_key, pet.id, [await aPhoto(61), await aPhoto(62)])).status).toBe(200);
    const lost = await Promise.all([63, 64, 65].map((seed) => aPhoto(seed)));

    // The routes' own domain code against the real table, with S3 unreachable between the writes.
    const deps = depsWithUnreachableObjectStore();
    const owner = (await getAccount(deps, account.id))!;
    const files = lost.map((bytes, i) => ({ filename: `${i}.png`, bytes }));
    await expect(addPetPhotos(deps, owner, pet.id, files)).rejects.toThrow();
    await expect(createPet(deps, owner, { name: 'Ghost', species_id: 'dog' }, files)).rejects.toThrow();
    const slots = await deps.ddb.send(
      new QueryCommand({
        TableName: deps.config.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :rate)',
        ExpressionAttributeValues: { ':pk': `PET#${pet.id}`, ':rate': 'RATE#' },
      }),
    );
    deps.ddb.destroy();

    expect(slots.Items).toHaveLength(2);
    expect((await api('GET', `/pets/${pet.id}`, { key: account.api_key })).body.photo_count).toBe(2);
    expect((await api('GET', '/accounts/quota', { key: account.api_key })).body.usage).toBe(2);
    expect((await api('GET', `/accounts/${account.id}/overview`, { key: adminKey() })).body.counts.pets).toBe(1);
    expect((await api('GET', '/pets', { key: account.api_key })).body).toHaveLength(1);
    const retried = await addPhotos(account.api_key, pet.id, lost);
    expect(retried.body.map((p: { duplicate: boolean }) => p.duplicate)).toEqual([false, false, false]);
  });

  it('counts each new photo against the monthly quota (400 when used up) and shows it in quota and overview', async () => {
    const account = await createAccount({ quota: 3 });
    const pet = (await aPet(account.api_key)).body;
    expect((await addPhotos(account.api_key, pet.id, [await aPhoto(51), await aPhoto(52)])).status).toBe(200);

    const over = await addPhotos(account.api_key, pet.id, [await aPhoto(53), await aPhoto(54)]);

    expect(over.status).toBe(400);
    expect(over.body.code).toBe('upload_quota_exceeded');
    expect((await api('GET', '/accounts/quota', { key: account.api_key })).body).toMatchObject({
      usage: 2,
      remaining: 1,
    });
    expect((await api('GET', `/accounts/${account.id}/overview`, { key: adminKey() })).body).toMatchObject({
      quota: { usage: 2 },
      counts: { pets: 1 },
    });
  });

  it('judges formats by bytes: PNG, WebP and GIF pass, text named .jpg and HEIC are 415 naming the accepted list', async () => {
    const pet = (await aPet(owner.api_key)).body;
    const base = sharp({ create: { width: 20, height: 10, channels: 3, background: '#123456' } });
    const formats = await Promise.all([
      base.clone().png().toBuffer(),
      base.clone().webp().toBuffer(),
      base.clone().gif().toBuffer(),
    ]);
    const ok = await addPhotos(owner.api_key, pet.id, formats);
    expect(ok.body.map((p: { content_type: string }) => p.content_type)).toEqual([
      'image/png',
      'image/webp',
      'image/gif',
    ]);

    const text = await postForm(`/pets/${pet.id}/images`, owner.api_key, [
      { field: 'images', bytes: Buffer.from('hello'), filename: 'a.jpg' },
    ]);
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic'), Buffer.alloc(40)]);
    const heicRes = await postForm(`/pets/${pet.id}/images`, owner.api_key, [
      { field: 'images', bytes: heic, filename: 'a.heic' },
    ]);
    expect(text.status).toBe(415);
    expect(text.body.accepted).toEqual(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
    expect(heicRes.status).toBe(415);
    expect(heicRes.body.message).toContain('HEIC');
    const big = await postForm(`/pets/${pet.id}/images`, owner.api_key, [
      { field: 'images', bytes: Buffer.alloc(4 * 1024 * 1024 + 1, 0xff) },
    ]);
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('use_two_step_upload');
  });

  it('refuses a 60 MB photo (spec limit 50 MB) and takes a 48 MB one through the two-step flow', async () => {
    const pet = (await aPet(owner.api_key)).body;
    const tooBig = await api('POST', `/pets/${pet.id}/uploads`, {
      key: owner.api_key,
      body: { kind: 'photo', content_type: 'image/png', size: 60 * 1024 * 1024, sha256: 'a'.repeat(64) },
    });
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.message).toEqual(['size must be at most 52428800']);
    // Random pixels do not compress: a 4000×4000 PNG of noise stored without compression is about 48 MB.
    const noise = Buffer.alloc(4000 * 4000 * 3);
    for (let i = 0; i + 4 <= noise.length; i += 4) noise.writeUInt32LE((Math.random() * 0xffffffff) >>> 0, i);
    const big = await sharp(noise, { raw: { width: 4000, height: 4000, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(48 * 1000 * 1000);

    const slot = await api('POST', `/pets/${pet.id}/uploads`, {
      key: owner.api_key,
      body: { kind: 'photo', content_type: 'image/png', size: big.length, sha256: sha256(big), filename: 'big.png' },
    });
    expect(slot.status).toBe(201);
    expect(slot.body).toMatchObject({ status: 'awaiting_upload', upload: { method: 'PUT' } });
    expect(slot.body.upload.parts).toHaveLength(Math.ceil(big.length / (8 * 1024 * 1024)));
    const completed = await sendParts(owner.api_key, pet.id, slot.body, big);
    expect(completed.body).toMatchObject({ id: slot.body.id, status: 'pending' });

    const ready = await settled(owner.api_key, pet.id, slot.body.id, 30_000);
    expect(ready.body).toMatchObject({ status: 'ready', width: 4000, height: 4000, bytes: big.length });
    const display = await sharp(Buffer.from(await (await fetch(ready.body.url)).arrayBuffer())).metadata();
    expect([display.width, display.height]).toEqual([2048, 2048]);
    const again = await api('POST', `/pets/${pet.id}/uploads`, {
      key: owner.api_key,
      body: { kind: 'photo', content_type: 'image/png', size: big.length, sha256: sha256(big) },
    });
    expect(again.body).toMatchObject({ id: slot.body.id, duplicate: true, upload: null });
  }, 90_000);

  it('rejects with a reason: bytes that differ from the declared hash, and a photo cut short', async () => {
    const pet = (await aPet(owner.api_key)).body;
    const declared = await aPhoto(71);
    const sent = await aPhoto(72);
    const slot = await api('POST', `/pets/${pet.id}/uploads`, {
      key: owner.api_key,
      body: { kind: 'photo', content_type: 'image/jpeg', size: sent.length, sha256: sha256(declared) },
    });
    await sendParts(owner.api_key, pet.id, slot.body, sent);
    const truncated = (await aPhoto(73, 400, 300)).subarray(0, 600);
    const cut = await addPhotos(owner.api_key, pet.id, [truncated]);

    expect((await settled(owner.api_key, pet.id, slot.body.id)).body).toMatchObject({
      status: 'rejected',
      reason: 'the bytes that arrived do not match the declared sha256',
    });
    expect(cut.status).toBe(200);
    const rejected = await settled(owner.api_key, pet.id, cut.body[0].id);
    expect(rejected.body.status).toBe('rejected');
    expect(rejected.body.reason).toMatch(/could not be decoded/);
  });

  it('announces pet photos by webhook with pet_id, kind and the pet’s sub_id and external_owner_id', async () => {
    const receiver = await startReceiver();
    const account = await createAccount({ quota: 50 });
    const hook = await api('POST', '/webhooks', {
      key: account.api_key,
      body: {
        url: receiver.url,
        description: 'pets',
        enabled_events: ['image.uploaded', 'image.processed', 'image.labels_created'],
      },
    });
    expect(hook.status).toBe(200);
    const pet = (await aPet(account.api_key, { sub_id: 'user-42', external_owner_id: 'usr_42' })).body;

    const added = await addPhotos(account.api_key, pet.id, [await aPhoto(81)]);
    const deliveries = await receiver.waitFor(3, 15_000);
    await receiver.close();

    const bodies = deliveries.map((d) => JSON.parse(d.body));
    const expected = {
      id: added.body[0].id,
      pet_id: pet.id,
      kind: 'photo',
      sub_id: 'user-42',
      external_owner_id: 'usr_42',
    };
    expect(bodies.map((b) => b._metadata.event_type).sort()).toEqual([
      'image.labels_created',
      'image.processed',
      'image.uploaded',
    ]);
    for (const body of bodies) expect(body).toMatchObject(expected);
    expect(bodies.find((b) => b._metadata.event_type === 'image.processed')).toMatchObject({
      status: 'ready',
      width: 64,
    });
  });

  it('deletes a pet and leaves no object of it in the bucket', async () => {
    const pet = (await aPet(owner.api_key, {}, [await aPhoto(61), await aPhoto(62)])).body;
    await Promise.all(pet.images.map((i: { id: string }) => settled(owner.api_key, pet.id, i.id)));
    expect((await bucketKeys(`pets/`)).filter((k) => k.includes(pet.id)).length).toBe(6);

    expect((await api('DELETE', `/pets/${pet.id}`, { key: owner.api_key })).status).toBe(200);

    expect((await bucketKeys(`pets/`)).filter((k) => k.includes(pet.id))).toEqual([]);
  });
});
