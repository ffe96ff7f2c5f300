import { describe, expect, it } from 'vitest';
import { createPetApiClient, PetApiError, type RetryOptions, unwrap } from '../../../clients/ts/src/index.ts';

type Answer = Response | Error;

/** A fetch that answers from a script (the last answer repeats) and records what it was sent and every wait. */
function fakeServer(...script: (() => Answer)[]) {
  const sent: { method: string; url: string; headers: Headers; body: string }[] = [];
  const waits: number[] = [];
  const fetch = async (request: Request) => {
    sent.push({
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: await request.text(),
    });
    const answer = script[Math.min(sent.length, script.length) - 1]!();
    if (answer instanceof Error) throw answer;
    return answer;
  };
  const retry: RetryOptions = {
    random: () => 0.25,
    sleep: async (ms) => {
      waits.push(ms);
    },
  };
  return { sent, waits, fetch, retry };
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const failure = (status: number, code = 'x') => json(status, { statusCode: status, message: 'no', code });
const networkError = () => () => new TypeError('fetch failed');
const vote = json(200, { id: 7, image_id: 'img', value: 1 });

function client(server: ReturnType<typeof fakeServer>, retry: RetryOptions = {}) {
  return createPetApiClient({
    baseUrl: 'http://api.test/v1',
    apiKey: 'live_key',
    fetch: server.fetch,
    retry: { ...server.retry, ...retry },
  });
}

const postVote = (api: ReturnType<typeof client>) =>
  api.POST('/votes', { body: { image_id: 'img', value: 1, sub_id: 'u1' } });

describe('the client’s retries (the spec: 429, 500, 503; 1, 2, 4, 8 s plus a random fraction; at most 4)', () => {
  it.each([429, 500, 503])('retries %i and answers the success that follows', async (status) => {
    const server = fakeServer(failure(status), failure(status), vote);
    const { data } = await postVote(client(server));
    expect(data).toMatchObject({ id: 7 });
    expect(server.sent).toHaveLength(3);
    expect(server.waits).toEqual([1250, 2250]);
  });

  it.each([400, 401, 403, 404, 409, 413, 422, 502, 504])('answers %i at once', async (status) => {
    const server = fakeServer(failure(status));
    const { error, response } = await postVote(client(server));
    expect(response.status).toBe(status);
    expect(error).toMatchObject({ code: 'x' });
    expect(server.sent).toHaveLength(1);
    expect(server.waits).toEqual([]);
  });

  it('stops after 4 retries, waiting 1, 2, 4 and 8 s plus the fraction, and answers the last failure', async () => {
    const server = fakeServer(failure(503, 'analysis_unavailable'));
    const error = await unwrap(postVote(client(server))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PetApiError);
    expect(error).toMatchObject({ statusCode: 503, code: 'analysis_unavailable', message: 'no' });
    expect(server.sent).toHaveLength(5);
    expect(server.waits).toEqual([1250, 2250, 4250, 8250]);
  });

  it('sends one Idempotency-Key per call, the same on every retry, and a new one for the next call', async () => {
    const server = fakeServer(failure(500), failure(429), vote);
    const api = client(server);
    await postVote(api);
    const keys = server.sent.map((r) => r.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys)).toEqual(new Set([keys[0]]));
    expect(server.sent.map((r) => r.body)).toEqual(Array(3).fill('{"image_id":"img","value":1,"sub_id":"u1"}'));

    await postVote(api);
    expect(server.sent[3]!.headers.get('idempotency-key')).not.toBe(keys[0]);
  });

  it('keeps the caller’s own Idempotency-Key', async () => {
    const server = fakeServer(failure(500), vote);
    await client(server).POST('/votes', {
      params: { header: { 'Idempotency-Key': 'mine-1' } },
      body: { image_id: 'img', value: 1 },
    });
    expect(server.sent.map((r) => r.headers.get('idempotency-key'))).toEqual(['mine-1', 'mine-1']);
  });

  it('sends no key on reads, nor on writes that ignore it (their answer shows a secret once)', async () => {
    const server = fakeServer(json(200, []));
    const api = client(server);
    await api.GET('/breeds', {});
    await api.POST('/webhooks', { body: { url: 'https://example.com/hook', enabled_events: ['vote.created'] } });
    expect(server.sent.map((r) => r.headers.get('idempotency-key'))).toEqual([null, null]);
  });

  it('retries a network error of a keyed write or a read, never of a write without a key', async () => {
    const keyed = fakeServer(networkError(), vote);
    expect((await postVote(client(keyed))).data).toMatchObject({ id: 7 });
    expect(keyed.waits).toEqual([1250]);

    const read = fakeServer(networkError(), json(200, []));
    expect((await client(read).GET('/breeds', {})).data).toEqual([]);

    const unkeyed = fakeServer(networkError(), json(200, {}));
    await expect(
      client(unkeyed).POST('/webhooks', {
        body: { url: 'https://example.com/hook', enabled_events: ['vote.created'] },
      }),
    ).rejects.toThrow('fetch failed');
    expect(unkeyed.sent).toHaveLength(1);
  });

  it('waits for Retry-After when it is longer than the backoff, and not when it is shorter', async () => {
    const server = fakeServer(json(429, {}, { 'retry-after': '6' }), vote);
    await postVote(client(server));
    expect(server.waits).toEqual([6000]);

    const short = fakeServer(json(503, {}, { 'retry-after': '1' }), json(503, {}, { 'retry-after': '1' }), vote);
    await postVote(client(short));
    expect(short.waits).toEqual([1250, 2250]);
  });

  it('reads Retry-After as an HTTP date too, and answers at once when it is past maxRetryAfterMs', async () => {
    const date = new Date(Date.now() + 30_000).toUTCString();
    const server = fakeServer(json(503, {}, { 'retry-after': date }), vote);
    await postVote(client(server));
    expect(server.waits[0]).toBeGreaterThan(25_000);

    const far = fakeServer(json(429, { code: 'rate_limit_exceeded' }, { 'retry-after': '3600' }));
    const { response } = await postVote(client(far));
    expect(response.status).toBe(429);
    expect(far.sent).toHaveLength(1);
  });

  it('retries the 409 of a repeat that arrived while the first attempt with its key still ran', async () => {
    const inProgress = json(409, { statusCode: 409, code: 'idempotency_request_in_progress' }, { 'retry-after': '1' });
    const server = fakeServer(networkError(), inProgress, vote);
    expect((await postVote(client(server))).data).toMatchObject({ id: 7 });
    expect(server.sent).toHaveLength(3);
  });

  it('takes its limits from the options, and `retry: false` sends once', async () => {
    const server = fakeServer(failure(500));
    await postVote(client(server, { maxRetries: 2, baseDelayMs: 100, jitterMs: 0, statuses: [500] }));
    expect(server.waits).toEqual([100, 200]);

    const once = fakeServer(failure(503));
    await createPetApiClient({ baseUrl: 'http://api.test/v1', fetch: once.fetch, retry: false }).GET('/breeds', {});
    expect(once.sent).toHaveLength(1);
  });

  it('stops waiting when the call is aborted', async () => {
    const server = fakeServer(failure(503));
    const controller = new AbortController();
    const api = createPetApiClient({ baseUrl: 'http://api.test/v1', fetch: server.fetch });
    const call = api.GET('/breeds', { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('gave up')), 20);
    await expect(call).rejects.toThrow('gave up');
    expect(server.sent).toHaveLength(1);
  });
});
