// The frame of the one-off data migrations that `npm run migrate` runs (docs/operations.md#data-migrations): read the
// items still in the old shape page by page, rewrite each on its own, and report. One item's failure is reported and
// skipped; the others go on. Every rewrite is conditional on what was read, so a second run, or a request that
// changed an item meanwhile, is never overwritten: a re-run finds nothing left and reports zero.

import type { Deps } from '../../deps.ts';

/** What a migration reads and writes through: the table and, for media, the bucket (from `config`). */
export type MigrationDeps = Pick<Deps, 'ddb' | 'config'>;

/** Items per Scan page (read before the filter): one page is all a migration holds. */
export const SCAN_PAGE_ITEMS = 200;

/** What happened to one item; `changed` when it was (or, in a dry run, would be) rewritten. */
export interface ItemOutcome {
  outcome: string;
  changed: boolean;
}

export interface MigrationReport {
  migration: string;
  dry_run: boolean;
  /** Items found in the old shape. */
  found: number;
  /** Items rewritten (in a dry run: that would be). Zero on a run after a complete one. */
  changed: number;
  /** How many items ended each way. */
  outcomes: Record<string, number>;
  /** Items that failed (left as they were; a re-run tries them again). */
  failed: number;
  /** The first MAX_REPORTED_FAILURES of them, with the reason. */
  failures: { item: string; reason: string }[];
}

/** The report names this many failures at most, so a run over a large table stays bounded in memory. */
export const MAX_REPORTED_FAILURES = 100;

/** An item whose rewrite a concurrent change (a request, another run) refused: left to what changed it. */
export const CHANGED_MEANWHILE: ItemOutcome = { outcome: 'changed_meanwhile', changed: false };

/** How a migration runs: `dryRun` reads and counts, writes nothing; `onItem` hears of each item as it is done. */
export interface MigrationOptions {
  dryRun: boolean;
  onItem?: (item: string, outcome: string) => void;
}

export interface MigrationRun<Item> extends MigrationOptions {
  migration: string;
  /** The items in the old shape, a page at a time. */
  pages: AsyncIterable<Record<string, unknown>[]>;
  /** The item, checked (a malformed one throws and is reported). */
  parse: (raw: Record<string, unknown>) => Item;
  /** How the report names an item (from the raw item: the parse may have failed). */
  label: (raw: Record<string, unknown>) => string;
  migrate: (item: Item) => Promise<ItemOutcome>;
}

/** Runs a migration over every page, one item at a time, and counts what happened. */
export async function runMigration<Item>(run: MigrationRun<Item>): Promise<MigrationReport> {
  const report: MigrationReport = {
    migration: run.migration,
    dry_run: run.dryRun,
    found: 0,
    changed: 0,
    outcomes: {},
    failed: 0,
    failures: [],
  };
  for await (const page of run.pages) {
    for (const raw of page) {
      report.found += 1;
      try {
        const { outcome, changed } = await run.migrate(run.parse(raw));
        report.outcomes[outcome] = (report.outcomes[outcome] ?? 0) + 1;
        if (changed) report.changed += 1;
        run.onItem?.(run.label(raw), outcome);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        report.failed += 1;
        if (report.failures.length < MAX_REPORTED_FAILURES) report.failures.push({ item: run.label(raw), reason });
        run.onItem?.(run.label(raw), `failed: ${reason}`);
      }
    }
  }
  return report;
}
