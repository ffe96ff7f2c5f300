import { request } from 'node:http';
import { describe, expect, inject, it } from 'vitest';
import { adminKey, api, createAccount } from '../support/api-client.ts';

describe('the local service (real DynamoDB Local behind the local gateway)', () => {
  it('answers the readiness probe without a key', async () => {
    const res = await api('GET', '/health');

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', stage: 'local' });
    // As API Gateway answers: a Content-Length, not chunked framing.
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(JSON.stringify(res.body))));
    expect(res.headers.get('transfer-encoding')).toBeNull();
  });

  it('answers unknown routes with the 404 error JSON and wrong methods with 405', async () => {
    const missing = await api('GET', '/unicorns', { key: adminKey() });
    const wrongMethod = await api('PUT', '/health');

    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ statusCode: 404, path: '/v1/unicorns', error: 'Not Found' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET');
  });

  it('rejects misspelled query parameters by name', async () => {
    const res = await api('GET', '/health?limt=5');

    expect(res.status).toBe(400);
    expect(res.body.message).toEqual(["unknown query parameter 'limt'"]);
  });

  it('creates an account whose key works at once, and stores only its hash', async () => {
    const account = await createAccount({ features: ['full_breed_schema'] });

    const token = await api('POST', '/auth/token', { key: account.api_key });

    expect(token.status).toBe(200);
    expect(token.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
  });

  it('answers 401 as soon as an admin deactivates an account, and 403 for a forged key', async () => {
    const account = await createAccount();

    const patched = await api('PATCH', `/accounts/${account.id}`, { key: adminKey(), body: { status: 'inactive' } });
    const afterwards = await api('POST', '/auth/token', { key: account.api_key });
    const forged = await api('POST', '/auth/token', { key: `${account.api_key}x` });

    expect(patched.status).toBe(200);
    expect(patched.body.status).toBe('inactive');
    expect(afterwards.status).toBe(401);
    expect(forged.status).toBe(403);
  });

  it('keeps account administration to admins', async () => {
    const account = await createAccount();

    const res = await api('POST', '/accounts', { key: account.api_key, body: { name: 'Sneaky' } });

    expect(res.status).toBe(403);
    expect(res.body.code).toBe('admin_only');
  });

  it('answers 404 when patching an account that does not exist', async () => {
    const res = await api('PATCH', '/accounts/does-not-exist', { key: adminKey(), body: { quota: 5 } });

    expect(res.status).toBe(404);
  });

  it('answers CORS preflights for browser integrators', async () => {
    const res = await fetch(`${inject('baseUrl')}/accounts`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-api-key,content-type',
      },
    });

    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toBe('x-api-key,content-type');
  });

  it('answers a malformed JSON body with 400 and writes nothing', async () => {
    const res = await api('POST', '/accounts', { key: adminKey(), body: '{"name":' });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, message: 'Request body is not valid JSON' });
  });

  /** One raw HTTP exchange, the path sent as written (fetch would resolve dot segments first). */
  function raw(path: string, headers: Record<string, string | number> = {}, body?: Buffer) {
    const { hostname, port } = new URL(inject('baseUrl'));
    return new Promise<{ status: number; body: string; closed: boolean }>((resolve, reject) => {
      const req = request({ hostname, port, path, method: body ? 'POST' : 'GET', headers }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode!, body: text, closed: res.headers.connection === 'close' }),
        );
      });
      req.on('error', reject);
      if (body) req.write(body);
      // The rest of the announced body is never sent: a gateway waiting for it would hang this test.
      req.end();
    });
  }

  it('refuses dot segments before matching, so .. never reaches another route', async () => {
    for (const path of ['/v1/images/../health', '/v1/breeds/%2e%2E/health', '/v1/./health']) {
      const res = await raw(path, { 'x-api-key': adminKey() });
      expect(res.status, path).toBe(400);
      expect(JSON.parse(res.body), path).toMatchObject({ statusCode: 400, code: 'invalid_path', error: 'Bad Request' });
    }
  });

  it("answers a body over the 10 MB limit with 413 in the spec's error shape at once and closes the connection", async () => {
    const res = await raw(
      '/v1/accounts',
      { 'x-api-key': adminKey(), 'content-type': 'application/json', 'content-length': 11 * 1024 * 1024 },
      Buffer.alloc(64 * 1024, 0x20),
    );
    expect(res).toMatchObject({ status: 413, closed: true });
    expect(JSON.parse(res.body)).toEqual({
      statusCode: 413,
      timestamp: expect.any(String),
      path: '/v1/accounts',
      message: `The request body must be at most ${10 * 1024 * 1024} bytes`,
      error: 'Payload Too Large',
      code: 'payload_too_large',
      limit_bytes: 10 * 1024 * 1024,
    });
  });
});
