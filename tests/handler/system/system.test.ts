import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as health } from '../../../functions/system/get-health.ts';
import { handler as notFound } from '../../../functions/system/not-found.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import { callbackLogger, type LogFields } from '../../../shared/log.ts';
import { httpEvent, jsonBody, lambdaContext } from '../../support/http-event.ts';

describe('GET /v1/health', () => {
  const ddb = mockClient(DynamoDBDocumentClient);
  beforeEach(() => ddb.reset());

  it('answers 200 without a key when the table is readable', async () => {
    ddb.on(GetCommand).resolves({});

    const result = await health(httpEvent({ path: '/v1/health' }), lambdaContext);

    expect(result).toMatchObject({ statusCode: 200 });
    expect(jsonBody(result)).toMatchObject({ status: 'ok', stage: 'local' });
  });

  it('answers 503 in the error format when the table is not reachable', async () => {
    ddb.on(GetCommand).rejects(new Error('connect ECONNREFUSED'));

    const body = jsonBody(await health(httpEvent({ path: '/v1/health' }), lambdaContext));

    expect(body).toMatchObject({ statusCode: 503, error: 'Service Unavailable', code: 'dependency_unavailable' });
    expect(JSON.stringify(body)).not.toContain('ECONNREFUSED');
  });
});

describe('the $default route', () => {
  it('answers 404 in the error format for an unknown path', async () => {
    const body = jsonBody(await notFound(httpEvent({ path: '/v1/unicorns' }), lambdaContext));

    expect(body).toMatchObject({ statusCode: 404, error: 'Not Found', path: '/v1/unicorns', code: 'route_not_found' });
  });

  it('quotes at most 200 characters of a long path, without authentication: the body stays small', async () => {
    const path = `/v1/${'x'.repeat(15_000)}`;

    const result = await notFound(httpEvent({ path }), lambdaContext);

    const body = jsonBody(result);
    expect(body).toMatchObject({ statusCode: 404, code: 'route_not_found', path: `${path.slice(0, 200)}…` });
    expect(body.message).toBe(`No route matches GET ${path.slice(0, 200)}…`);
    expect(Buffer.byteLength(result.body!)).toBeLessThan(1024);
  });

  it('answers 404 outside the /v1 base path', async () => {
    expect(jsonBody(await notFound(httpEvent({ path: '/health' }), lambdaContext))).toMatchObject({ statusCode: 404 });
  });

  it('answers 405 with an Allow header when the path exists under another method', async () => {
    const result = await notFound(httpEvent({ method: 'DELETE', path: '/v1/health' }), lambdaContext);

    expect(result).toMatchObject({ statusCode: 405, headers: { allow: 'GET' } });
  });

  it('writes the same access line as a routed request, keyed by the fallback route', async () => {
    const entries: { message: string; fields: LogFields; keys: LogFields }[] = [];
    setDepsForTest({ log: callbackLogger((_level, message, fields, keys) => entries.push({ message, fields, keys })) });

    await notFound(httpEvent({ path: '/v1/unicorns' }), lambdaContext);

    const access = entries.filter((e) => e.fields.status !== undefined);
    expect(access).toHaveLength(1);
    expect(access[0]!.message).toMatch(/^GET \/v1\/unicorns 404 \d+ ms$/);
    expect(access[0]!.keys).toEqual({ request_id: 'req-1', route: 'system.not-found' });
  });
});
