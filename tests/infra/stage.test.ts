import { describe, expect, it } from 'vitest';
import { parseDeployStrategy } from '../../infra/stage.ts';

describe('parseDeployStrategy (-c deploy=…)', () => {
  it("defaults to the stage's strategy: canary in production, all at once in staging", () => {
    expect(parseDeployStrategy(undefined, 'production')).toBe('canary');
    expect(parseDeployStrategy(undefined, 'staging')).toBe('all-at-once');
  });

  it('lets a deploy choose either strategy on either stage', () => {
    expect(parseDeployStrategy('canary', 'staging')).toBe('canary');
    expect(parseDeployStrategy('all-at-once', 'production')).toBe('all-at-once');
  });

  it('refuses anything else, naming the choices', () => {
    expect(() => parseDeployStrategy('linear', 'production')).toThrow(/-c deploy must be one of canary, all-at-once/);
  });
});
