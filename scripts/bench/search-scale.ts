// Image search at two catalogue sizes in one run: latency and consumed read capacity per page must not grow
// with the catalogue (target: 100,000 images ≤ 1.2 × 1,000 images) for filters the index answers directly.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import breeds from '../../data/breeds.json' with { type: 'json' };
import type { Deps } from '../../shared/deps.ts';
import { loadConfig } from '../../shared/config.ts';
import { facet, ordinalKey, type ImageSummary } from '../../shared/domain/images/catalogue-index.ts';
import { imagePostingKey } from '../../shared/db/keys.ts';
import { clearCatalogueCache, HELD, writeCatalogueIndex } from '../../shared/domain/images/catalogue-store.ts';
import { searchImages, type ImageSearch, type SearchContext } from '../../shared/domain/images/search.ts';
import { facetContext } from '../../shared/domain/images/seed.ts';
import { startLocalStack } from '../local/stack.ts';
import { percentile } from './stats.ts';

export const SIZES = [1_000, 100_000] as const;
const SAMPLES = Number(process.env.BENCH_SEARCH_SAMPLES ?? 150);

/** A deterministic synthetic catalogue with the real one's shape: living breeds, 26 categories, 0-2 of each. */
export function syntheticCatalogue(size: number): ImageSummary[] {
  let seed = 42;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const living = breeds.filter((b) => !b.extinct);
  return Array.from({ length: size }, (_, n) => {
    const breed = living[Math.floor(rand() * living.length)]!;
    const withBreed = rand() > 0.15;
    return {
      id: `img${String(n).padStart(7, '0')}`,
      file: `catalogue/img${n}.jpg`,
      width: 800,
      height: 600,
      species_id: breed.species_id as 'dog' | 'cat',
      breed_ids: withBreed ? [breed.id] : [],
      category_ids: rand() > 0.5 ? [1 + Math.floor(rand() * 26)] : [],
      colour_ids: [],
      age_months: rand() > 0.2 ? 1 + Math.floor(rand() * 180) : null,
      created_at: new Date(Date.UTC(2024, 0, 1) + n * 60_000).toISOString(),
    };
  });
}

export interface ScaleRow {
  query: string;
  /** Answered by the index alone (counted in the target); the control row is the emulator's own GetItem. */
  kind: 'indexed' | 'in-memory filter' | 'control';
  p50: Record<number, number>;
  rcu: Record<number, number>;
}

export async function measureSearchScale(log: (line: string) => void): Promise<ScaleRow[]> {
  // What grows with the catalogue is the table's path: hold no facet in memory (a warm function holds facets up to
  // HELD.postings, catalogue-store.ts), so every measured search reads its page from the table.
  HELD.postings = 0;
  const stack = await startLocalStack({
    dynamoDbPort: 0,
    awsPort: 0,
    tableName: 'bench-images-1000',
    profile: 'throughput',
  });
  const client = new DynamoDBClient({
    endpoint: stack.dynamoDbEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  // Every read reports the capacity it consumed, summed per search.
  let consumed = 0;
  client.middlewareStack.add(
    (next) => async (args) => {
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const capacity = (
        result.output as { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] }
      ).ConsumedCapacity;
      for (const c of [capacity ?? []].flat()) consumed += c.CapacityUnits ?? 0;
      return result;
    },
    { step: 'initialize', name: 'countCapacity' },
  );
  const ddb = DynamoDBDocumentClient.from(client);
  try {
    const ctx = facetContext();
    const someBreed = 'beagle';
    const readFacets = new Set([
      facet.all(),
      facet.speciesHasBreeds('dog', true),
      facet.breed(someBreed),
      facet.category(3),
    ]);
    const tables: Record<number, string> = {};
    const versions: Record<string, string> = {};
    for (const size of SIZES) {
      const tableName = `bench-images-${size}`;
      if (size !== SIZES[0]) await stack.createTable(tableName);
      const started = Date.now();
      const result = await writeCatalogueIndex(ddb, tableName, syntheticCatalogue(size), ctx, {
        concurrency: 8,
        onlyFacets: (f) => readFacets.has(f),
      });
      log(
        `  indexed ${size} images (${result.postings} postings, ${result.facets} facets) in ${((Date.now() - started) / 1000).toFixed(0)} s`,
      );
      tables[size] = tableName;
      versions[tableName] = result.version;
    }
    const searchCtx: SearchContext = {
      groupsOf: (id) => ctx.groupsOf.get(id) ?? [],
      codeOf: (id) => ctx.codeOf.get(id),
    };
    const base = { filter: {}, order: undefined, orderBy: 'created_at', page: 0, limit: 10 } satisfies ImageSearch;
    type Probe = {
      query: string;
      kind: ScaleRow['kind'];
      run: (deps: Pick<Deps, 'ddb' | 'config' | 'now' | 'random'>) => Promise<unknown>;
    };
    const search = (query: string, kind: ScaleRow['kind'], request: ImageSearch): Probe => ({
      query,
      kind,
      run: (deps) => searchImages(deps, request, searchCtx),
    });
    const queries: Probe[] = [
      // DynamoDB Local's own lookups slow down as its SQLite store grows; this row measures that, so the
      // search rows can be read against it.
      {
        query: 'control: one GetItem of a posting (no search)',
        kind: 'control',
        run: (deps) =>
          deps.ddb.send(
            new GetCommand({
              TableName: deps.config.tableName,
              Key: imagePostingKey(versions[deps.config.tableName]!, facet.all(), ordinalKey(0)),
            }),
          ),
      },
      search('default (random, limit 10)', 'indexed', base),
      search('category_ids, random', 'indexed', { ...base, filter: { categoryIds: [3] } }),
      search('category_ids, ASC, page 1', 'indexed', { ...base, filter: { categoryIds: [3] }, order: 'ASC', page: 1 }),
      search('species + has_breeds, random', 'indexed', { ...base, filter: { species: 'dog', hasBreeds: true } }),
      search('all images, DESC, page 5', 'indexed', { ...base, order: 'DESC', page: 5 }),
      search('breed_id + age range', 'in-memory filter', {
        ...base,
        filter: { breedIds: [someBreed], ageMonthsMin: 12 },
        order: 'ASC',
      }),
    ];
    const rows: ScaleRow[] = queries.map((q) => ({ query: q.query, kind: q.kind, p50: {}, rcu: {} }));
    for (const [i, q] of queries.entries()) {
      const samples: Record<number, { ms: number[]; rcu: number[] }> = Object.fromEntries(
        SIZES.map((s) => [s, { ms: [], rcu: [] }]),
      );
      for (let n = 0; n < SAMPLES + 20; n++) {
        for (const size of n % 2 === 0 ? SIZES : [...SIZES].reverse()) {
          const deps = {
            ddb,
            config: { ...loadConfig({ TABLE_NAME: tables[size]! }) },
            now: () => new Date(),
            random: Math.random,
          } as Pick<Deps, 'ddb' | 'config' | 'now' | 'random'>;
          clearCatalogueCache();
          await q.run(deps); // pointer load outside the measurement, as in a warm function
          consumed = 0;
          const started = performance.now();
          await q.run(deps);
          if (n >= 20) {
            samples[size]!.ms.push(performance.now() - started);
            samples[size]!.rcu.push(consumed);
          }
        }
      }
      for (const size of SIZES) {
        rows[i]!.p50[size] = percentile(samples[size]!.ms, 50);
        rows[i]!.rcu[size] = samples[size]!.rcu.reduce((a, b) => a + b, 0) / samples[size]!.rcu.length;
      }
    }
    return rows;
  } finally {
    ddb.destroy();
    await stack.stop();
  }
}
