import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { scaleProgram } from '../../../scripts/scale/cli.ts';
import { FAMILIES } from '../../../scripts/scale/families.ts';
import {
  accountRates,
  bindingRate,
  concurrency,
  keyLoads,
  limitReport,
  type Mix,
  requestCost,
  webhookRates,
  zipfWeights,
} from '../../../scripts/scale/model.ts';

const votesOnly = (over: Partial<Mix> = {}): Mix => ({
  rate: 100,
  shares: { votes: 1 },
  accounts: 1,
  zipf: 1,
  endpointsPerAccount: 1,
  plan: 'none',
  receiverMs: 250,
  stageThrottle: 500,
  ...over,
});
const load = (mix: Mix, key: string, op: 'read' | 'write' = 'write') =>
  keyLoads(mix).find((k) => k.key === key && k.op === op)?.units;

describe('capacity model', () => {
  it('weighs accounts by Zipf', () => {
    expect(zipfWeights(2, 1)).toEqual([2 / 3, 1 / 3]);
    expect(zipfWeights(4, 0)).toEqual([0.25, 0.25, 0.25, 0.25]);
  });

  it('puts every vote on the one counter item and the busiest account on its own stats item', () => {
    // 3,000 votes/s over two accounts weighted 2/3 and 1/3: the counter takes 1 unit per vote, the stats item 2 per
    // vote of its account (in the transaction).
    const mix = votesOnly({ rate: 3000, accounts: 2 });
    expect(load(mix, 'COUNTER / VOTE')).toBeCloseTo(3000);
    expect(load(mix, 'ACCOUNT#<account> / STATS')).toBeCloseTo(4000);
    const limits = limitReport(mix);
    expect(limits.find((l) => l.name === 'writes of COUNTER / VOTE')?.bindsAt).toBeCloseTo(1000, 0);
    expect(limits.find((l) => l.name === 'writes of ACCOUNT#<account> / STATS')?.bindsAt).toBeCloseTo(750, 0);
  });

  it("admits an account's writes up to its plan, and counts refused ones on the window item only", () => {
    // standard: 600 writes a minute = 10/s of the 100/s offered.
    const mix = votesOnly({ plan: 'standard' });
    expect(accountRates(mix)[0]?.admitted.get('votes')).toBeCloseTo(10);
    expect(load(mix, 'COUNTER / VOTE')).toBeCloseTo(10);
    expect(load(mix, 'requests: RATE#<account>#writes#<window>')).toBeCloseTo(100);
  });

  it('shares the endpoint item between the jobs of one batch and logs every attempt', () => {
    // One account, one endpoint: every job of a batch of ten is its, so two writes serve ten deliveries.
    const mix = votesOnly();
    expect(webhookRates(mix)).toEqual({ events: 100, deliveries: 100, topEndpoint: 100 });
    expect(load(mix, 'ACCOUNT#<account>#WEBHOOKS / WEBHOOK#<endpoint>')).toBeCloseTo(20);
    expect(load(mix, 'gsi1 WEBHOOK#<endpoint>#DELIVERIES')).toBeCloseTo(200);
  });

  it('counts concurrency as rate times duration', () => {
    // 100 votes/s at 40 ms; 100 deliveries/s in batches of ten at 250 + 20 ms.
    const conc = concurrency(votesOnly());
    expect(conc.get('votes.create')).toBeCloseTo(4);
    expect(conc.get('webhooks.deliver')).toBeCloseTo(2.7);
  });

  it('finds the rate at which a load reaches its limit', () => {
    expect(bindingRate(votesOnly(), (m) => m.rate * 2, 1000)).toBeCloseTo(500, 0);
    expect(bindingRate(votesOnly(), () => 1, 1000)).toBe(Number.POSITIVE_INFINITY);
  });

  it("meets the stage's own throttle first until the operator raises it", () => {
    const readsOnly = (over: Partial<Mix> = {}) => votesOnly({ shares: { breeds: 1 }, ...over });
    const [first] = limitReport(readsOnly());
    expect(first!.name).toMatch(/stage throttle/);
    expect(first!.bindsAt).toBeCloseTo(500, 0);
    const raised = limitReport(readsOnly({ stageThrottle: 20_000 }));
    expect(raised.find((l) => /stage throttle/.test(l.name))?.bindsAt).toBeCloseTo(20_000, -1);
    expect(raised[0]!.name).not.toMatch(/stage throttle/);
  });

  it('prices a reference read from its list prices', () => {
    // $1.00 API + $0.20 invoke + 10 ms × 0.5 GB × $0.0000133334 + 700 B of logs at $0.50/GB; reads cached.
    const breeds = FAMILIES.find((f) => f.id === 'breeds')!;
    const expected = 1e-6 + 0.2e-6 + 0.01 * 0.5 * 0.0000133334 + (700 * 0.5) / 1024 ** 3;
    expect(requestCost(breeds)).toBeCloseTo(expected, 12);
  });

  it('prints the report for a small mix and refuses a malformed one', async () => {
    const out: string[] = [];
    await scaleProgram((t) => out.push(t)).parseAsync(
      ['--rate', '50', '--mix', 'breeds=1,votes=1', '--accounts', '10'],
      {
        from: 'user',
      },
    );
    expect(out.join('\n')).toMatch(/COUNTER \/ VOTE[\s\S]*Lambda concurrency[\s\S]*per million webhook deliveries/);
    const silent = scaleProgram(() => {}).configureOutput({ writeErr: () => {}, writeOut: () => {} });
    await expect(silent.parseAsync(['--mix', 'votes'], { from: 'user' })).rejects.toBeInstanceOf(CommanderError);
  });
});
