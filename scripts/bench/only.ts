// `npm run bench -- --only imports` (or `latency`, `webhooks`, or several: `imports,latency`): measures only the parts named and writes only
// their summary rows and sections into docs/benchmarks.md, each beside the figures it replaces; every other figure
// stays as the last full run wrote it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLE_SECTION_TITLE, earlierImports, isImportRow, measureImports } from './bundle-report.ts';
import { earlierLatency, isLatencyRow, LATENCY_SECTION_TITLE, latencyReport, measureReadLatency } from './latency.ts';
import { spliceSection, spliceSummaryRows } from './report-splice.ts';
import { isWebhookRow, measureWebhooks, WEBHOOK_SECTION_TITLE, webhookReport } from './webhooks.ts';

export const BENCHMARKS_DOC = join(import.meta.dirname, '..', '..', 'docs', 'benchmarks.md');

const PARTS = ['imports', 'latency', 'webhooks'] as const;
type Part = (typeof PARTS)[number];

/** The parts `--only` names, or undefined for a full run; an unknown part is an error, not a silent full run. */
export function onlyParts(args: string[]): Set<Part> | undefined {
  const at = args.indexOf('--only');
  if (at < 0) return undefined;
  const named = (args[at + 1] ?? '').split(',').filter(Boolean);
  const unknown = named.filter((part) => !PARTS.includes(part as Part));
  if (named.length === 0 || unknown.length > 0) {
    throw new Error(`--only takes one or more of ${PARTS.join(', ')} (comma-separated); got '${args[at + 1] ?? ''}'`);
  }
  return new Set(named as Part[]);
}

/** Writes each part as soon as it is measured, so a later part failing keeps the earlier one's figures. */
export async function measureOnly(parts: Set<Part>, importSamples: number): Promise<void> {
  const write = (owns: (label: string) => boolean, title: string, report: { summary: string[]; section: string }) => {
    const doc = readFileSync(BENCHMARKS_DOC, 'utf8');
    writeFileSync(BENCHMARKS_DOC, spliceSection(spliceSummaryRows(doc, owns, report.summary), title, report.section));
    console.log(`\n${report.summary.join('\n')}\n\nwritten to docs/benchmarks.md (${title.slice(3)})`);
  };
  if (parts.has('imports')) {
    const earlier = earlierImports(readFileSync(BENCHMARKS_DOC, 'utf8'));
    write(isImportRow, BUNDLE_SECTION_TITLE, await measureImports(importSamples, earlier));
  }
  if (parts.has('latency')) {
    console.log('measuring local read latency…');
    const earlier = earlierLatency(readFileSync(BENCHMARKS_DOC, 'utf8'));
    write(isLatencyRow, LATENCY_SECTION_TITLE, latencyReport(await measureReadLatency(), earlier));
  }
  if (parts.has('webhooks')) {
    console.log('measuring webhook delivery…');
    write(isWebhookRow, WEBHOOK_SECTION_TITLE, webhookReport(await measureWebhooks((line) => console.log(line))));
  }
}
