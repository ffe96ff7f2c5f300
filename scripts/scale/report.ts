// The capacity model's report as plain text tables (docs/scale.md quotes one run on the default mix).
import { FAMILIES } from './families.ts';
import {
  accountRates,
  concurrency,
  costPerMillionDeliveries,
  costPerMillionRequests,
  keyLoads,
  limitReport,
  type Mix,
  requestCost,
  webhookRates,
} from './model.ts';

const rate = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'never');
const fixed = (n: number, digits = 1) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function trafficSection(mix: Mix): string {
  const rates = accountRates(mix);
  const rows = Object.entries(mix.shares).map(([id, share]) => {
    const offered = rates.reduce((n, r) => n + (r.offered.get(id) ?? 0), 0);
    const admitted = rates.reduce((n, r) => n + (r.admitted.get(id) ?? 0), 0);
    const top = rates[0]!;
    return [
      id,
      `${fixed(share * 100)} %`,
      rate(offered),
      rate(admitted),
      fixed(top.offered.get(id) ?? 0),
      fixed(top.admitted.get(id) ?? 0),
    ];
  });
  const hooks = webhookRates(mix);
  return [
    `Traffic: ${rate(mix.rate)} requests/s, ${mix.accounts} accounts (Zipf s = ${mix.zipf}), plan ${mix.plan}, ` +
      `${mix.endpointsPerAccount} webhook endpoints per account, receivers answer in ${mix.receiverMs} ms`,
    table(['family', 'share', 'offered/s', 'admitted/s', 'busiest acct offered/s', 'busiest acct admitted/s'], rows),
    `Events ${rate(hooks.events)}/s, deliveries ${rate(hooks.deliveries)}/s, busiest endpoint ${fixed(hooks.topEndpoint)}/s`,
  ].join('\n');
}

function keySection(mix: Mix): string {
  const limits = limitReport(mix);
  const rows = keyLoads(mix).map((k) => {
    const bindsAt = limits.find((l) => l.name === `${k.op === 'read' ? 'reads' : 'writes'} of ${k.key}`)?.bindsAt;
    return [
      k.key,
      k.op,
      k.shape,
      fixed(k.units),
      rate(k.limit),
      `${fixed((k.units / k.limit) * 100)} %`,
      rate(bindsAt ?? Infinity),
    ];
  });
  return [
    'Shared keys (the busiest account and endpoint stand for their kind; limits are per partition)',
    table(['key', 'op', 'shape', 'units/s', 'limit', 'load', 'binds at req/s'], rows),
  ].join('\n');
}

function concurrencySection(mix: Mix): string {
  const conc = concurrency(mix);
  const rows = [...conc.entries()].map(([fn, c]) => [fn, fixed(c)]);
  const total = [...conc.values()].reduce((a, b) => a + b, 0);
  return [
    'Lambda concurrency (rate × duration)',
    table(['function', 'concurrent'], [...rows, ['total', fixed(total)]]),
  ].join('\n');
}

function limitSection(mix: Mix): string {
  const rows = limitReport(mix).map((l) => [
    l.name,
    l.kind,
    fixed(l.load),
    rate(l.limit),
    rate(l.bindsAt),
    l.paths.join(', '),
  ]);
  return ['Limits, the first first', table(['limit', 'kind', 'load', 'limit', 'binds at req/s', 'paths'], rows)].join(
    '\n',
  );
}

function costSection(mix: Mix): string {
  const rows = FAMILIES.filter((f) => f.id in mix.shares).map((f) => [f.id, `$${fixed(requestCost(f) * 1e6, 2)}`]);
  return [
    'Cost at list prices (us-east-1; model providers not included)',
    table(['family', 'per million'], rows),
    `Mix: $${fixed(costPerMillionRequests(mix), 2)} per million requests; ` +
      `$${fixed(costPerMillionDeliveries(mix), 2)} per million webhook deliveries`,
  ].join('\n');
}

export const scaleReport = (mix: Mix): string =>
  [trafficSection(mix), keySection(mix), concurrencySection(mix), limitSection(mix), costSection(mix)].join('\n\n');
