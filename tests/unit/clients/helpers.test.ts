import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createPet,
  createPetApiClient,
  items,
  PetApiError,
  pages,
  uploadLargeMedia,
} from '../../../clients/ts/src/index.ts';

interface Sent {
  method: string;
  url: string;
  headers: Headers;
  body: Uint8Array;
}

/** A fetch that records each request and answers by `route(request)`. */
function fakeApi(route: (request: Sent, n: number) => Response) {
  const sent: Sent[] = [];
  const fetch = async (request: Request) => {
    const entry = {
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: new Uint8Array(await request.arrayBuffer()),
    };
    sent.push(entry);
    return route(entry, sent.length);
  };
  const api = createPetApiClient({
    baseUrl: 'http://api.test/v1',
    apiKey: 'live_key',
    fetch,
    retry: { random: () => 0, sleep: async () => {} },
  });
  return { api, sent };
}

const json = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), {
    status: 200,
    ...init,
    headers: { 'content-type': 'application/json', ...init.headers },
  });

describe('paging', () => {
  const breeds = Array.from({ length: 23 }, (_, i) => ({ id: `b${i}`, name: `Breed ${i}` }));
  const pageOf = (page: number, limit: number) => breeds.slice(page * limit, (page + 1) * limit);

  it('yields every item, page by page, and stops at the Pagination-Count total without asking again', async () => {
    const { api, sent } = fakeApi((r) => {
      const page = Number(new URL(r.url).searchParams.get('page'));
      return json(pageOf(page, 10), { headers: { 'pagination-count': '23' } });
    });
    const names: string[] = [];
    for await (const breed of items(({ page }) => api.GET('/breeds', { params: { query: { limit: 10, page } } }))) {
      names.push(breed.name);
    }
    expect(names).toEqual(breeds.map((b) => b.name));
    expect(sent.map((r) => new URL(r.url).searchParams.get('page'))).toEqual(['0', '1', '2']);
  });

  it('without a total, stops at a short page or an empty one, and passes offsets to offset routes', async () => {
    const { api, sent } = fakeApi((r) => {
      const offset = Number(new URL(r.url).searchParams.get('offset'));
      return json(breeds.slice(offset, offset + 5).map((b) => ({ id: b.id, text: b.name })));
    });
    const seen = [];
    for await (const page of pages(({ offset }) => api.GET('/facts', { params: { query: { limit: 5, offset } } }))) {
      seen.push({ page: page.page, count: page.items.length, total: page.total });
    }
    expect(seen.map((p) => p.count)).toEqual([5, 5, 5, 5, 3]);
    expect(seen.every((p) => p.total === undefined)).toBe(true);
    expect(sent.map((r) => new URL(r.url).searchParams.get('offset'))).toEqual(['0', '5', '10', '15', '20']);

    const exact = fakeApi((_, n) => json(n <= 2 ? pageOf(n - 1, 5) : []));
    const all = [];
    for await (const b of items(({ page }) => exact.api.GET('/breeds', { params: { query: { limit: 5, page } } }))) {
      all.push(b);
    }
    expect(all).toHaveLength(10);
    expect(exact.sent).toHaveLength(3);
  });

  it('throws PetApiError for a failed page', async () => {
    const { api } = fakeApi(() =>
      json({ statusCode: 400, message: ['page: too big'], code: 'invalid' }, { status: 400 }),
    );
    const walk = async () => {
      for await (const _ of items(({ page }) => api.GET('/breeds', { params: { query: { page } } }))) {
        // no item arrives
      }
    };
    await expect(walk()).rejects.toMatchObject({ statusCode: 400, code: 'invalid', messages: ['page: too big'] });
    await expect(walk()).rejects.toBeInstanceOf(PetApiError);
  });
});

describe('uploads', () => {
  it('creates a pet as multipart: fields, breed ids comma-separated, each photo a file part, one idempotency key', async () => {
    const { api, sent } = fakeApi((_, n) => (n === 1 ? json({}, { status: 503 }) : json({ id: 'pet1', images: [] })));
    const photo = new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3]);
    await createPet(api, { name: 'Rex', breed_ids: ['beagle', 'pug'], neutered: false }, [
      photo,
      new File([photo], 'rex.jpg', { type: 'image/jpeg' }),
    ]);
    expect(sent).toHaveLength(2);
    const form = await new Request('http://x', {
      method: 'POST',
      body: sent[1]!.body,
      headers: { 'content-type': sent[1]!.headers.get('content-type')! },
    }).formData();
    expect(form.get('name')).toBe('Rex');
    expect(form.get('breed_ids')).toBe('beagle,pug');
    expect(form.get('neutered')).toBe('false');
    expect(form.getAll('images').map((f) => (f as File).name)).toEqual(['images-1', 'rex.jpg']);
    expect(sent[0]!.headers.get('idempotency-key')).toBe(sent[1]!.headers.get('idempotency-key'));
    expect(sent[0]!.body).toEqual(sent[1]!.body);
  });

  it('uploads in two steps: a slot with the SHA-256, every part PUT without the API key (retried), then completion', async () => {
    const bytes = new Uint8Array(25).map((_, i) => i);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const part = (n: number, size: number) => ({ part_number: n, size, url: `http://s3.test/obj?partNumber=${n}` });
    let putTries = 0;
    const { api, sent } = fakeApi((r) => {
      if (r.url.endsWith('/pets/p1/uploads')) {
        return json({
          id: 'm1',
          upload: { method: 'PUT', part_size: 10, parts: [part(1, 10), part(2, 10), part(3, 5)] },
        });
      }
      if (r.url.startsWith('http://s3.test/')) {
        putTries += 1;
        if (putTries === 2) return new Response('slow down', { status: 503 });
        return new Response(null, {
          status: 200,
          headers: { etag: `"e${new URL(r.url).searchParams.get('partNumber')}"` },
        });
      }
      return json({ id: 'm1', status: 'pending' });
    });
    const record = await uploadLargeMedia(api, 'p1', new Blob([bytes], { type: 'image/png' }), {
      kind: 'photo',
      filename: 'big.png',
      concurrency: 1,
    });
    expect(record).toEqual({ id: 'm1', status: 'pending' });

    const slot = sent[0]!;
    expect(JSON.parse(new TextDecoder().decode(slot.body))).toEqual({
      kind: 'photo',
      size: 25,
      sha256,
      content_type: 'image/png',
      filename: 'big.png',
    });
    const puts = sent.filter((r) => r.method === 'PUT');
    expect(puts.map((r) => r.headers.get('x-api-key'))).toEqual([null, null, null, null]);
    expect(puts.map((r) => Array.from(r.body))).toEqual([
      Array.from(bytes.slice(0, 10)),
      Array.from(bytes.slice(10, 20)),
      Array.from(bytes.slice(10, 20)),
      Array.from(bytes.slice(20)),
    ]);
    const complete = sent.at(-1)!;
    expect(complete.url).toBe('http://api.test/v1/pets/p1/uploads/m1/complete');
    expect(JSON.parse(new TextDecoder().decode(complete.body))).toEqual({
      parts: [
        { part_number: 1, etag: '"e1"' },
        { part_number: 2, etag: '"e2"' },
        { part_number: 3, etag: '"e3"' },
      ],
    });
  });

  it('answers the existing record of a photo the pet already has, sending no part', async () => {
    const { api, sent } = fakeApi(() => json({ id: 'm0', duplicate: true, upload: null }));
    const record = await uploadLargeMedia(api, 'p1', new Uint8Array([1, 2, 3]), {
      kind: 'photo',
      contentType: 'image/jpeg',
    });
    expect(record).toEqual({ id: 'm0', duplicate: true });
    expect(sent).toHaveLength(1);
  });
});
