import { beforeAll, describe, expect, it } from 'vitest';
import { adminKey, api, createAccount } from '../support/api-client.ts';

async function tokenFor(key: string): Promise<string> {
  return (await api('POST', '/auth/token', { key })).body.access_token;
}

describe('votes and favourites against DynamoDB Local', () => {
  let account: { id: string; api_key: string };
  let token: string;
  let imageIds: string[];
  beforeAll(async () => {
    account = await createAccount();
    token = await tokenFor(account.api_key);
    imageIds = (await api('GET', '/images/search?limit=60&order=ASC', { key: account.api_key })).body.map(
      (i: { id: string }) => i.id,
    );
  });

  it('records 50 parallel votes as exactly 50 votes with 50 distinct ids, and counts them', async () => {
    const results = await Promise.all(
      imageIds
        .slice(0, 50)
        .map((image_id, n) =>
          api('POST', '/votes', { key: account.api_key, body: { image_id, value: n % 2, sub_id: 'crowd' } }),
        ),
    );

    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(50);
    const listed = await api('GET', '/votes?limit=100&sub_id=crowd', { token });
    expect(listed.body).toHaveLength(50);
    const overview = await api('GET', `/accounts/${account.id}/overview`, { key: adminKey() });
    expect(overview.body.counts.votes).toBe(50);
  });

  it('records 50 parallel favourites of 50 images as exactly 50, and refuses the duplicates of a second wave', async () => {
    const fav = (image_id: string) =>
      api('POST', '/favourites', { key: account.api_key, body: { image_id, sub_id: 'fans' } });
    const first = await Promise.all(imageIds.slice(0, 50).map(fav));
    const second = await Promise.all(imageIds.slice(0, 10).map(fav));

    expect(first.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(second.map((r) => r.status)).toEqual(Array(10).fill(409));
    expect(second[0]!.body.favourite_id).toBe(first[0]!.body.id);
    const overview = await api('GET', `/accounts/${account.id}/overview`, { key: adminKey() });
    expect(overview.body.counts.favourites).toBe(50);
  });

  it('makes the same image favouritable again after a delete, which lists it only with is_deleted', async () => {
    const created = await api('POST', '/favourites', {
      key: account.api_key,
      body: { image_id: imageIds[55], sub_id: 'again' },
    });
    const deleted = await api('DELETE', `/favourites/${created.body.id}`, { token });
    const recreated = await api('POST', '/favourites', {
      key: account.api_key,
      body: { image_id: imageIds[55], sub_id: 'again' },
    });
    const live = await api('GET', '/favourites?sub_id=again', { key: account.api_key });
    const all = await api('GET', '/favourites?sub_id=again&is_deleted=true&attach_image=true', {
      key: account.api_key,
    });

    expect(deleted.body).toEqual({ message: 'SUCCESS' });
    expect(recreated.status).toBe(200);
    expect(live.body.map((f: { id: string }) => f.id)).toEqual([recreated.body.id]);
    expect(all.body).toHaveLength(2);
    expect(all.body[0].image.url).toMatch(/\.jpg$/);
    expect((await api('GET', `/favourites/${created.body.id}`, { key: account.api_key })).status).toBe(404);
  });

  it("attaches the caller's vote and favourite to searched images for a matching sub_id", async () => {
    const image = imageIds[0]!;
    const res = await api('GET', `/images/search?order=ASC&limit=1&sub_id=crowd`, { key: account.api_key });

    expect(res.body[0].id).toBe(image);
    expect(res.body[0].vote).toMatchObject({ value: 0, image_id: image });
  });

  it('deletes a vote and keeps others; another account cannot read it', async () => {
    const vote = await api('POST', '/votes', { key: account.api_key, body: { image_id: imageIds[58], value: 1 } });
    const stranger = await createAccount();

    expect((await api('GET', `/votes/${vote.body.id}`, { token: await tokenFor(stranger.api_key) })).status).toBe(403);
    expect((await api('DELETE', `/votes/${vote.body.id}`, { key: account.api_key })).body).toEqual({
      message: 'SUCCESS',
    });
    expect((await api('GET', `/votes/${vote.body.id}`, { token })).status).toBe(404);
  });
});

describe('account routes', () => {
  it('report features, capabilities and quota; admins read and change quotas and switch capabilities off', async () => {
    const account = await createAccount({ features: ['full_breed_schema'], quota: 25 });

    expect((await api('GET', '/accounts/features', { key: account.api_key })).body).toEqual(['full_breed_schema']);
    expect((await api('GET', '/accounts/quota', { key: account.api_key })).body).toMatchObject({
      quota: 25,
      usage: 0,
      remaining: 25,
    });
    const patched = await api('PATCH', `/accounts/${account.id}/quota`, { key: adminKey(), body: { quota: 40 } });
    expect(patched.body).toMatchObject({ quota: 40, remaining: 40 });
    expect((await api('GET', `/accounts/${account.id}/quota`, { key: adminKey() })).body.quota).toBe(40);
    expect((await api('GET', `/accounts/${account.id}/quota`, { key: account.api_key })).status).toBe(403);

    await api('PATCH', `/accounts/${account.id}`, { key: adminKey(), body: { disabled_capabilities: ['votes'] } });
    expect((await api('GET', '/accounts/capabilities', { key: account.api_key })).body).toEqual(['votes']);
    const vote = await api('POST', '/votes', { key: account.api_key, body: { image_id: 'whatever', value: 1 } });
    expect(vote.status).toBe(403);
    expect(vote.body.code).toBe('capability_disabled');
  });

  it('answers 404 for the quota or overview of an account that does not exist', async () => {
    expect((await api('GET', '/accounts/nobody/overview', { key: adminKey() })).status).toBe(404);
    expect((await api('PATCH', '/accounts/nobody/quota', { key: adminKey(), body: { quota: 1 } })).status).toBe(404);
  });
});
