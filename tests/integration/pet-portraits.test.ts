import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminKey, api, createAccount } from '../support/api-client.ts';
import { aPet, aSourcePhoto, bucketKeys, settled } from '../support/factories/pets.ts';

describe('pet portraits against the local stack (sharp filters, portraits queue)', () => {
  let owner: { id: string; api_key: string };
  let pet: { id: string; images: { id: string }[] };
  beforeAll(async () => {
    owner = await createAccount({ quota: 50 });
    pet = (await aPet(owner.api_key, { name: 'Model' }, [await aSourcePhoto(480, 360)])).body;
    await settled(owner.api_key, pet.id, pet.images[0]!.id);
  });

  it('lists the three styles', async () => {
    const styles = await api('GET', '/pets/portrait-styles', { key: owner.api_key });
    expect(styles.body.map((s: { id: string }) => s.id)).toEqual(['studio', 'watercolour', 'pencil_sketch']);
    expect(styles.body[0]).toMatchObject({ name: 'Studio', category: expect.any(String), popularity_score: 90 });
  });

  it('draws every style from the newest photo, names its generator, and lists them under /portraits only', async () => {
    const requested = await Promise.all(
      ['studio', 'watercolour', 'pencil_sketch'].map((style) =>
        api('POST', `/pets/${pet.id}/portrait`, { key: owner.api_key, body: { style } }),
      ),
    );
    for (const r of requested) {
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        kind: 'portrait',
        status: 'pending',
        source_image_id: pet.images[0]!.id,
        generator: 'sharp-filters',
      });
    }
    const ready = await Promise.all(requested.map((r) => settled(owner.api_key, pet.id, r.body.id, 30_000)));
    for (const r of ready) expect(r.body).toMatchObject({ status: 'ready', width: 480, height: 360 });
    // One content type from the request on: the pending record's is the ready record's and the served object's.
    expect(requested.map((r) => r.body.content_type)).toEqual(['image/jpeg', 'image/png', 'image/png']);
    expect(ready.map((r) => r.body.content_type)).toEqual(requested.map((r) => r.body.content_type));
    const served = await Promise.all(ready.map(async (r) => (await fetch(r.body.url)).headers.get('content-type')));
    expect(served).toEqual(requested.map((r) => r.body.content_type));
    const sketch = Buffer.from(await (await fetch(ready[2]!.body.url)).arrayBuffer());
    expect(await sharp(sketch).metadata()).toMatchObject({ space: 'b-w', channels: 1 });

    const portraits = await api('GET', `/pets/${pet.id}/portraits`, { key: owner.api_key });
    expect(portraits.body.map((p: { kind: string }) => p.kind)).toEqual(['portrait', 'portrait', 'portrait']);
    expect(portraits.headers.get('pagination-count')).toBe('3');
    expect((await api('GET', `/pets/${pet.id}`, { key: owner.api_key })).body.portrait_count).toBe(3);
    // An earlier portrait can be the structural reference of the next one.
    const again = await api('POST', `/pets/${pet.id}/portrait`, {
      key: owner.api_key,
      body: { style: 'pencil_sketch', image_ids: [ready[0]!.body.id] },
    });
    expect(again.body.source_image_id).toBe(ready[0]!.body.id);
    expect((await settled(owner.api_key, pet.id, again.body.id, 30_000)).body.status).toBe('ready');
  });

  it('right after a photo upload: waits for the photo and draws from it, instead of answering that the pet has none', async () => {
    const fresh = (await aPet(owner.api_key, { name: 'Fresh' }, [await aSourcePhoto(160, 120)])).body;
    expect(fresh.images[0].status).toBe('pending');

    const requested = await api('POST', `/pets/${fresh.id}/portrait`, {
      key: owner.api_key,
      body: { style: 'studio' },
    });

    expect(requested.status, JSON.stringify(requested.body)).toBe(200);
    expect(requested.body).toMatchObject({ status: 'pending', source_image_id: fresh.images[0].id });
  });

  it('answers 400 for an unknown style, a pet without photos, and a reference that is not the pet’s', async () => {
    const empty = (await aPet(owner.api_key, { name: 'Shy' })).body;
    const unknown = await api('POST', `/pets/${pet.id}/portrait`, {
      key: owner.api_key,
      body: { style: 'oil_painting' },
    });
    const noPhotos = await api('POST', `/pets/${empty.id}/portrait`, { key: owner.api_key, body: { style: 'studio' } });
    const foreign = await api('POST', `/pets/${empty.id}/portrait`, {
      key: owner.api_key,
      body: { style: 'studio', image_ids: [pet.images[0]!.id] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toEqual(['style must be one of: studio, watercolour, pencil_sketch']);
    expect([noPhotos.status, noPhotos.body.code]).toEqual([400, 'pet_has_no_photos']);
    expect([foreign.status, foreign.body.code]).toEqual([400, 'invalid_reference']);
  });

  it('answers 403 capability_disabled once an administrator switches portraits off; reading them stays open', async () => {
    const account = await createAccount({ quota: 10 });
    const own = (await aPet(account.api_key, { name: 'Muse' }, [await aSourcePhoto(120, 90)])).body;
    await settled(account.api_key, own.id, own.images[0]!.id);
    await api('PATCH', `/accounts/${account.id}`, { key: adminKey(), body: { disabled_capabilities: ['portraits'] } });

    const refused = await api('POST', `/pets/${own.id}/portrait`, { key: account.api_key, body: { style: 'studio' } });

    expect([refused.status, refused.body.code, refused.body.capability]).toEqual([
      403,
      'capability_disabled',
      'portraits',
    ]);
    expect((await api('GET', '/accounts/capabilities', { key: account.api_key })).body).toEqual(['portraits']);
    const listed = await api('GET', `/pets/${own.id}/portraits`, { key: account.api_key });
    expect([listed.status, listed.headers.get('pagination-count')]).toEqual([200, '0']);
    await api('PATCH', `/accounts/${account.id}`, { key: adminKey(), body: { disabled_capabilities: [] } });
    expect(
      (await api('POST', `/pets/${own.id}/portrait`, { key: account.api_key, body: { style: 'studio' } })).status,
    ).toBe(200);
  });

  it('answers 403 to another account and deletes portraits with the pet', async () => {
    const stranger = await createAccount();
    expect(
      (await api('POST', `/pets/${pet.id}/portrait`, { key: stranger.api_key, body: { style: 'studio' } })).status,
    ).toBe(403);
    expect((await api('GET', `/pets/${pet.id}/portraits`, { key: stranger.api_key })).status).toBe(403);
    expect((await bucketKeys('pets/')).filter((k) => k.includes(pet.id)).length).toBeGreaterThan(4);

    expect((await api('DELETE', `/pets/${pet.id}`, { key: owner.api_key })).status).toBe(200);
    expect((await bucketKeys('pets/')).filter((k) => k.includes(pet.id))).toEqual([]);
  });
});
