import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { getAccount } from '../../shared/domain/accounts/store.ts';
import { uploadPhoto } from '../../shared/domain/images/uploads.ts';
import { adminKey, api, createAccount, send } from '../support/api-client.ts';
import { until } from '../support/polling.ts';
import { depsWithUnreachableObjectStore } from '../support/unreachable-store.ts';

const jpeg = (width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 3, background: '#c08040' } })
    .jpeg()
    .toBuffer();

async function upload(key: string, bytes: Buffer, filename = 'pet.jpg', extra: Record<string, string> = {}) {
  const form = new FormData();
  form.append('file', new Blob([bytes]), filename);
  for (const [k, v] of Object.entries(extra)) form.append(k, v);
  return send('POST', '/images/upload', { headers: { 'x-api-key': key }, body: form });
}

describe('image uploads against the local bucket and queues', () => {
  let account: { id: string; api_key: string };
  beforeAll(async () => {
    account = await createAccount({ quota: 50 });
  });

  it('stores a direct upload, then approves and labels it from the stored object', async () => {
    const created = await upload(account.api_key, await jpeg(64, 48), 'rex.jpg', {
      sub_id: 'user-7',
      breed_ids: 'beagle',
    });

    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'pending',
      width: 64,
      height: 48,
      mime_type: 'image/jpeg',
      sub_id: 'user-7',
      breed_ids: ['beagle'],
      original_filename: 'rex.jpg',
    });
    const processed = await until(
      () => api('GET', `/images/${created.body.id}`, { key: account.api_key }),
      (r) => r.body.label_source !== null,
    );
    expect(processed.body).toMatchObject({
      status: 'approved',
      labels: [],
      label_source: expect.stringContaining('no labelling model'),
    });
    expect((await fetch(processed.body.url)).status).toBe(200);
  });

  it('completes a two-step upload when the object arrives at the presigned URL', async () => {
    const bytes = await jpeg(200, 100);
    const slot = await api('POST', '/images/uploads', {
      key: account.api_key,
      body: { content_type: 'image/jpeg', size: bytes.length, filename: 'big.jpg' },
    });

    expect(slot.status).toBe(201);
    expect(slot.body).toMatchObject({ status: 'awaiting_upload', upload: { method: 'PUT' } });
    const put = await fetch(slot.body.upload.url, { method: 'PUT', headers: slot.body.upload.headers, body: bytes });
    expect(put.status).toBe(200);
    const done = await until(
      () => api('GET', `/images/${slot.body.id}`, { key: account.api_key }),
      (r) => r.body.status === 'approved',
    );
    expect(done.body).toMatchObject({ status: 'approved', width: 200, height: 100 });
  });

  it('rejects a two-step upload whose object is not an image', async () => {
    const bytes = Buffer.from('definitely not a photo');
    const slot = await api('POST', '/images/uploads', {
      key: account.api_key,
      body: { content_type: 'image/png', size: bytes.length },
    });
    await fetch(slot.body.upload.url, { method: 'PUT', headers: slot.body.upload.headers, body: bytes });

    const done = await until(
      () => api('GET', `/images/${slot.body.id}`, { key: account.api_key }),
      (r) => r.body.status === 'rejected',
    );
    expect(done.body.rejection_reason).toContain('not a JPEG, PNG, GIF or WebP');
  });

  it('judges the format by the bytes: a text file named .jpg is 415, broken multipart 400, a large photo 413 pointing to the two-step upload', async () => {
    const text = await upload(account.api_key, Buffer.from('hello'), 'cat.jpg');
    const broken = await send('POST', '/images/upload', {
      headers: { 'x-api-key': account.api_key, 'content-type': 'multipart/form-data; boundary=xyz' },
      body: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n\r\nabc',
    });
    const large = await upload(account.api_key, Buffer.alloc(4 * 1024 * 1024 + 1, 0xff), 'huge.jpg');

    expect(text.status).toBe(415);
    expect(broken.status).toBe(400);
    expect(large.status).toBe(413);
    expect(large.body.code).toBe('use_two_step_upload');
    expect((await api('GET', '/accounts/quota', { key: account.api_key })).body.usage).toBe(2 + 1);
  });

  it('never lets parallel uploads pass the monthly quota, and counts every accepted one', async () => {
    const limited = await createAccount({ quota: 5 });
    const photo = await jpeg();

    const results = await Promise.all(Array.from({ length: 9 }, () => upload(limited.api_key, photo)));

    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    expect(results.filter((r) => r.status === 400).map((r) => r.body.code)).toEqual(
      Array(4).fill('upload_quota_exceeded'),
    );
    expect((await api('GET', '/accounts/quota', { key: limited.api_key })).body).toMatchObject({
      quota: 5,
      usage: 5,
      remaining: 0,
    });
    expect((await api('GET', `/accounts/${limited.id}/overview`, { key: adminKey() })).body.counts.images).toBe(5);
  });

  it('gives back quota and image count exactly when the object store fails: no drift after injected S3 failures', async () => {
    const drifting = await createAccount({ quota: 20 });
    const photo = await jpeg();
    for (let i = 0; i < 3; i++) expect((await upload(drifting.api_key, photo)).status).toBe(201);

    // The same domain code as the route, against the real table, with the object store unreachable.
    const deps = depsWithUnreachableObjectStore();
    const owner = (await getAccount(deps, drifting.id))!;
    const failures = await Promise.allSettled(
      Array.from({ length: 5 }, () => uploadPhoto(deps, owner, { filename: 'x.jpg', bytes: photo }, {})),
    );
    deps.ddb.destroy();

    expect(failures.every((f) => f.status === 'rejected')).toBe(true);
    const quota = await api('GET', '/accounts/quota', { key: drifting.api_key });
    const stored = await api('GET', '/images?limit=100', { key: drifting.api_key });
    const overview = await api('GET', `/accounts/${drifting.id}/overview`, { key: adminKey() });
    expect(stored.body).toHaveLength(3);
    expect(quota.body.usage).toBe(stored.body.length);
    expect(overview.body.counts.images).toBe(stored.body.length);
  });

  it('lists, hides from other accounts and deletes uploads', async () => {
    const mine = await upload(account.api_key, await jpeg());
    const stranger = await createAccount();

    expect(
      (await api('GET', '/images?limit=100', { key: account.api_key })).body.map((i: { id: string }) => i.id),
    ).toContain(mine.body.id);
    expect((await api('GET', `/images/${mine.body.id}`, { key: stranger.api_key })).status).toBe(403);
    expect((await api('DELETE', `/images/${mine.body.id}`, { key: stranger.api_key })).status).toBe(403);
    expect((await api('DELETE', `/images/${mine.body.id}`, { key: account.api_key })).body).toEqual({
      message: 'SUCCESS',
    });
    expect((await api('GET', `/images/${mine.body.id}`, { key: account.api_key })).status).toBe(404);
  });
});
