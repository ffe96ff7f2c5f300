import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { handler } from '../../../functions/docs/get-openapi-document.ts';
import { httpEvent, lambdaContext } from '../../support/http-event.ts';

const file = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'openapi.json'), 'utf8'));
const get = (headers: Record<string, string> = {}) =>
  handler(httpEvent({ path: '/v1/openapi.json', headers }), lambdaContext);

describe('GET /v1/openapi.json', () => {
  it('serves docs/openapi.json as compact JSON with a strong ETag, varying by Accept-Encoding', async () => {
    const result = await get();

    expect(result.statusCode).toBe(200);
    expect(result.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'public, max-age=300',
      vary: 'accept-encoding',
      etag: expect.stringMatching(/^"[\w-]{22}"$/),
    });
    expect(result.headers['content-encoding']).toBeUndefined();
    expect(result.body).toBe(JSON.stringify(file));
  });

  it('sends the gzip copy, tagged as its own representation, to clients that accept gzip', async () => {
    const plain = await get();
    const result = await get({ 'accept-encoding': 'br, gzip;q=0.8' });

    expect(result.headers).toMatchObject({
      'content-encoding': 'gzip',
      etag: plain.headers.etag!.replace(/"$/, '-gzip"'),
    });
    expect(result.isBase64Encoded).toBe(true);
    expect(JSON.parse(gunzipSync(Buffer.from(result.body!, 'base64')).toString('utf8'))).toEqual(file);
    // gzip;q=0 refuses it
    expect((await get({ 'accept-encoding': 'gzip;q=0' })).headers['content-encoding']).toBeUndefined();
  });

  it('answers 304 without a body to If-None-Match with either tag, weak or among others, and to *', async () => {
    const { etag } = (await get()).headers;
    const gzipTag = (await get({ 'accept-encoding': 'gzip' })).headers.etag;

    for (const ifNoneMatch of [etag!, gzipTag!, `W/${etag}`, `"other", ${gzipTag}`, '*']) {
      const result = await get({ 'if-none-match': ifNoneMatch, 'accept-encoding': 'gzip' });
      expect(result.statusCode, ifNoneMatch).toBe(304);
      expect(result.body).toBe('');
      expect(result.headers).toMatchObject({ etag: gzipTag, 'cache-control': 'public, max-age=300' });
    }
  });

  it('serves the whole document again when the tag is of another version', async () => {
    const result = await get({ 'if-none-match': '"an-older-version-of-it00"' });

    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body!)).toEqual(file);
  });
});
