import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.ts';
import { MAX_ERROR_BODY_BYTES } from '../../../shared/http/limits.ts';
import { compressIfAccepted, errorResponse, jsonResponse } from '../../../shared/http/responses.ts';

describe('error responses', () => {
  it('follow the spec shape, with code and extra details when given', () => {
    const error = new AppError(429, 'Too many photos', {
      code: 'pet_upload_rate_exceeded',
      details: { limit: 100, window_hours: 24 },
    });

    const result = errorResponse(error, '/v1/pets/p1/images', new Date('2026-11-22T10:00:00Z'));

    expect(result.statusCode).toBe(429);
    expect(JSON.parse(result.body!)).toEqual({
      statusCode: 429,
      timestamp: '2026-11-22T10:00:00.000Z',
      path: '/v1/pets/p1/images',
      message: 'Too many photos',
      error: 'Too Many Requests',
      code: 'pet_upload_rate_exceeded',
      limit: 100,
      window_hours: 24,
    });
  });
});

describe('bounded error bodies', () => {
  const now = new Date('2026-11-22T10:00:00Z');
  const bytesOf = (result: { body?: string | undefined }) => Buffer.byteLength(result.body!);

  it('cuts the echoed path and a single message, whatever a route put in them', () => {
    const huge = `/v1/${'x'.repeat(100_000)}`;

    const body = JSON.parse(errorResponse(new AppError(404, `No route matches GET ${huge}`), huge, now).body!);

    expect(body.path).toBe(`${huge.slice(0, 200)}…`);
    expect(body.message).toHaveLength(1001);
    expect(body.message.endsWith('…')).toBe(true);
  });

  it('never cuts inside a surrogate pair', () => {
    const path = `/${'a'.repeat(198)}\u{1F436}tail`;

    const body = JSON.parse(errorResponse(new AppError(404, 'x'), path, now).body!);

    expect(body.path).toBe(`/${'a'.repeat(198)}…`);
  });

  it('stays under the bound for the most hostile list a route can build: escapes, astral characters, long messages', () => {
    const hostile = ['\u0000'.repeat(5000), '\ud800'.repeat(5000), '\u{1F436}'.repeat(5000), 'm'.repeat(5000)];
    const messages = Array.from({ length: 25 }, (_, i) => hostile[i % hostile.length]!);
    const path = '\u0000'.repeat(20_000);

    const result = errorResponse(new AppError(400, messages, { details: { problem_count: 25 } }), path, now);

    expect(bytesOf(result)).toBeLessThanOrEqual(MAX_ERROR_BODY_BYTES);
    const body = JSON.parse(result.body!);
    expect(body.message.at(-1)).toMatch(/^…and \d+ more messages, cut to keep the error small$/);
    expect(body.problem_count).toBe(25);
  });

  it('leaves ordinary lists of problems whole', () => {
    const messages = Array.from({ length: 21 }, (_, i) => `field${i} must be at most 100 characters long`);

    expect(JSON.parse(errorResponse(new AppError(400, messages), '/v1/pets', now).body!).message).toEqual(messages);
  });
});

describe('compression', () => {
  const big = jsonResponse(200, { items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `breed ${i}` })) });

  it('gzips large bodies for clients that accept gzip', () => {
    const result = compressIfAccepted(big, 'br, gzip;q=0.8') as typeof big;

    expect(result.headers['content-encoding']).toBe('gzip');
    expect(result.isBase64Encoded).toBe(true);
    expect(gunzipSync(Buffer.from(result.body!, 'base64')).toString()).toBe(big.body);
  });

  it('leaves small bodies and clients without gzip alone', () => {
    expect(compressIfAccepted(jsonResponse(200, { ok: true }), 'gzip')).not.toHaveProperty('isBase64Encoded');
    expect(compressIfAccepted(big, 'identity')).toBe(big);
    expect(compressIfAccepted(big, 'gzip;q=0')).toBe(big);
    expect(compressIfAccepted(big, undefined)).toBe(big);
  });
});
