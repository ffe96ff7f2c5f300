import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.ts';
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
