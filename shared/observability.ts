// Metrics and traces. Metrics: Powertools for AWS Lambda's Metrics in CloudWatch's embedded metric format (one JSON
// log line per metric that CloudWatch turns into a metric: no API call, no latency). Traces: Powertools' Tracer over
// X-Ray, with every AWS SDK client captured as a subsegment. Metrics are off where POWERTOOLS_METRICS_DISABLED=true
// (local mode, handler tests). Deployed, these packages come from the Powertools layer
// (infra/constructs/powertools-layer.ts), not from each function's bundle.
//
// The X-Ray SDK doubles a function's cold import (`npm run bench`), and only sampled invocations (by default the first
// each second and 5 % of the rest) send traces. So the Tracer is loaded by the first sampled invocation of a container,
// which then captures every client created before or after; a container that is never sampled never loads it.
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Tracer } from '@aws-lambda-powertools/tracer';

/** The namespace of every metric; the `service` dimension (the stage's stack name) tells the stages apart. */
export const METRICS_NAMESPACE = 'PetApi';

/**
 * A stage's name for itself: the CDK app names the stage's stack with it, and every log line and metric carries it as
 * `service` (POWERTOOLS_SERVICE_NAME: the stack's name deployed, this locally).
 */
export const serviceName = (stage: string) => `PetApi-${stage}`;

/** Every metric the code emits; the alarms and the dashboard (infra/constructs/monitoring.ts) read the same names. */
export const METRIC = {
  /** Dimensions `route` (route id) and `status_class` (2xx … 5xx). */
  requests: 'Requests',
  webhookAttempts: 'WebhookAttempts',
  webhookSuccesses: 'WebhookSuccesses',
  webhookFailures: 'WebhookFailures',
  /** Endpoints disabled after their tenth failure in a row. */
  webhookDisables: 'WebhookDisables',
  /** Dimension `outcome`: what processing decided for an uploaded photo or pet medium (ready, rejected). */
  uploads: 'Uploads',
  /** Dimension `outcome`: ok, or why the vision model gave no answer. */
  analysisCalls: 'AnalysisCalls',
  /** Milliseconds one vision-model call took, retry included. */
  analysisProviderLatency: 'AnalysisProviderLatency',
} as const;
export type MetricName = (typeof METRIC)[keyof typeof METRIC];

let metrics: Metrics | undefined;
let tracer: Tracer | undefined;

/** Emits one metric now, with its own dimensions (plus Powertools' `service`). */
export function recordMetric(
  name: MetricName,
  dimensions: Record<string, string> = {},
  value = 1,
  unit: 'Count' | 'Milliseconds' = 'Count',
): void {
  // Switched off (local mode, handler tests): building a metric only to drop it costs CPU per call (per delivery).
  if (process.env.POWERTOOLS_METRICS_DISABLED === 'true') return;
  // One instance, published at once: singleMetric() would build a whole Metrics (a Console of its own, the
  // environment read again) per call. Nothing else runs between adding and publishing, so concurrent requests in one
  // process cannot mix their dimensions.
  metrics ??= new Metrics({ namespace: METRICS_NAMESPACE });
  try {
    for (const [dimension, dimensionValue] of Object.entries(dimensions))
      metrics.addDimension(dimension, dimensionValue);
    metrics.addMetric(name, MetricUnit[unit], value);
  } catch (error) {
    // A refused value must not leave its dimensions to the next metric.
    metrics.clearDimensions();
    metrics.clearMetrics();
    throw error;
  }
  metrics.publishStoredMetrics();
}

/** Held weakly: tests and local restarts make new clients, and only live ones matter. */
const clients = new Set<WeakRef<object>>();

/** An AWS SDK v3 client whose calls become X-Ray subsegments once this container traces (see above). */
export function traced<Client extends object>(client: Client): Client {
  clients.add(new WeakRef(client));
  tracer?.captureAWSv3Client(client);
  return client;
}

/**
 * Called as each invocation starts: loads the Tracer when Lambda sampled this invocation for X-Ray (its trace header
 * says `Sampled=1`; never outside Lambda) and returns it, or the Tracer a previous invocation loaded.
 */
export async function traceIfSampled(): Promise<Tracer | undefined> {
  if (tracer || !/;Sampled=1/.test(process.env._X_AMZN_TRACE_ID ?? '')) return tracer;
  const { Tracer } = await import('@aws-lambda-powertools/tracer');
  tracer ??= new Tracer();
  for (const ref of clients) {
    const client = ref.deref();
    if (client) tracer.captureAWSv3Client(client);
    else clients.delete(ref);
  }
  return tracer;
}

/** Tests: forget the instances, so the next use reads the environment again. */
export function resetObservability(): void {
  metrics = undefined;
  tracer = undefined;
  clients.clear();
}
