// What one request of each route family of the traffic mix does to DynamoDB, from the access-pattern tables of
// docs/ARCHITECTURE.md checked against the code named on each line. Units are request units as DynamoDB bills them:
// an eventually consistent read of an item ≤ 4 KB is 0.5, a consistent one 1; a write ≤ 1 KB is 1, in a transaction
// 2 (a ConditionCheck too); an index entry adds its own write. Only keys that many requests share are listed by name;
// the rest (an image, a vote, a pet: one item each) are `spread`, counted for cost but never hot.
import type { route } from '../../functions/routes.ts';
import { HELD } from '../../shared/domain/images/catalogue-store.ts';

type RouteId = Parameters<typeof route>[0];

/** Who shares a key: every request (`global`), one account's requests, one webhook endpoint's deliveries. */
export type Scope = 'global' | 'account' | 'endpoint';

export interface Touch {
  /** The key as keys.ts spells it (`pk / sk` for one item); `<account>`, `<endpoint>` stand for the scope's id. */
  partition: string;
  scope: Scope;
  op: 'read' | 'write';
  units: number;
  /** One item (`item`: DynamoDB's limit is hard) or many sort keys under one partition key (`collection`: DynamoDB
   * may split it by sort key when it stays hot, so the limit holds until it has). */
  shape: 'item' | 'collection';
  /** Read once per warm container per this many seconds (a per-container cache), not per request. */
  cacheSeconds?: number;
  /** Taken before the rate limit, so refused requests take it too. */
  beforeGuard?: boolean;
}

export interface Family {
  id: string;
  /** The route of functions/routes.ts it stands for (its rate class comes from shared/http/guards.ts). */
  routeId: RouteId;
  /** Assumed deployed duration of one invocation (ms); the model's concurrency is rate × duration. */
  latencyMs: number;
  memoryMb: number;
  arch: 'arm64' | 'x86_64';
  touches: Touch[];
  spread: { readUnits: number; writeUnits: number };
  /** Domain events per request that the webhooks deliver (table stream → events queue). */
  events: number;
  s3Puts: number;
  /** Work a queue consumer does per request afterwards. */
  worker?: { id: string; ms: number; memoryMb: number; arch: 'arm64' | 'x86_64'; writeUnits: number; s3Puts: number };
}

/**
 * One Query of the whole facet `all`, eventually consistent (0.5 a 4 KB of items): the catalogue's 1,629 postings
 * (1,600 illustrations, 29 photos) at about 480 bytes each as stored (the summary's 414 bytes of JSON on average,
 * data/images.json, plus keys and type).
 */
const FACET_ALL_READ_UNITS = Math.ceil((1_629 * 480) / 4096) * 0.5;
const AUTH_CACHE_SECONDS = 30; // shared/auth/credential-cache.ts (AUTH_CACHE_TTL_SECONDS)
const SNAPSHOT_RECHECK_SECONDS = 300; // shared/domain/reference/snapshot-store.ts, images/catalogue-store.ts RECHECK_MS

/** shared/auth/authenticate.ts accountFromApiKey: GetItem of the key, then of the account, cached per container. */
const auth: Touch[] = [
  {
    partition: 'ACCOUNT#<account> / ACCOUNT',
    scope: 'account',
    op: 'read',
    units: 0.5,
    shape: 'item',
    cacheSeconds: AUTH_CACHE_SECONDS,
    beforeGuard: true,
  },
];

/** shared/domain/accounts/rate-limits.ts takeRequest: conditional ADD on the window item, refused ones included. */
const rateWindow = (rateClass: 'writes' | 'models'): Touch => ({
  partition: `requests: RATE#<account>#${rateClass}#<window>`,
  scope: 'account',
  op: 'write',
  units: 1,
  shape: 'item',
  beforeGuard: true,
});

/** shared/domain/reference/snapshot-store.ts: the set's pointer, re-read every 5 minutes per warm container. */
const snapshot = (set: string): Touch => ({
  partition: `REFDATA#${set} / CURRENT`,
  scope: 'global',
  op: 'read',
  units: 0.5,
  shape: 'item',
  cacheSeconds: SNAPSHOT_RECHECK_SECONDS,
});

/** The account's counters: shared/db/account-stats.ts statChange, in the writing transaction. */
const accountStats: Touch = {
  partition: 'ACCOUNT#<account> / STATS',
  scope: 'account',
  op: 'write',
  units: 2,
  shape: 'item',
};

/** An item's entry on one of the account's gsi1 lists (its votes, its favourites), written with the item. */
const accountList = (list: string): Touch => ({
  partition: `gsi1 ACCOUNT#<account>#${list}`,
  scope: 'account',
  op: 'write',
  units: 1,
  shape: 'collection',
});

/** A route function as infra/constructs/lambda-defaults.ts makes it, emitting no event and storing no object. */
const plainRoute = { memoryMb: 512, arch: 'arm64', events: 0, s3Puts: 0 } as const;

export const IMAGE_PAGE = 10;

export const FAMILIES: readonly Family[] = [
  {
    id: 'image search',
    routeId: 'images.search',
    latencyMs: 30,
    ...plainRoute,
    touches: [
      ...auth,
      ...['images', 'breeds', 'categories', 'colours', 'temperaments'].map(snapshot),
      // images/search.ts searchImages → public-index.ts readHeads: the library head of facet `all`, every search.
      { partition: 'PUBIDX#all / HEAD', scope: 'global', op: 'read', units: 0.5, shape: 'item' },
      // search.ts pageOfFacet → catalogue-store.ts readOrdinals: facet `all` is held per container (heldFacet), read
      // whole (one paged Query) once per container and index version and again after HELD.ms.
      {
        partition: 'IMGIDX#<version>#all',
        scope: 'global',
        op: 'read',
        units: FACET_ALL_READ_UNITS,
        shape: 'collection',
        cacheSeconds: HELD.ms / 1000,
      },
    ],
    // search-page.ts imageSearchPage → interactions/lookup.ts interactionsOf, with a sub_id (one partition per end user).
    spread: { readUnits: 0.5 * IMAGE_PAGE, writeUnits: 0 },
  },
  {
    id: 'breeds',
    routeId: 'breeds.list',
    latencyMs: 10,
    ...plainRoute,
    // Served from the in-memory snapshot (domain/reference/breeds.ts): no table read but the pointer's recheck.
    touches: [...auth, snapshot('breeds')],
    spread: { readUnits: 0, writeUnits: 0 },
  },
  {
    id: 'image by id',
    routeId: 'images.get',
    latencyMs: 15,
    ...plainRoute,
    touches: [...auth],
    // images/uploads.ts readImageItem: GetItem IMAGE#<id>.
    spread: { readUnits: 0.5, writeUnits: 0 },
  },
  {
    id: 'votes',
    routeId: 'votes.create',
    latencyMs: 40,
    ...plainRoute,
    touches: [
      ...auth,
      rateWindow('writes'),
      // interactions/votes.ts createVote: UpdateItem ADD seq on the one counter item, then the transaction.
      { partition: 'COUNTER / VOTE', scope: 'global', op: 'write', units: 1, shape: 'item' },
      accountStats,
      accountList('VOTES'),
    ],
    // requireImage GetItem 0.5; transaction: ConditionCheck image 2, Put vote 2, Update interaction 2.
    spread: { readUnits: 0.5, writeUnits: 6 },
    events: 1,
  },
  {
    id: 'favourites',
    routeId: 'favourites.create',
    latencyMs: 35,
    ...plainRoute,
    touches: [...auth, rateWindow('writes'), accountStats, accountList('FAVS')],
    // interactions/favourites.ts createFavourite: conditional interaction 2, image check 2, favourite Put 2.
    spread: { readUnits: 0, writeUnits: 6 },
    events: 1,
  },
  {
    id: 'pet photo upload',
    routeId: 'pets.photos-upload',
    latencyMs: 400,
    ...plainRoute,
    touches: [
      ...auth,
      rateWindow('writes'),
      // pets/photos.ts recordPhotos: the month's quota item (QUOTA#<yyyy-mm>) in the transaction.
      { partition: 'ACCOUNT#<account> / QUOTA#<month>', scope: 'account', op: 'write', units: 2, shape: 'item' },
    ],
    // One photo: pet GetItem 0.5, hash BatchGet (consistent) 1, readSlots Query (consistent, 100 slots) 2;
    // transaction: slot 2, media 2 + gsi1 1, hash 2, pet photo_count 2.
    spread: { readUnits: 3.5, writeUnits: 9 },
    events: 1,
    s3Puts: 1,
    // events/media/process-photo (consumers.ts pets.process-photo): 12 MP at 29.4 ms/MP (docs/benchmarks.md) plus
    // labels; two transitions of the media item, display copy and thumbnail.
    worker: { id: 'pets.process-photo', ms: 500, memoryMb: 2048, arch: 'x86_64', writeUnits: 4, s3Puts: 2 },
  },
  {
    id: 'photo analysis',
    routeId: 'analysis.body-condition-score',
    // The vision model answers in seconds (the route's budget is 25 s, docs/analysis.md); 1 GB on x86 for sharp
    // (infra/constructs/api-routes.ts, vision-model routes).
    ...plainRoute,
    latencyMs: 6000,
    memoryMb: 1024,
    arch: 'x86_64',
    touches: [...auth, rateWindow('models')],
    // analysis/store.ts: readSlot consistent 1, claimSlot Put 1, completeSlot transaction (result + latest, ≤ 2 KB
    // each) 8; service.ts subjectOf: pet GetItem 0.5, photos Query (consistent) 1.
    spread: { readUnits: 2.5, writeUnits: 9 },
  },
];

/** Per delivery: shared/domain/webhooks/attempts.ts recordAttempts (the log item carries the event, ~1.5 KB: 2 units,
 * and its gsi1 entry on the endpoint's log, 2) and reserveSlots/settleSlots (two writes of the endpoint item per group
 * of the endpoint's jobs in one batch). Per event: dispatch.ts Query of the account's endpoints. */
export const DELIVERY = {
  logUnits: 2,
  logIndexUnits: 2,
  endpointWritesPerGroup: 2,
  dispatchReadUnits: 0.5,
  /** consumers.ts webhooks.deliver / webhooks.dispatch batch sizes are read from the consumer table. */
  deliverOverheadMs: 20,
  dispatchMs: 60,
  /** The spec's ten-in-a-row rule: at most ten attempts in flight per endpoint (docs/decisions.md). */
  slotsPerEndpoint: 10,
} as const;
