import { cpus, getPriority, loadavg } from 'node:os';

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export const median = (values: number[]) => percentile(values, 50);

export const ratio = (value: number, baseline: number) => value / baseline;

export const verdict = (value: number, target: number) => (value <= target ? 'pass' : 'FAIL');

/**
 * Times `subject` against `baseline` in blocks of `perRound` sequential calls after `warmup` calls of each,
 * alternating which goes first every round so drift in the machine's load hits both alike. Milliseconds per call.
 */
export async function alternateTimed(
  subject: () => Promise<unknown>,
  baseline: () => Promise<unknown>,
  counts: { warmup: number; rounds: number; perRound: number },
): Promise<{ subjectMs: number[]; baselineMs: number[] }> {
  for (let i = 0; i < counts.warmup; i++) {
    await subject();
    await baseline();
  }
  const subjectMs: number[] = [];
  const baselineMs: number[] = [];
  const sides = [
    [subject, subjectMs],
    [baseline, baselineMs],
  ] as const;
  for (let round = 0; round < counts.rounds; round++) {
    for (const [call, samples] of round % 2 === 0 ? sides : [...sides].reverse()) {
      for (let i = 0; i < counts.perRound; i++) {
        const started = performance.now();
        await call();
        samples.push(performance.now() - started);
      }
    }
  }
  return { subjectMs, baselineMs };
}

/** The machine's 1-minute load average, its cores and this process's priority (nice), read now. */
export interface MachineLoad {
  oneMinute: number;
  cores: number;
  nice: number;
}

export const machineLoad = (): MachineLoad => ({
  oneMinute: loadavg()[0]!,
  cores: cpus().length,
  nice: getPriority(),
});
