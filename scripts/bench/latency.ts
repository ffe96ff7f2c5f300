// Local latency of a read route through the gateway against a bare SDK GetItem on the same DynamoDB Local, and its part
// of docs/benchmarks.md (summary rows and section, beside the figures it replaces).
import { Agent, request } from 'node:http';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { healthKey } from '../../shared/db/keys.ts';
import { startGateway } from '../local/gateway.ts';
import { startLocalStack } from '../local/stack.ts';
import { resetDeps } from '../../shared/deps.ts';
import { measuredOn, nextSection } from './report-splice.ts';
import { alternateTimed, type MachineLoad, machineLoad, percentile, verdict } from './stats.ts';
import { LOCAL_STAGE } from '../../shared/config.ts';

export interface LatencySamples {
  route: string;
  gatewayMs: number[];
  bareMs: number[];
  date: string;
  load: { start: MachineLoad; end: MachineLoad };
}

const WARMUP = 300;
const ROUNDS = 20;
const PER_ROUND = 100;

export async function measureReadLatency(): Promise<LatencySamples> {
  const stack = await startLocalStack({ dynamoDbPort: 0, awsPort: 0, tableName: 'pet-api-bench' });
  // The local stage: the only one the config lets run against emulators (their endpoints and a token secret in env).
  Object.assign(process.env, stack.env, { STAGE: LOCAL_STAGE, TOKEN_SECRET: 'bench-secret-bench-secret-bench-secret' });
  resetDeps();
  const gateway = await startGateway({ port: 0 });
  const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({}));
  try {
    await ddb.send(new PutCommand({ TableName: stack.env.TABLE_NAME, Item: { ...healthKey(), type: 'Health' } }));
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const url = new URL(`${gateway.url}/health`);
    const viaGateway = () =>
      new Promise<void>((resolve, reject) => {
        const req = request(url, { agent }, (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode === 200 ? resolve() : reject(new Error(`health answered ${res.statusCode}`)),
          );
        });
        req.on('error', reject);
        req.end();
      });
    const bare = async () => {
      await ddb.send(new GetCommand({ TableName: stack.env.TABLE_NAME, Key: healthKey() }));
    };
    const start = machineLoad();
    const { subjectMs: gatewayMs, baselineMs: bareMs } = await alternateTimed(viaGateway, bare, {
      warmup: WARMUP,
      rounds: ROUNDS,
      perRound: PER_ROUND,
    });
    const date = new Date().toISOString().slice(0, 10);
    return { route: 'GET /v1/health (one GetItem)', gatewayMs, bareMs, date, load: { start, end: machineLoad() } };
  } finally {
    ddb.destroy();
    await gateway.close();
    await stack.stop();
  }
}

export const LATENCY_TARGETS = { p50: 1.3, p99: 1.6 };
export const LATENCY_SECTION_TITLE = '## Local read latency';
export const isLatencyRow = (label: string) => /^p(50|99) read route/.test(label);

const fmt = (n: number, digits = 2) => n.toFixed(digits);
const TABLE_ROWS = ['through the gateway', 'bare GetItem', 'ratio'] as const;

/** The p50 and p99 cells of the section's table as docs/benchmarks.md holds them now, by row, and their day. */
export function earlierLatency(doc: string): { measured: string; rows: Map<string, [string, string]> } | undefined {
  const start = doc.indexOf(`${LATENCY_SECTION_TITLE}\n`);
  if (start < 0) return undefined;
  const section = doc.slice(start, nextSection(doc, start));
  const rows = new Map<string, [string, string]>();
  for (const line of section.split('\n')) {
    const [label, p50, p99] = line
      .split('|')
      .slice(1)
      .map((cell) => cell.trim());
    if (TABLE_ROWS.includes(label as never) && p50 && p99 && !rows.has(label!)) rows.set(label!, [p50, p99]);
  }
  const measured = measuredOn(doc, section);
  return rows.size === TABLE_ROWS.length ? { measured, rows } : undefined;
}

export function latencyReport(
  latency: LatencySamples,
  earlier?: ReturnType<typeof earlierLatency>,
): { summary: string[]; section: string } {
  const p50 = { gateway: percentile(latency.gatewayMs, 50), bare: percentile(latency.bareMs, 50) };
  const p99 = { gateway: percentile(latency.gatewayMs, 99), bare: percentile(latency.bareMs, 99) };
  const now: Record<(typeof TABLE_ROWS)[number], [string, string]> = {
    'through the gateway': [fmt(p50.gateway, 3), fmt(p99.gateway, 3)],
    'bare GetItem': [fmt(p50.bare, 3), fmt(p99.bare, 3)],
    ratio: [`${fmt(p50.gateway / p50.bare)}×`, `${fmt(p99.gateway / p99.bare)}×`],
  };
  const then = earlier ? ` p50 on ${earlier.measured} | p99 on ${earlier.measured} |` : '';
  const table = [
    `| | p50 (ms) | p99 (ms) |${then}`,
    `|---|---|---|${earlier ? '---|---|' : ''}`,
    ...TABLE_ROWS.map(
      (row) => `| ${row} | ${now[row].join(' | ')} |${earlier ? ` ${earlier.rows.get(row)!.join(' | ')} |` : ''}`,
    ),
  ];
  const summary = [
    `| p50 read route via gateway vs bare GetItem | ${fmt(p50.gateway / p50.bare)}× (${fmt(p50.gateway, 3)} vs ${fmt(p50.bare, 3)} ms) | ≤ ${LATENCY_TARGETS.p50}× | ${verdict(p50.gateway / p50.bare, LATENCY_TARGETS.p50)} |`,
    `| p99 read route via gateway vs bare GetItem | ${fmt(p99.gateway / p99.bare)}× (${fmt(p99.gateway, 3)} vs ${fmt(p99.bare, 3)} ms) | ≤ ${LATENCY_TARGETS.p99}× | ${verdict(p99.gateway / p99.bare, LATENCY_TARGETS.p99)} |`,
  ];
  const section = `${LATENCY_SECTION_TITLE}

${latency.route}: ${latency.gatewayMs.length} sequential keep-alive requests through the local gateway (HTTP → payload
2.0 event → pipeline → GetItem on DynamoDB Local) against ${latency.bareMs.length} bare \`GetItem\` calls with the SDK on the
same table, alternated in blocks of 100 after a warm-up. Measured on ${latency.date}; load average (1 minute)
${fmt(latency.load.start.oneMinute)} when it began and ${fmt(latency.load.end.oneMinute)} when it ended (${latency.load.start.cores} cores, nice ${latency.load.start.nice}).${earlier ? ` The last two columns are the figures this run replaced.` : ''}

${table.join('\n')}
`;
  return { summary, section };
}
