import { beforeAll, describe, expect, it } from 'vitest';
import { api, createAccount } from '../support/api-client.ts';
import { addPhotos, aPet, aPhoto, settled } from '../support/factories/pets.ts';

type Listed = { id: string; kind: string; status: string };

/** Every page of a gallery list, with the Pagination-Count each page answered. */
async function everyPage(key: string, path: string, limit: number) {
  const ids: Listed[] = [];
  const counts = new Set<string | null>();
  for (let page = 0; ; page++) {
    const res = await api('GET', `${path}${path.includes('?') ? '&' : '?'}limit=${limit}&page=${page}`, { key });
    expect(res.status).toBe(200);
    counts.add(res.headers.get('pagination-count'));
    ids.push(...res.body);
    if (res.body.length < limit) break;
  }
  return { items: ids, counts: [...counts] };
}

describe('the pet gallery: Pagination-Count from the pet’s counts, pages by kind from its index', () => {
  let owner: { id: string; api_key: string };
  beforeAll(async () => {
    owner = await createAccount({ quota: 1000 });
  });

  it('keeps the counts equal to the listed records through concurrent uploads, a rejection, portraits and deletes', async () => {
    const created = await aPet(owner.api_key, { name: 'Gallery' }, [await aPhoto(501, 320, 240), await aPhoto(502)]);
    const pet = created.body;
    const [first, second] = pet.images as { id: string }[];
    const truncated = (await aPhoto(503, 400, 300)).subarray(0, 600);

    // At once: three requests of new photos (one repeating a photo already on the pet), a damaged photo, a portrait of
    // the first photo, and the deletion of the second photo.
    await settled(owner.api_key, pet.id, first!.id);
    const [a, b, c, damaged, portrait, deleted] = await Promise.all([
      addPhotos(owner.api_key, pet.id, [await aPhoto(511), await aPhoto(512)]),
      addPhotos(owner.api_key, pet.id, [await aPhoto(513), await aPhoto(501, 320, 240)]),
      addPhotos(owner.api_key, pet.id, [await aPhoto(514), await aPhoto(515)]),
      addPhotos(owner.api_key, pet.id, [truncated]),
      api('POST', `/pets/${pet.id}/portrait`, { key: owner.api_key, body: { style: 'pencil_sketch' } }),
      api('DELETE', `/pets/${pet.id}/images/${second!.id}`, { key: owner.api_key }),
    ]);
    for (const r of [a, b, c, damaged, portrait, deleted]) expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(b.body.map((p: { duplicate: boolean }) => p.duplicate)).toEqual([false, true]);
    const added = [...a.body, ...b.body, ...c.body, ...damaged.body, portrait.body].filter((p) => !p.duplicate);
    for (const m of added) await settled(owner.api_key, pet.id, m.id, 30_000);
    expect((await api('GET', `/pets/${pet.id}/images/${damaged.body[0].id}`, { key: owner.api_key })).body.status).toBe(
      'rejected',
    );

    // 1 + 5 new + 1 rejected photos (the rejected one stays listed until deleted), 1 portrait; the second photo gone.
    const profile = (await api('GET', `/pets/${pet.id}`, { key: owner.api_key })).body;
    expect([profile.photo_count, profile.video_count, profile.portrait_count]).toEqual([7, 0, 1]);
    const gallery = await everyPage(owner.api_key, `/pets/${pet.id}/images`, 3);
    expect(gallery.counts).toEqual(['8']);
    expect(new Set(gallery.items.map((m) => m.id)).size).toBe(8);
    expect(gallery.items.map((m) => m.id)).not.toContain(second!.id);
    const photos = await everyPage(owner.api_key, `/pets/${pet.id}/images?kind=photo`, 2);
    expect(photos.counts).toEqual(['7']);
    expect(photos.items.map((m) => m.id)).toEqual(gallery.items.filter((m) => m.kind === 'photo').map((m) => m.id));
    const portraits = await everyPage(owner.api_key, `/pets/${pet.id}/portraits`, 1);
    expect([portraits.counts, portraits.items.map((m) => m.id)]).toEqual([['1'], [portrait.body.id]]);

    // Deleting the rejected photo and the portrait moves the counts with the records.
    await api('DELETE', `/pets/${pet.id}/images/${damaged.body[0].id}`, { key: owner.api_key });
    await api('DELETE', `/pets/${pet.id}/images/${portrait.body.id}`, { key: owner.api_key });
    const after = await everyPage(owner.api_key, `/pets/${pet.id}/images?order=DESC`, 4);
    expect(after.counts).toEqual(['6']);
    expect(after.items.map((m) => m.id)).toEqual(
      gallery.items
        .filter((m) => m.id !== damaged.body[0].id && m.id !== portrait.body.id)
        .map((m) => m.id)
        .reverse(),
    );
    expect((await everyPage(owner.api_key, `/pets/${pet.id}/portraits`, 5)).counts).toEqual(['0']);
  });
});
