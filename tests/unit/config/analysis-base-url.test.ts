import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../shared/config.ts';

const env = (baseUrl: string) => ({ TABLE_NAME: 't', ANALYSIS_BASE_URL: baseUrl });

describe('ANALYSIS_BASE_URL', () => {
  it('takes an absolute http(s) URL', () => {
    expect(loadConfig(env('http://127.0.0.1:11434/v1')).analysis.baseUrl).toBe('http://127.0.0.1:11434/v1');
  });

  it('refuses the environment when the value is not an absolute http(s) URL, naming the variable', () => {
    for (const value of ['localhost:11434', 'file:///v1', '/v1', 'not a url', ''])
      expect(() => loadConfig(env(value))).toThrow(/ANALYSIS_BASE_URL/);
  });
});
