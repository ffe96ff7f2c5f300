import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createAccount } from '../support/api-client.ts';

describe('image search over the real catalogue', () => {
  let key: string;
  beforeAll(async () => {
    key = (await createAccount()).api_key;
  });

  it('answers one random image by default, served from the local bucket', async () => {
    const res = await api('GET', '/images/search', { key });

    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(Number(res.headers.get('pagination-count'))).toBeGreaterThanOrEqual(1000);
    const image = await fetch(res.body[0].url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
  });

  it("pages a breed's images in ASC order without repeats, and counts them", async () => {
    const first = await api('GET', '/images/search?breed_id=beagle&order=ASC&limit=5&page=0', { key });
    const second = await api('GET', '/images/search?breed_id=beagle&order=ASC&limit=5&page=1', { key });
    const total = Number(first.headers.get('pagination-count'));

    const ids = [...first.body, ...second.body].map((i: { id: string }) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(total).toBeGreaterThan(5);
    for (const image of [...first.body, ...second.body])
      expect(image.breeds.map((b: { id: string }) => b.id)).toContain('beagle');
  });

  it('combines filters: cats with colours, in DESC order', async () => {
    const res = await api(
      'GET',
      '/images/search?species_id=cat&has_colours=true&include_colours=true&order=DESC&limit=10',
      { key },
    );

    expect(res.body).toHaveLength(10);
    for (const image of res.body) {
      expect(image.species_id).toBe('cat');
      expect(image.colours.length).toBeGreaterThan(0);
    }
    const dates = res.body.map((i: { created_at: string }) => i.created_at);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it('rejects a sub_id that is an e-mail address', async () => {
    const res = await api('GET', '/images/search?sub_id=someone@example.com', { key });

    expect(res.status).toBe(400);
  });

  it("answers a photographed breed's real photo first, credited, and serves it without EXIF (issue 27)", async () => {
    const res = await api('GET', '/images/search?breed_id=rottweiler&limit=5', { key });

    expect(res.status).toBe(200);
    const [first, ...rest] = res.body;
    expect(first).toMatchObject({
      kind: 'photo',
      species_id: 'dog',
      attribution: {
        author: expect.stringContaining('Manfred Herrmann'),
        licence: 'CC-BY-SA-3.0',
        licence_url: 'https://creativecommons.org/licenses/by-sa/3.0/',
        source_url: 'https://commons.wikimedia.org/wiki/File:Rottweiler_standing_facing_left.jpg',
      },
    });
    expect(rest.length).toBeGreaterThan(0);
    for (const image of rest) expect(image).toMatchObject({ kind: 'illustration', attribution: null });
    // newest first, the photo (added after every illustration) opens the page too
    const newest = await api('GET', '/images/search?breed_id=rottweiler&order=DESC&limit=1', { key });
    expect(newest.body[0].id).toBe(first.id);

    const served = await fetch(first.url);
    expect([served.status, served.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    const bytes = Buffer.from(await served.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', first.width, first.height]);
    expect([meta.exif, meta.xmp, meta.iptc]).toEqual([undefined, undefined, undefined]);
    expect(bytes.includes(Buffer.from('Exif\0\0', 'latin1'))).toBe(false);
  });
});
