// The capacity model (docs/scale.md): a traffic mix through the per-request item counts of families.ts into a
// per-key, per-second load, each function's concurrency, the limits each path meets and the cost at list prices.
// Steady state: every figure is a rate a second; nothing here is sampled, so the same mix gives the same report.
import { consumers } from '../../events/consumers.ts';
import { route } from '../../functions/routes.ts';
import { PLANS, type PlanName, type RateClass } from '../../shared/domain/accounts/plans.ts';
import { rateClassOf } from '../../shared/http/guards.ts';
import { STAGE_THROTTLE } from '../../infra/constructs/stage-throttle.ts';
import { DELIVERY, FAMILIES, type Family, type Touch } from './families.ts';
import { LIMITS, PRICES } from './prices.ts';

export interface Mix {
  /** Requests a second offered to the stage. */
  rate: number;
  /** Share of the requests per family id (they sum to 1). */
  shares: Record<string, number>;
  accounts: number;
  /** Exponent of the Zipf law of activity over accounts (account k has weight k^-s). */
  zipf: number;
  endpointsPerAccount: number;
  /** Every account's request-rate plan (shared/domain/accounts/plans.ts), or `none` for no per-account limit. */
  plan: PlanName | 'none';
  /** How long a receiver takes to answer a webhook (ms). */
  receiverMs: number;
  /** The stage's API throttle, requests a second (`-c <stage>.throttleRate` at deploy). */
  stageThrottle: number;
}

export const DEFAULT_MIX: Mix = {
  rate: 10_000,
  shares: {
    'image search': 0.4,
    breeds: 0.3,
    'image by id': 0.1,
    votes: 0.1,
    favourites: 0.05,
    'pet photo upload': 0.03,
    'photo analysis': 0.02,
  },
  accounts: 1000,
  zipf: 1,
  endpointsPerAccount: 3,
  plan: 'standard',
  receiverMs: 250,
  stageThrottle: STAGE_THROTTLE.rateLimit,
};

/** Weights of accounts 1..n under a Zipf law with exponent s, summing to 1 (account 1 the busiest). */
export function zipfWeights(n: number, s: number): number[] {
  const raw = Array.from({ length: n }, (_, k) => (k + 1) ** -s);
  const total = raw.reduce((a, b) => a + b, 0);
  return raw.map((w) => w / total);
}

const familyById = new Map(FAMILIES.map((f) => [f.id, f]));
const rateClassOfFamily = (f: Family): RateClass | undefined => rateClassOf(route(f.routeId));
const consumer = (id: string) => {
  const found = consumers.find((c) => c.id === id);
  if (!found) throw new Error(`no consumer ${id}`);
  return found;
};

function familiesOf(mix: Mix): { family: Family; share: number }[] {
  const total = Object.values(mix.shares).reduce((a, b) => a + b, 0);
  if (Math.abs(total - 1) > 1e-6) throw new Error(`the shares of the mix sum to ${total}, not 1`);
  return Object.entries(mix.shares).map(([id, share]) => {
    const family = familyById.get(id);
    if (!family) throw new Error(`unknown family "${id}"; known: ${[...familyById.keys()].join(', ')}`);
    return { family, share };
  });
}

type AccountRates = { offered: Map<string, number>; admitted: Map<string, number> }[];
// The search for binding rates asks for the same mixes many times over: remember the last few.
const remembered = new Map<string, AccountRates>();

/** Per account (busiest first) and family: the requests offered and those its plan admits, a second. */
export function accountRates(mix: Mix): AccountRates {
  const id = JSON.stringify(mix);
  const known = remembered.get(id);
  if (known) return known;
  if (remembered.size > 64) remembered.clear();
  const rates = computeAccountRates(mix);
  remembered.set(id, rates);
  return rates;
}

function computeAccountRates(mix: Mix): AccountRates {
  const families = familiesOf(mix);
  return zipfWeights(mix.accounts, mix.zipf).map((weight) => {
    const offered = new Map(families.map(({ family, share }) => [family.id, mix.rate * share * weight]));
    const admittedShare = (rateClass: RateClass | undefined) => {
      if (!rateClass || mix.plan === 'none') return 1;
      const { limit, windowSeconds } = PLANS[mix.plan][rateClass];
      const classRate = families
        .filter(({ family }) => rateClassOfFamily(family) === rateClass)
        .reduce((n, { family }) => n + offered.get(family.id)!, 0);
      return Math.min(1, limit / windowSeconds / classRate);
    };
    const admitted = new Map(
      families.map(({ family }) => [family.id, offered.get(family.id)! * admittedShare(rateClassOfFamily(family))]),
    );
    return { offered, admitted };
  });
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** Concurrent executions of each function: requests a second times their duration (refused ones counted in full). */
export function concurrency(mix: Mix): Map<string, number> {
  const rates = accountRates(mix);
  const offered = (id: string) => sum(rates.map((r) => r.offered.get(id) ?? 0));
  const admitted = (id: string) => sum(rates.map((r) => r.admitted.get(id) ?? 0));
  const result = new Map<string, number>();
  for (const { family } of familiesOf(mix)) {
    result.set(family.routeId, offered(family.id) * (family.latencyMs / 1000));
    if (family.worker) {
      const w = family.worker;
      result.set(w.id, (result.get(w.id) ?? 0) + admitted(family.id) * (w.ms / 1000));
    }
  }
  const { events, deliveries } = webhookRates(mix);
  result.set('webhooks.dispatch', (events / consumer('webhooks.dispatch').batchSize) * (DELIVERY.dispatchMs / 1000));
  result.set(
    'webhooks.deliver',
    (deliveries / consumer('webhooks.deliver').batchSize) * ((mix.receiverMs + DELIVERY.deliverOverheadMs) / 1000),
  );
  return result;
}

/** Domain events and webhook deliveries a second, in all and for the busiest account's (each of its) endpoints. */
export function webhookRates(mix: Mix) {
  const families = familiesOf(mix);
  const eventsOf = (admitted: Map<string, number>) =>
    sum(families.map(({ family }) => (admitted.get(family.id) ?? 0) * family.events));
  const perAccount = accountRates(mix).map((r) => eventsOf(r.admitted));
  const events = sum(perAccount);
  return { events, deliveries: events * mix.endpointsPerAccount, topEndpoint: perAccount[0] ?? 0 };
}

export interface KeyLoad {
  key: string;
  op: 'read' | 'write';
  shape: Touch['shape'];
  /** Units a second on the busiest key of this shape (the busiest account's, endpoint's). */
  units: number;
  limit: number;
}

/** Units a second on every shared key, the busiest account's and endpoint's standing for their scope. */
export function keyLoads(mix: Mix): KeyLoad[] {
  const rates = accountRates(mix);
  const conc = concurrency(mix);
  const loads = new Map<string, KeyLoad>();
  const add = (key: string, op: KeyLoad['op'], shape: KeyLoad['shape'], units: number) => {
    const id = `${op} ${key}`;
    const limit = op === 'read' ? LIMITS.partitionReadUnits : LIMITS.partitionWriteUnits;
    const load = loads.get(id) ?? { key, op, shape, units: 0, limit };
    loads.set(id, { ...load, units: load.units + units });
  };
  for (const { family } of familiesOf(mix)) {
    const containers = conc.get(family.routeId) ?? 0;
    for (const touch of family.touches) {
      const rateOf = (r: (typeof rates)[number]) => (touch.beforeGuard ? r.offered : r.admitted).get(family.id) ?? 0;
      // The busiest account's key (account 1), or the one key every account's requests share.
      const requests = touch.scope === 'global' ? sum(rates.map(rateOf)) : rateOf(rates[0]!);
      // A cached read: each warm container reads the key once per period, at most once per request.
      const reads = touch.cacheSeconds === undefined ? requests : Math.min(requests, containers / touch.cacheSeconds);
      add(touch.partition, touch.op, touch.shape, reads * touch.units);
    }
  }
  const { deliveries, topEndpoint } = webhookRates(mix);
  if (topEndpoint > 0) {
    // Jobs of one endpoint in one batch share the endpoint item's two writes: expected jobs of it per batch.
    const batch = consumer('webhooks.deliver').batchSize;
    const perGroup = 1 + (batch - 1) * (topEndpoint / deliveries);
    add(
      'ACCOUNT#<account>#WEBHOOKS / WEBHOOK#<endpoint>',
      'write',
      'item',
      (topEndpoint * DELIVERY.endpointWritesPerGroup) / perGroup,
    );
    add('gsi1 WEBHOOK#<endpoint>#DELIVERIES', 'write', 'collection', topEndpoint * DELIVERY.logIndexUnits);
    add('ACCOUNT#<account>#WEBHOOKS', 'read', 'collection', topEndpoint * DELIVERY.dispatchReadUnits);
  }
  return [...loads.values()].sort((a, b) => b.units / b.limit - a.units / a.limit);
}

/** A limit a path meets: its load at a mix, against its ceiling. */
interface Limit {
  name: string;
  /** Route families (ids) or `webhooks` whose requests it stops. */
  paths: string[];
  /** `hard`: refuses at once; `soft`: a collection DynamoDB may split, given time. */
  kind: 'hard' | 'soft';
  load: (mix: Mix) => number;
  limit: number;
}

function limitsOf(mix: Mix): Limit[] {
  const all = familiesOf(mix).map(({ family }) => family.id);
  const touching = (key: string) => FAMILIES.filter((f) => f.touches.some((t) => t.partition === key)).map((f) => f.id);
  const keyLimits = keyLoads(mix).map<Limit>((k) => ({
    name: `${k.op === 'read' ? 'reads' : 'writes'} of ${k.key}`,
    paths: touching(k.key).length ? touching(k.key) : ['webhooks'],
    kind: k.shape === 'item' ? 'hard' : 'soft',
    load: (m) => keyLoads(m).find((l) => l.key === k.key && l.op === k.op)?.units ?? 0,
    limit: k.limit,
  }));
  const total = (m: Mix) => sum([...concurrency(m).values()]);
  return [
    {
      name: 'API stage throttle (-c <stage>.throttleRate)',
      paths: all,
      kind: 'hard',
      load: (m) => m.rate,
      limit: mix.stageThrottle,
    },
    {
      name: 'API Gateway requests a second per account (quota)',
      paths: all,
      kind: 'hard',
      load: (m) => m.rate,
      limit: LIMITS.accountApiRate,
    },
    {
      name: 'Lambda concurrent executions per account (quota)',
      paths: [...all, 'webhooks'],
      kind: 'hard',
      load: total,
      limit: LIMITS.accountConcurrency,
    },
    {
      name: `webhook attempts in flight per endpoint (${DELIVERY.slotsPerEndpoint} slots)`,
      paths: ['webhooks'],
      kind: 'hard',
      load: (m) => webhookRates(m).topEndpoint * (m.receiverMs / 1000),
      limit: DELIVERY.slotsPerEndpoint,
    },
    {
      name: 'deliverer event source: concurrent batches',
      paths: ['webhooks'],
      kind: 'hard',
      load: (m) => concurrency(m).get('webhooks.deliver') ?? 0,
      limit: LIMITS.sqsMappingConcurrency,
    },
    ...keyLimits,
  ];
}

const MAX_RATE = 1e8;

/** The smallest stage rate (requests a second, same mix) at which `load` reaches `limit`; Infinity if it never does. */
export function bindingRate(mix: Mix, load: (m: Mix) => number, limit: number): number {
  const at = (rate: number) => load({ ...mix, rate });
  if (at(MAX_RATE) < limit) return Number.POSITIVE_INFINITY;
  let [low, high] = [0, MAX_RATE];
  while (high - low > Math.max(0.5, high * 1e-6)) {
    const mid = (low + high) / 2;
    if (at(mid) >= limit) high = mid;
    else low = mid;
  }
  return high;
}

export interface LimitReport {
  name: string;
  paths: string[];
  kind: Limit['kind'];
  load: number;
  limit: number;
  bindsAt: number;
}

/** Every limit at the mix's rate, with the stage rate at which it binds, the first first. */
export function limitReport(mix: Mix): LimitReport[] {
  return limitsOf(mix)
    .map((l) => ({
      name: l.name,
      paths: l.paths,
      kind: l.kind,
      load: l.load(mix),
      limit: l.limit,
      bindsAt: bindingRate(mix, l.load, l.limit),
    }))
    .sort((a, b) => a.bindsAt - b.bindsAt);
}

const LOG_BYTES_PER_REQUEST = 700; // performance.md §3.3: one access line and little else
const LOG_BYTES_PER_DELIVERY = 1024;

const lambdaCost = (ms: number, memoryMb: number, arch: 'arm64' | 'x86_64') =>
  PRICES.lambdaPerRequest + (ms / 1000) * (memoryMb / 1024) * PRICES.lambdaGbSecond[arch];

/** Dollars for one request of a family, its queue worker included; model providers (Bedrock, Rekognition) not. */
export function requestCost(family: Family): number {
  const touchUnits = (op: Touch['op']) =>
    sum(family.touches.filter((t) => t.op === op && t.cacheSeconds === undefined).map((t) => t.units));
  const worker = family.worker;
  return (
    PRICES.httpApiPerRequest +
    lambdaCost(family.latencyMs, family.memoryMb, family.arch) +
    (family.spread.readUnits + touchUnits('read')) * PRICES.readUnit +
    (family.spread.writeUnits + touchUnits('write')) * PRICES.writeUnit +
    LOG_BYTES_PER_REQUEST * PRICES.logByte +
    family.s3Puts * PRICES.s3Put +
    // The bucket's notification, the event source's receive and delete: three SQS requests.
    (worker
      ? lambdaCost(worker.ms, worker.memoryMb, worker.arch) +
        worker.writeUnits * PRICES.writeUnit +
        worker.s3Puts * PRICES.s3Put +
        3 * PRICES.sqsRequest
      : 0)
  );
}

/** Dollars per million requests of the mix (webhook deliveries apart). */
export const costPerMillionRequests = (mix: Mix) =>
  sum(familiesOf(mix).map(({ family, share }) => share * requestCost(family))) * 1e6;

/** Dollars per million webhook deliveries: the deliverer's share of a batch, its writes, and the dispatch share. */
export function costPerMillionDeliveries(mix: Mix): number {
  const deliverBatch = consumer('webhooks.deliver').batchSize;
  const dispatchBatch = consumer('webhooks.dispatch').batchSize;
  const perEvent =
    lambdaCost(DELIVERY.dispatchMs, 512, 'arm64') / dispatchBatch +
    DELIVERY.dispatchReadUnits * PRICES.readUnit +
    // Onto the events queue, received and deleted in batches.
    (3 * PRICES.sqsRequest) / dispatchBatch;
  const perDelivery =
    lambdaCost(mix.receiverMs + DELIVERY.deliverOverheadMs, 512, 'arm64') / deliverBatch +
    (DELIVERY.logUnits + DELIVERY.logIndexUnits + DELIVERY.endpointWritesPerGroup) * PRICES.writeUnit +
    // SendMessageBatch by the dispatcher, receive and delete by the event source, ten at a time.
    (3 * PRICES.sqsRequest) / deliverBatch +
    LOG_BYTES_PER_DELIVERY * PRICES.logByte;
  return (perDelivery + perEvent / Math.max(1, mix.endpointsPerAccount)) * 1e6;
}
