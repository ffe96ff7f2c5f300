import { describe, expect, it } from 'vitest';
import { earlierImports, isImportRow } from '../../../scripts/bench/bundle-report.ts';
import { earlierLatency } from '../../../scripts/bench/latency.ts';
import { onlyParts } from '../../../scripts/bench/only.ts';
import { spliceSection, spliceSummaryRows } from '../../../scripts/bench/report-splice.ts';

// A report as an earlier full run wrote it: older column set, summary rows under older names.
const DOC = `# Benchmarks

Written by \`npm run bench\` on 2026-11-25 (Node v22, x64).

## Summary

| Ratio | Measured | Target | Verdict |
|---|---|---|---|
| bundle size vs SDK clients alone (worst route) | 1.25× | ≤ 1.25× | pass |
| cold import vs SDK clients alone (worst route) | 1.34× | ≤ 1.5× | pass |
| p50 read route via gateway vs bare GetItem | 1.38× (1.394 vs 1.010 ms) | ≤ 1.3× | FAIL |

## Per route: bundle and cold import

Text.

| Route | SDK clients | Bundle (KB) | SDK-only (KB) | Size ratio | Import (ms) | SDK-only (ms) | Import ratio |
|---|---|---|---|---|---|---|---|
| GET /health | client-dynamodb, lib-dynamodb | 385.3 | 333.3 | 1.16× | 58.3 | 53.6 | 1.09× |
| POST /pets | client-dynamodb, client-s3, lib-dynamodb | 500.0 | 400.0 | 1.25× | 70.1 | 55.0 | 1.27× |

## Local read latency

Text.

| | p50 (ms) | p99 (ms) |
|---|---|---|
| through the gateway | 1.394 | 4.388 |
| bare GetItem | 1.010 | 3.991 |
| ratio | 1.38× | 1.10× |
`;

describe('writing one part of docs/benchmarks.md', () => {
  it('reads the figures a section holds now, by route, from an older column set, with their day', () => {
    const earlier = earlierImports(DOC)!;

    expect(earlier.measured).toBe('2026-11-25');
    expect(Object.fromEntries(earlier.routes)).toEqual({
      'GET /health': { importMs: 58.3, baselineMs: 53.6 },
      'POST /pets': { importMs: 70.1, baselineMs: 55 },
    });
    expect(earlierLatency(DOC)?.rows.get('through the gateway')).toEqual(['1.394', '4.388']);
  });

  it('replaces its own section and summary rows (also under their older names) and leaves the rest as it was', () => {
    const rows = ['| cold import vs SDK clients alone (worst route ratio) | 1.40× | ≤ 1.6× | pass |'];
    const section = '## Per route: bundle and cold import\n\nNew text.\n';

    const doc = spliceSection(
      spliceSummaryRows(DOC, isImportRow, rows),
      '## Per route: bundle and cold import',
      section,
    );

    expect(doc).toContain(
      `|---|---|---|---|\n${rows[0]}\n| p50 read route via gateway vs bare GetItem | 1.38× (1.394 vs 1.010 ms) | ≤ 1.3× | FAIL |\n`,
    );
    expect(doc).not.toContain('1.34×');
    expect(doc).toContain('## Per route: bundle and cold import\n\nNew text.\n\n## Local read latency\n');
    expect(doc).not.toContain('GET /health |');
    expect(doc.slice(doc.indexOf('## Local read latency'))).toBe(DOC.slice(DOC.indexOf('## Local read latency')));
  });

  it('takes only the parts it knows from --only', () => {
    expect(onlyParts(['--only', 'imports,latency'])).toEqual(new Set(['imports', 'latency']));
    expect(onlyParts(['--only', 'webhooks'])).toEqual(new Set(['webhooks']));
    expect(onlyParts([])).toBeUndefined();
    expect(() => onlyParts(['--only', 'imports,everything'])).toThrow(
      /--only takes one or more of imports, latency, webhooks/,
    );
    expect(() => onlyParts(['--only'])).toThrow(/--only takes/);
  });
});
