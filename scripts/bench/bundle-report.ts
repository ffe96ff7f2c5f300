// The bundle and cold-import part of docs/benchmarks.md: its summary rows and its section, from one measurement, with
// each route's figures beside those of the run it replaces.
import { type BundleResult, bundleLayers, bundleRoutes, importTimes, type LayerProbe } from './bundles.ts';
import { measuredOn, nextSection } from './report-splice.ts';
import { type MachineLoad, machineLoad, median, ratio, verdict } from './stats.ts';

/** Cold import of each route: at most this ratio to its SDK clients alone and at most this many ms over them. */
export const BUNDLE_TARGETS = { importRatio: 1.6, importExtraMs: 30 };

const fmt = (n: number, digits = 2) => n.toFixed(digits);
const signed = (ms: number) => `${ms >= 0 ? '+' : ''}${fmt(ms, 1)}`;

export const BUNDLE_SECTION_TITLE = '## Per route: bundle and cold import';

/** The summary rows this part writes, by their first cell (older runs named some of them differently). */
export const isImportRow = (label: string) => /^(bundle size|cold import|Powertools layer)/.test(label);

/**
 * Bundles every route, times the imports in `samples` fresh processes per bundle with the machine's load read around
 * it, and reports them beside `earlier`.
 */
export async function measureImports(samples: number, earlier: ReturnType<typeof earlierImports>) {
  const layer = await bundleLayers();
  const bundles = await bundleRoutes();
  const files = [...new Set([...bundles.flatMap((b) => [b.file, b.baselineFile]), layer.file, layer.tracerFile])];
  console.log(`bundled ${bundles.length} routes; timing imports (${samples} fresh processes per bundle)…`);
  const start = machineLoad();
  const times = importTimes(files, samples);
  const end = machineLoad();
  const date = new Date().toISOString().slice(0, 10);
  return bundleReport(layer, bundles, times, { samples, date, load: { start, end } }, earlier);
}

/** How one timing of the imports ran: fresh processes per bundle, the day, and the machine's load around it. */
export interface ImportRun {
  samples: number;
  date: string;
  load: { start: MachineLoad; end: MachineLoad };
}

/** A route's cold import as an earlier run measured it. */
interface EarlierImport {
  importMs: number;
  baselineMs: number;
}

/** The per-route import figures docs/benchmarks.md holds now, by route, and the day they were measured. */
export function earlierImports(doc: string): { measured: string; routes: Map<string, EarlierImport> } | undefined {
  const start = doc.indexOf(BUNDLE_SECTION_TITLE);
  if (start < 0) return undefined;
  const section = doc.slice(start, nextSection(doc, start));
  const lines = section.split('\n').filter((line) => line.startsWith('| '));
  const cells = (line: string) =>
    line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
  // The first table whose header names the import columns (older runs had other columns around them).
  const header = lines.find((line) => line.startsWith('| Route |') && line.includes('| Import (ms) |'));
  if (!header) return undefined;
  const columns = cells(header);
  const [route, importMs, baselineMs] = ['Route', 'Import (ms)', 'SDK-only (ms)'].map((name) => columns.indexOf(name));
  const rows = lines.slice(lines.indexOf(header) + 1).filter((line) => /^\| [A-Z]+ \//.test(line));
  const measured = measuredOn(doc, section);
  return {
    measured,
    routes: new Map(
      rows
        .map(cells)
        .filter((row) => row.length === columns.length)
        .map((row) => [row[route!]!, { importMs: Number(row[importMs!]), baselineMs: Number(row[baselineMs!]) }]),
    ),
  };
}

function bundleReport(
  layer: LayerProbe,
  bundles: BundleResult[],
  times: Map<string, number[]>,
  run: ImportRun,
  earlier?: ReturnType<typeof earlierImports>,
): { summary: string[]; section: string } {
  const rows = bundles.map((b) => {
    const own = times.get(b.file)!;
    const baseline = times.get(b.baselineFile)!;
    return {
      ...b,
      importMs: median(own),
      baselineMs: median(baseline),
      sizeRatio: ratio(b.bytes, b.baselineBytes),
      // Paired by round (each bundle is timed once per shuffled round): load that drifts over the run, as it does on
      // a shared machine, falls on both sides of a pair instead of on whichever bundle's samples it happened to hit.
      importRatio: median(own.map((ms, round) => ratio(ms, baseline[round]!))),
      extraMs: median(own.map((ms, round) => ms - baseline[round]!)),
    };
  });
  const { importRatio, importExtraMs } = BUNDLE_TARGETS;
  const routeVerdict = (r: (typeof rows)[number]) =>
    r.importRatio <= importRatio && r.extraMs <= importExtraMs ? 'pass' : 'FAIL';
  const worstSize = Math.max(...rows.map((r) => r.sizeRatio));
  const worstImport = Math.max(...rows.map((r) => r.importRatio));
  const worstExtra = Math.max(...rows.map((r) => r.extraMs));
  const failing = rows.filter((r) => routeVerdict(r) === 'FAIL').length;
  const loggingImportMs = median(times.get(layer.file)!);
  const tracerImportMs = median(times.get(layer.tracerFile)!);
  const medianRouteImportMs = median(rows.map((r) => r.importMs));

  const summary = [
    `| bundle size vs SDK clients alone (worst route) | ${fmt(worstSize)}× | reported | – |`,
    `| cold import vs SDK clients alone (worst route ratio) | ${fmt(worstImport)}× | ≤ ${importRatio}× | ${verdict(worstImport, importRatio)} |`,
    `| cold import beyond SDK clients alone (worst route +ms) | ${signed(worstExtra)} ms | ≤ +${importExtraMs} ms | ${verdict(worstExtra, importExtraMs)} |`,
    `| bundle size vs SDK clients alone (median route) | ${fmt(median(rows.map((r) => r.sizeRatio)))}× | reported | – |`,
    `| cold import vs SDK clients alone (median route) | ${fmt(median(rows.map((r) => r.importRatio)))}×, ${signed(median(rows.map((r) => r.extraMs)))} ms (${failing} of ${rows.length} routes fail either limit) | reported | – |`,
    `| Powertools layer (Logger, Metrics, Tracer + X-Ray SDK), shared by every function | ${fmt(layer.layerBytes / 1024, 1)} KB once per stage; bundle +0 KB (${fmt(layer.bundledBytes / 1024, 1)} KB if Logger, Metrics and Tracer were bundled); Logger + Metrics cold import ${fmt(loggingImportMs, 1)} ms alone (${fmt((100 * loggingImportMs) / medianRouteImportMs, 0)} % of the median route's import, included in the ratios above); Tracer + X-Ray SDK ${fmt(tracerImportMs, 1)} ms, once per container at its first sampled invocation | reported | – |`,
  ];
  const load = (at: MachineLoad) => fmt(at.oneMinute);
  const { start, end } = run.load;
  const measuredLine = `Measured on ${run.date} (Node ${process.version}, ${start.cores} cores, this process at nice ${start.nice}): load average (1 minute) ${load(start)} when the timing began and ${load(end)} when it ended. ${
    failing === 0
      ? `Every route meets both limits.`
      : `${failing} of ${rows.length} routes fail a limit: ${rows
          .filter((r) => routeVerdict(r) === 'FAIL')
          .map((r) => `${r.route.method} ${r.route.path} (${fmt(r.importRatio)}×, ${signed(r.extraMs)} ms)`)
          .join('; ')}.`
  }`;
  const before = (r: (typeof rows)[number]) => earlier?.routes.get(`${r.route.method} ${r.route.path}`);
  const change = earlier
    ? [
        `Beside the figures this run replaced (measured on ${earlier.measured}; a route new since then shows –):`,
        '',
        `| Route | Import before → now (ms) | SDK-only before → now (ms) | Ratio before → now | +ms before → now |`,
        `|---|---|---|---|---|`,
        ...rows.map((r) => {
          const was = before(r);
          const then = (value: (w: EarlierImport) => string) => (was ? value(was) : '–');
          return `| ${r.route.method} ${r.route.path} | ${then((w) => fmt(w.importMs, 1))} → ${fmt(r.importMs, 1)} | ${then((w) => fmt(w.baselineMs, 1))} → ${fmt(r.baselineMs, 1)} | ${then((w) => `${fmt(ratio(w.importMs, w.baselineMs))}×`)} → ${fmt(r.importRatio)}× | ${then((w) => signed(w.importMs - w.baselineMs))} → ${signed(r.extraMs)} |`;
        }),
      ]
    : [];
  const perRoute = [
    `| Route | SDK clients | Bundle (KB) | Import (ms) | SDK-only (ms) | Ratio | +ms | Verdict (≤ ${importRatio}× and ≤ +${importExtraMs} ms) |`,
    `|---|---|---|---|---|---|---|---|`,
    ...rows.map(
      (r) =>
        `| ${r.route.method} ${r.route.path} | ${r.sdkPackages.map((p) => p.replace('@aws-sdk/', '')).join(', ') || '–'} | ${fmt(r.bytes / 1024, 1)} | ${fmt(r.importMs, 1)} | ${fmt(r.baselineMs, 1)} | ${fmt(r.importRatio)}× | ${signed(r.extraMs)} | ${routeVerdict(r)} |`,
    ),
  ];
  const section = `${BUNDLE_SECTION_TITLE}

Bundles are built exactly as the CDK app builds them (esbuild, ESM, minified, node22, external source maps, AWS SDK
bundled, the same external modules per route: \`infra/lambda-bundle.ts\`). The baseline of a route is a bundle that
imports and constructs only the AWS SDK clients whose code the route's bundle contains (DynamoDB, S3, SQS, KMS, Bedrock
Runtime, SESv2, Rekognition; the document client with its base client). Import time is the median of ${run.samples}
fresh \`node\` processes per bundle, measured around \`await import(bundle)\`, bundles shuffled per round; a route's
ratio and +ms are the medians of its per-round pairs with its baseline (timed in the same round, so load that drifts
over the run falls on both), Import and SDK-only the plain medians.
${measuredLine}

Powertools for AWS Lambda is not in the bundles: every function gets Logger, Metrics and Tracer (with the X-Ray SDK)
from one Powertools layer (\`infra/constructs/powertools-layer.ts\`: each package bundled into one file),
${fmt(layer.layerBytes / 1024, 1)} KB in all; the bundles keep it external. Powertools' idempotency utility (with its
JMESPath engine and commons) is bundled into every function.
Here the bundles resolve the layer's modules from that same layer folder (\`.bench/bundles/node_modules\`, as from
/opt/nodejs/node_modules deployed), so each route's import time includes loading them (Logger and Metrics:
${fmt(loggingImportMs, 1)} ms when imported alone) and its bundle size does not (bundled into each function, Logger,
Metrics and Tracer alone would add ${fmt(layer.bundledBytes / 1024, 1)} KB). The Tracer and the X-Ray SDK (${fmt(tracerImportMs, 1)} ms alone, about as
much as the SDK clients) are loaded by the first invocation X-Ray samples in a container, not at cold start
(\`shared/observability.ts\`). The analysis routes keep \`sharp\` external as deployed (it comes from the sharp layer
and is imported on the first photo sent to the model, not at cold start). \`GET /openapi.json\` reads its document
from a file in its package on the first request (\`bundledFiles\`), so the document is not in its bundle.

What a bundle carries beyond its SDK clients (esbuild's metafile): zod/mini's core (28–33 KB), the pipeline,
authentication and configuration (about 25 KB), its own area's route entries (\`functions/<area>/routes.ts\`, 1–2.5 KB;
not the whole table), its own response schema (in its handler's contract) and its domain code; every function carries
Powertools' idempotency utility and jose (the pipeline applies \`Idempotency-Key\` and bearer tokens by the route
entry), the multipart routes busboy (23 KB). The vision model's answer
schemas are generated JSON (\`shared/domain/analysis/answer-schemas.json\`), not converted on each call by zod's
\`toJSONSchema\` (20 KB). Bundle bytes are reported, not a target; what each library costs at cold import:
docs/decisions.md.

${[...perRoute, ...(change.length > 0 ? ['', ...change] : [])].join('\n')}
`;
  return { summary, section };
}
