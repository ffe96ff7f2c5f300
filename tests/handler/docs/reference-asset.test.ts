import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { handler } from '../../../functions/docs/get-reference-asset.ts';
import { REFERENCE_ASSETS } from '../../../shared/http/reference-page.ts';
import { httpEvent, lambdaContext } from '../../support/http-event.ts';

const swaggerScript = readFileSync(
  createRequire(import.meta.url).resolve('swagger-ui-dist/swagger-ui-bundle.js'),
  'utf8',
);
const get = (file: string, headers: Record<string, string> = {}) =>
  handler(httpEvent({ path: `/v1/docs/assets/${file}`, pathParameters: { file }, headers }), lambdaContext);

describe('GET /v1/docs/assets/{file}', () => {
  it('serves the Swagger UI script as it is packaged, with a strong ETag and an hour of caching', async () => {
    const result = await get('swagger-ui-bundle.js');

    expect(result.statusCode).toBe(200);
    expect(result.headers).toMatchObject({
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=3600',
      vary: 'accept-encoding',
      etag: expect.stringMatching(/^"[\w-]{22}"$/),
    });
    expect(result.headers['content-encoding']).toBeUndefined();
    expect(result.body).toBe(swaggerScript);
  });

  it('sends the gzip copy, tagged as its own representation, to clients that accept gzip', async () => {
    const plain = await get('swagger-ui.css');
    const result = await get('swagger-ui.css', { 'accept-encoding': 'gzip, deflate, br' });

    expect(result.headers).toMatchObject({
      'content-type': 'text/css; charset=utf-8',
      'content-encoding': 'gzip',
      etag: plain.headers.etag!.replace(/"$/, '-gzip"'),
    });
    expect(result.isBase64Encoded).toBe(true);
    expect(gunzipSync(Buffer.from(result.body!, 'base64')).toString('utf8')).toBe(plain.body);
  });

  it('reads and compresses each asset once per container, however often it is asked for', async () => {
    const read = vi.spyOn(REFERENCE_ASSETS['boot.js']!, 'read');

    const first = await get('boot.js', { 'accept-encoding': 'gzip' });
    for (let i = 0; i < 3; i++) expect((await get('boot.js', { 'accept-encoding': 'gzip' })).body).toBe(first.body);

    expect(read).toHaveBeenCalledTimes(1);
  });

  it('answers 304 without a body to If-None-Match with the current tag, and the asset again to another', async () => {
    const { etag } = (await get('swagger-ui-bundle.js', { 'accept-encoding': 'gzip' })).headers;

    const unchanged = await get('swagger-ui-bundle.js', { 'accept-encoding': 'gzip', 'if-none-match': etag! });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');
    expect(unchanged.headers).toMatchObject({ etag, 'cache-control': 'public, max-age=3600' });

    const older = await get('swagger-ui-bundle.js', { 'if-none-match': '"an-older-version-of-it00"' });
    expect(older.statusCode).toBe(200);
    expect(older.body).toBe(swaggerScript);
  });

  it('answers 404 for a file that is not one of the assets', async () => {
    const result = await get('package.json');

    expect(result.statusCode).toBe(404);
    expect(JSON.parse(result.body!)).toMatchObject({ message: 'No asset package.json' });
  });
});
