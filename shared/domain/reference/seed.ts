// Loads the committed data sets (data/*.json, built by `npm run data:build`) into the table as snapshots:
// by `npm start` locally, by the deploy-time loader in AWS.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import breedImages from '../../../data/breed-images.json' with { type: 'json' };
import breeds from '../../../data/breeds.json' with { type: 'json' };
import categories from '../../../data/categories.json' with { type: 'json' };
import colours from '../../../data/colours.json' with { type: 'json' };
import facts from '../../../data/facts.json' with { type: 'json' };
import healthTips from '../../../data/health-tips.json' with { type: 'json' };
import legislation from '../../../data/legislation.json' with { type: 'json' };
import temperaments from '../../../data/authored/temperament-i18n.json' with { type: 'json' };
import * as z from 'zod/mini';
import { breedRecord, factRecord, healthTipRecord, lawRecord } from './records.ts';
import type { ReferenceSet } from './snapshot-store.ts';
import { writeReferenceSnapshot, type SnapshotResult } from './write-snapshot.ts';

const referenceImageOf = breedImages as Record<string, unknown>;

/** The committed files, checked against the records' schemas: a file the builder did not write right is never loaded. */
export const REFERENCE_DATA: Record<ReferenceSet, unknown[] | Record<string, unknown>> = {
  // each breed carries its reference image from the catalogue (null for extinct breeds, which have none)
  breeds: z
    .array(breedRecord)
    .parse(breeds)
    .map((b) => ({ ...b, reference_image: referenceImageOf[b.id] ?? null })),
  temperaments,
  colours,
  categories,
  facts: z.array(factRecord).parse(facts),
  'health-tips': z.array(healthTipRecord).parse(healthTips),
  legislation: z.array(lawRecord).parse(legislation),
};

/** How many records a set holds: its entries, or for colours its variants (the breeds map only links them). */
export function recordCount(set: ReferenceSet): number {
  const data = REFERENCE_DATA[set];
  if (set === 'colours') return colours.variants.length;
  return Array.isArray(data) ? data.length : Object.keys(data).length;
}

export async function seedReferenceData(
  ddb: DynamoDBDocumentClient,
  tableName: string,
  now: Date,
): Promise<SnapshotResult[]> {
  const results: SnapshotResult[] = [];
  for (const [set, records] of Object.entries(REFERENCE_DATA) as [ReferenceSet, unknown[]][]) {
    results.push(await writeReferenceSnapshot(ddb, tableName, set, records, recordCount(set), now));
  }
  return results;
}
