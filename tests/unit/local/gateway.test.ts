import { describe, expect, it } from 'vitest';
import { hasDotSegment } from '../../../scripts/local/gateway.ts';

describe('the local gateway', () => {
  it('finds . and .. segments anywhere in a raw path, also percent-encoded in either case', () => {
    for (const path of ['/v1/images/../health', '/v1/./health', '/v1/breeds/%2e%2E/health', '/v1/%2E', '..', '/v1/.']) {
      expect(hasDotSegment(path), path).toBe(true);
    }
  });

  it('leaves names that merely contain dots alone', () => {
    for (const path of [
      '/v1/health',
      '/v1/docs/assets/swagger-ui.css',
      '/v1/.../x',
      '/v1/..a',
      '/v1/a..',
      '/v1/%2e%2e%2e',
      '/v1/%2f..x',
    ]) {
      expect(hasDotSegment(path), path).toBe(false);
    }
  });
});
