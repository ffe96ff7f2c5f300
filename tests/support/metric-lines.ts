// Metrics switched on for each test of a describe block, their embedded-metric-format lines captured from stdout
// instead of printed; switched off again (the test default) after each.
import { afterEach, beforeEach, vi } from 'vitest';
import { resetObservability } from '../../shared/observability.ts';

/** Call inside a describe block; the returned function reads the lines written so far in the current test. */
export function captureMetricLines(env: Record<string, string> = {}): () => string[] {
  let lines: string[] = [];
  beforeEach(() => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    resetObservability();
    lines = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
    resetObservability();
  });
  return () => lines;
}
