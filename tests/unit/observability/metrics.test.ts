import { describe, expect, it, vi } from 'vitest';
import { METRIC, recordMetric } from '../../../shared/observability.ts';
import { captureMetricLines } from '../../support/metric-lines.ts';

describe('metrics', () => {
  const lines = captureMetricLines({ POWERTOOLS_SERVICE_NAME: 'PetApi-test' });

  const emitted = () => lines().map((line) => JSON.parse(line));

  it('writes each metric at once as one EMF line carrying only its own dimensions', () => {
    recordMetric(METRIC.requests, { route: 'health.get', status_class: '2xx' });
    recordMetric(METRIC.webhookAttempts);
    recordMetric(METRIC.analysisProviderLatency, { outcome: 'ok' }, 41, 'Milliseconds');

    const [request, attempt, latency] = emitted();
    expect(emitted()).toHaveLength(3);
    expect(request).toMatchObject({ service: 'PetApi-test', route: 'health.get', status_class: '2xx', Requests: 1 });
    expect(request._aws.CloudWatchMetrics).toEqual([
      {
        Namespace: 'PetApi',
        Dimensions: [['service', 'route', 'status_class']],
        Metrics: [{ Name: 'Requests', Unit: 'Count' }],
      },
    ]);
    expect(attempt._aws.CloudWatchMetrics[0].Dimensions).toEqual([['service']]);
    expect(attempt).not.toHaveProperty('route');
    expect(attempt.WebhookAttempts).toBe(1);
    expect(latency._aws.CloudWatchMetrics[0]).toMatchObject({
      Dimensions: [['service', 'outcome']],
      Metrics: [{ Name: 'AnalysisProviderLatency', Unit: 'Milliseconds' }],
    });
    expect(latency.AnalysisProviderLatency).toBe(41);
  });

  it('drops the dimensions of a refused value, so they never ride along with the next metric', () => {
    const notANumber = 'slow' as unknown as number;
    expect(() => recordMetric(METRIC.analysisProviderLatency, { outcome: 'timeout' }, notANumber)).toThrow();
    recordMetric(METRIC.webhookAttempts);

    expect(emitted()).toHaveLength(1);
    expect(emitted()[0]).not.toHaveProperty('outcome');
    expect(emitted()[0]).not.toHaveProperty('AnalysisProviderLatency');
  });

  it('writes nothing while switched off', () => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'true');
    recordMetric(METRIC.requests, { route: 'health.get', status_class: '2xx' });
    expect(lines()).toEqual([]);
  });
});
