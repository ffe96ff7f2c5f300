// What a browser gets with a served media object, locally as deployed: its exact type and an inline disposition
// naming it (the object's metadata, written with it), and through the media front, the CDN's stand-in,
// `X-Content-Type-Options: nosniff` (the distribution's response-headers policy).
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createAccount, send } from '../support/api-client.ts';
import { addPhotos, aPet, aPhoto, settled } from '../support/factories/pets.ts';
import { until } from '../support/polling.ts';

const headersOf = async (url: string) => {
  const res = await fetch(url);
  await res.arrayBuffer();
  expect(res.status, url).toBe(200);
  return {
    type: res.headers.get('content-type'),
    disposition: res.headers.get('content-disposition'),
    sniffing: res.headers.get('x-content-type-options'),
  };
};

describe('served media headers', () => {
  let key: string;
  beforeAll(async () => {
    key = (await createAccount({ quota: 10 })).api_key;
  });

  it('serves an uploaded photo, once approved, as what it is, inline under its id, never sniffed', async () => {
    const form = new FormData();
    form.append('file', new Blob([await aPhoto(7)]), 'holiday <script>.jpg');
    const created = await send('POST', '/images/upload', { headers: { 'x-api-key': key }, body: form });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const approved = await until(
      () => api('GET', `/images/${created.body.id}`, { key }),
      (r) => r.body.status === 'approved',
    );

    expect(await headersOf(approved.body.url)).toEqual({
      type: 'image/jpeg',
      disposition: `inline; filename="${created.body.id}.jpg"`,
      sniffing: 'nosniff',
    });
  });

  it('serves a catalogue image the same way', async () => {
    const [image] = (await api('GET', '/images/search', { key })).body;

    expect(await headersOf(image.url)).toEqual({
      type: 'image/jpeg',
      disposition: `inline; filename="${image.url.split('/').pop()}"`,
      sniffing: 'nosniff',
    });
  });

  it("serves a pet photo's copies (presigned, from the bucket) as what they are, inline under the photo's id", async () => {
    const pet = (await aPet(key, { name: 'Pip' })).body;
    const [added] = (await addPhotos(key, pet.id, [await aPhoto(8, 320, 240)])).body;
    const ready = await settled(key, pet.id, added.id);

    expect(await headersOf(ready.body.url)).toMatchObject({
      type: 'image/jpeg',
      disposition: `inline; filename="${added.id}.jpg"`,
    });
    expect(await headersOf(ready.body.thumbnail_url)).toMatchObject({
      type: 'image/jpeg',
      disposition: `inline; filename="${added.id}-thumbnail.jpg"`,
    });
  });
});
