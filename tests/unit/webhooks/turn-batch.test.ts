import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { turnBatch, windowBatch } from '../../../shared/webhooks/turn-batch.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('grouping the calls of one turn', () => {
  it('runs once per key for the calls made together, each caller getting its own result', async () => {
    const runs: [string, number[]][] = [];
    const double = turnBatch(async (key, items: number[]) => {
      runs.push([key, items]);
      return items.map((n) => n * 2);
    });

    const results = await Promise.all([double('a', 1), double('b', 2), double('a', 3)]);

    expect(results).toEqual([2, 4, 6]);
    expect(runs).toEqual([
      ['a', [1, 3]],
      ['b', [2]],
    ]);
  });

  it('starts a new group for calls made after the first one ran', async () => {
    const sizes: number[] = [];
    const echo = turnBatch(async (_key, items: number[]) => {
      sizes.push(items.length);
      return items;
    });

    await Promise.all([echo('k', 1), echo('k', 2)]);
    await echo('k', 3);

    expect(sizes).toEqual([2, 1]);
  });

  it('fails every caller of a group whose run failed, and only that group', async () => {
    const failing = turnBatch(async (key, items: number[]) => {
      if (key === 'bad') throw new Error('boom');
      return items;
    });

    const results = await Promise.allSettled([failing('bad', 1), failing('bad', 2), failing('good', 3)]);

    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
  });
});

describe('grouping calls over a short window', () => {
  // The window's own clock, faked: "late" means exactly that on any machine.
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
  afterEach(() => vi.useRealTimers());

  it('runs as soon as every expected call has arrived', async () => {
    const runs: number[][] = [];
    const batch = windowBatch(
      async (_key, items: number[]) => {
        runs.push(items);
        return items;
      },
      { lingerMs: 10_000, full: (_key, size) => size >= 3 },
    );

    const all = Promise.all([batch('k', 1), sleep(5).then(() => batch('k', 2)), batch('k', 3)]);
    await vi.advanceTimersByTimeAsync(5);
    const results = await all;

    expect(results).toEqual([1, 2, 3]);
    expect(runs).toEqual([[1, 3, 2]]);
  });

  it('runs what has arrived once the window closes, leaving a late call to a group of its own', async () => {
    const runs: number[][] = [];
    const batch = windowBatch(
      async (_key, items: number[]) => {
        runs.push(items);
        return items;
      },
      { lingerMs: 20, full: () => false },
    );

    const all = Promise.all([batch('k', 1), batch('k', 2), sleep(21).then(() => batch('k', 3))]);
    await vi.advanceTimersByTimeAsync(41);
    await all;

    expect(runs).toEqual([[1, 2], [3]]);
  });
});
