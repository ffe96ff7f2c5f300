import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetObservability, traced, traceIfSampled } from '../../../shared/observability.ts';

const middlewareOf = (client: DynamoDBClient) => client.middlewareStack.identify().join(' ');

describe('X-Ray tracing', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    resetObservability();
  });

  it('stays unloaded while no invocation is sampled (and outside Lambda)', async () => {
    vi.stubEnv('_X_AMZN_TRACE_ID', 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=0');
    expect(await traceIfSampled()).toBeUndefined();
    vi.stubEnv('_X_AMZN_TRACE_ID', '');
    expect(await traceIfSampled()).toBeUndefined();
  });

  it('loads on the first sampled invocation and captures the clients made before and after it', async () => {
    vi.stubEnv('AWS_EXECUTION_ENV', 'AWS_Lambda_nodejs22.x');
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'test-fn');
    const before = traced(new DynamoDBClient({ region: 'us-east-1' }));
    expect(middlewareOf(before)).not.toMatch(/XRay/i);

    vi.stubEnv('_X_AMZN_TRACE_ID', 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1');
    const tracer = await traceIfSampled();
    const after = traced(new DynamoDBClient({ region: 'us-east-1' }));

    expect(tracer).toBeDefined();
    expect(middlewareOf(before)).toMatch(/XRay/i);
    expect(middlewareOf(after)).toMatch(/XRay/i);
    vi.stubEnv('_X_AMZN_TRACE_ID', 'Root=1-5759e988-bd862e3fe1be46a994272794;Parent=53995c3f42cd8ad9;Sampled=0');
    expect(await traceIfSampled()).toBe(tracer);
  });
});
