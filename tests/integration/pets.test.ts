import { beforeAll, describe, expect, it } from 'vitest';
import { api, createAccount, send } from '../support/api-client.ts';
import { aPet, aPhoto } from '../support/factories/pets.ts';

describe('pets: the profile against the local stack', () => {
  let owner: { id: string; api_key: string };
  let stranger: { id: string; api_key: string };
  beforeAll(async () => {
    [owner, stranger] = await Promise.all([createAccount({ quota: 500 }), createAccount()]);
  });

  it('creates a pet from multipart fields and answers 201 with its breeds in the basic shape', async () => {
    const created = await aPet(owner.api_key, {
      name: 'Bella',
      description: 'Loves the beach',
      breed_ids: 'beagle',
      sex: 'female',
      neutered: 'true',
      birth_date: '2021-06',
      weight_kg: '11.5',
      sub_id: 'user-1',
      external_owner_id: 'usr_8b3d91',
    });

    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Bella',
      species_id: 'dog',
      breed_ids: ['beagle'],
      breeds: [{ id: 'beagle', name: 'Beagle' }],
      sex: 'female',
      neutered: true,
      birth_date: '2021-06',
      weight_kg: 11.5,
      sub_id: 'user-1',
      external_owner_id: 'usr_8b3d91',
      photo_count: 0,
      video_count: 0,
      portrait_count: 0,
      images: [],
    });
    expect(created.body.account_id).toBeUndefined();
    const read = await api('GET', `/pets/${created.body.id}`, { key: owner.api_key });
    expect(read.body).toMatchObject({ id: created.body.id, name: 'Bella', breeds: [{ id: 'beagle' }] });
  });

  it('lists every problem of a bad profile in one 400', async () => {
    const bad = await aPet(owner.api_key, {
      breed_ids: 'beagle,no-such-breed',
      birth_date: '2999-01-01',
      weight_kg: '-3',
      sub_id: 'someone@example.com',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual(
      expect.arrayContaining([
        expect.stringContaining('birth_date must not be in the future'),
        expect.stringContaining('weight_kg'),
        expect.stringContaining('sub_id must be an opaque id'),
      ]),
    );
    const unknownBreed = await aPet(owner.api_key, { breed_ids: 'beagle,no-such-breed,abyssinian' });
    expect(unknownBreed.status).toBe(400);
    expect(unknownBreed.body.message).toEqual([
      'breed_ids no-such-breed is not a known breed id',
      'breed_ids abyssinian is not a breed of species dog',
    ]);
  });

  it('filters the list by species, breed, breed groups, sub_id and external_owner_id, with Pagination-Count', async () => {
    const account = await createAccount();
    const key = account.api_key;
    await aPet(key, { name: 'A', breed_ids: 'beagle', sub_id: 'u1', external_owner_id: 'o1' });
    await aPet(key, { name: 'B', breed_ids: 'german-shepherd-dog', sub_id: 'u2', external_owner_id: 'o1' });
    await aPet(key, { name: 'C', species_id: 'cat', breed_ids: 'abyssinian', sub_id: 'u1' });
    const names = async (query: string) => {
      const res = await api('GET', `/pets${query}`, { key });
      return { names: res.body.map((p: { name: string }) => p.name), count: res.headers.get('pagination-count') };
    };

    expect(await names('')).toEqual({ names: ['A', 'B', 'C'], count: '3' });
    expect(await names('?order=DESC&limit=2')).toEqual({ names: ['C', 'B'], count: '3' });
    expect(await names('?limit=2&page=1')).toEqual({ names: ['C'], count: '3' });
    expect((await names('?species_id=cat')).names).toEqual(['C']);
    expect((await names('?breed_id=beagle')).names).toEqual(['A']);
    expect((await names('?breed_groups=herding')).names).toEqual(['B']);
    expect((await names('?exclude_breed_groups=hound')).names).toEqual(['B', 'C']);
    expect((await names('?sub_id=u1')).names).toEqual(['A', 'C']);
    expect((await names('?external_owner_id=o1')).names).toEqual(['A', 'B']);
    expect((await api('GET', `/pets?external_owner_id=${'x'.repeat(256)}`, { key })).status).toBe(400);
  });

  it('keeps Pagination-Count and every page right as pets come and go, concurrently too', async () => {
    const account = await createAccount();
    const key = account.api_key;
    for (const n of [1, 2, 3, 4, 5, 6, 7])
      await aPet(key, { name: `P${n}`, external_owner_id: n % 2 ? 'odd' : 'even' });
    await aPet(stranger.api_key, { name: 'Not mine' });
    const page = async (query: string) => {
      const res = await api('GET', `/pets?${query}`, { key });
      return { names: res.body.map((p: { name: string }) => p.name), count: res.headers.get('pagination-count') };
    };
    /** Every page of `limit` in order until an empty one, each with the count it carried. */
    const allPages = async (limit: number, order = 'ASC') => {
      const pages: { names: string[]; count: string | null }[] = [];
      for (let n = 0; pages.at(-1)?.names.length !== 0; n++)
        pages.push(await page(`limit=${limit}&page=${n}&order=${order}`));
      return pages;
    };

    expect(await allPages(3)).toEqual([
      { names: ['P1', 'P2', 'P3'], count: '7' },
      { names: ['P4', 'P5', 'P6'], count: '7' },
      { names: ['P7'], count: '7' },
      { names: [], count: '7' },
    ]);
    expect((await allPages(3, 'DESC')).map((p) => p.names)).toEqual([
      ['P7', 'P6', 'P5'],
      ['P4', 'P3', 'P2'],
      ['P1'],
      [],
    ]);
    expect(await page('external_owner_id=odd&limit=3&page=1')).toEqual({ names: ['P7'], count: '4' });

    const second = (await page('limit=1&page=1')).names[0];
    const all = (await api('GET', '/pets?limit=100', { key })).body as { id: string; name: string }[];
    expect((await api('DELETE', `/pets/${all.find((p) => p.name === second)!.id}`, { key })).status).toBe(200);
    expect(await page('limit=3&page=0')).toEqual({ names: ['P1', 'P3', 'P4'], count: '6' });
    expect(await page('limit=3&page=1')).toEqual({ names: ['P5', 'P6', 'P7'], count: '6' });

    // Ten pets created at once: the account's count moves with each creation, so it matches the pets listed.
    await Promise.all(Array.from({ length: 10 }, (_, i) => aPet(key, { name: `Q${i}` })));
    const pages = await allPages(4);
    const listed = pages.flatMap((p) => p.names);
    expect(new Set(pages.map((p) => p.count))).toEqual(new Set(['16']));
    expect(listed).toHaveLength(16);
    expect(new Set(listed).size).toBe(16);
    expect(listed.slice(0, 6)).toEqual(['P1', 'P3', 'P4', 'P5', 'P6', 'P7']);
  });

  it('updates metadata with PATCH, clears fields with null and re-checks the breeds', async () => {
    const pet = (await aPet(owner.api_key, { breed_ids: 'beagle', sub_id: 'before' })).body;

    const patched = await api('PATCH', `/pets/${pet.id}`, {
      key: owner.api_key,
      body: { sub_id: 'after', description: 'Calmer now', weight_kg: 12, sex: null },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ sub_id: 'after', description: 'Calmer now', weight_kg: 12, sex: null });
    expect(patched.body.updated_at >= pet.updated_at).toBe(true);
    const wrong = await api('PATCH', `/pets/${pet.id}`, {
      key: owner.api_key,
      body: { breed_ids: ['abyssinian'], species_id: 'dog' },
    });
    expect(wrong.status).toBe(400);
    const empty = await api('PATCH', `/pets/${pet.id}`, { key: owner.api_key, body: {} });
    expect(empty.status).toBe(400);
  });

  it('answers 403 for every route on another account’s pet and 404 for an unknown one', async () => {
    const pet = (await aPet(owner.api_key, {}, [await aPhoto(3)])).body;
    const imageId = pet.images[0].id;
    const calls: [string, string, unknown?][] = [
      ['GET', `/pets/${pet.id}`],
      ['PATCH', `/pets/${pet.id}`, { name: 'Mine now' }],
      ['DELETE', `/pets/${pet.id}`],
      ['GET', `/pets/${pet.id}/images`],
      ['GET', `/pets/${pet.id}/images/${imageId}`],
      ['DELETE', `/pets/${pet.id}/images/${imageId}`],
      ['POST', `/pets/${pet.id}/uploads`, { kind: 'video', content_type: 'video/mp4', size: 1000 }],
    ];
    for (const [method, path, body] of calls) {
      const res = await api(method, path, { key: stranger.api_key, ...(body !== undefined && { body }) });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    expect((await api('GET', '/pets/01NOSUCHPET0000000000000000', { key: owner.api_key })).status).toBe(404);
    expect((await api('GET', `/pets/${pet.id}`, { key: owner.api_key })).body.name).toBe('Rex');
  });

  it('deletes a pet with 200 and an empty body; it is gone from reads and lists', async () => {
    const pet = (await aPet(owner.api_key, { name: 'Gone' })).body;
    const res = await send('DELETE', `/pets/${pet.id}`, { headers: { 'x-api-key': owner.api_key } });
    expect(res.status).toBe(200);
    expect(res.body).toBeUndefined();
    expect((await api('GET', `/pets/${pet.id}`, { key: owner.api_key })).status).toBe(404);
    expect((await api('DELETE', `/pets/${pet.id}`, { key: owner.api_key })).status).toBe(404);
  });
});
