import { describe, expect, it } from 'vitest';
import { AppError, badRequest, serviceUnavailable } from '../../shared/errors.ts';

describe('AppError', () => {
  it('carries status and code, and is permanent for client errors by default', () => {
    const error = badRequest('bad', { code: 'invalid_body' });
    expect(error).toMatchObject({ status: 400, code: 'invalid_body', retryable: false, message: 'bad' });
  });

  it('is retryable for 5xx and 429 unless told otherwise', () => {
    expect(serviceUnavailable('down').retryable).toBe(true);
    expect(new AppError(429, 'slow down').retryable).toBe(true);
    expect(new AppError(503, 'gone for good', { retryable: false }).retryable).toBe(false);
  });

  it('joins several messages for logs and keeps them apart for the error body', () => {
    const error = badRequest(['a is required', 'b is too long']);
    expect(error.message).toBe('a is required; b is too long');
    expect(error.messages).toEqual(['a is required', 'b is too long']);
  });
});
