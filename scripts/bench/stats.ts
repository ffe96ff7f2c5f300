export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export const median = (values: number[]) => percentile(values, 50);

export const ratio = (value: number, baseline: number) => value / baseline;

export const verdict = (value: number, target: number) => (value <= target ? 'pass' : 'FAIL');
