import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler as health } from '../../../functions/system/get-health.ts';
import { handler as notFound } from '../../../functions/system/not-found.ts';
import { handler as listFacts } from '../../../functions/facts/list-facts.ts';
import { loadConfig } from '../../../shared/config.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import { clearOriginSecretCache, ORIGIN_HEADER } from '../../../shared/http/origin-check.ts';
import { httpEvent, jsonBody, lambdaContext } from '../../support/http-event.ts';

const SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:111122223333:secret:origin-AbCdEf';
const CURRENT = 'c'.repeat(64);
const PREVIOUS = 'p'.repeat(64);

const ddb = mockClient(DynamoDBDocumentClient);
const extension = vi.fn(
  async (_url: string, _init?: RequestInit) =>
    new Response(JSON.stringify({ SecretString: JSON.stringify({ current: CURRENT, previous: PREVIOUS }) })),
);

/** The stage as deployed with the firewall: ORIGIN_SECRET_ARN set, the secret read through the extension. */
function behindFirewall(): void {
  setDepsForTest({ config: { ...loadConfig(), originSecretArn: SECRET_ARN, awsSessionToken: 'session' } });
  vi.stubGlobal('fetch', extension);
}

beforeEach(() => {
  ddb.reset();
  ddb.on(GetCommand).resolves({});
  extension.mockClear();
});
afterEach(() => {
  vi.unstubAllGlobals();
  clearOriginSecretCache();
});

const get = (path: string, headers: Record<string, string> = {}) => httpEvent({ path, headers });

describe('a stage behind the firewall (ORIGIN_SECRET_ARN set)', () => {
  beforeEach(behindFirewall);

  it('answers 403 in the error format to a request without the origin header, before the route runs', async () => {
    const result = await health(get('/v1/health'), lambdaContext);

    expect(result.statusCode).toBe(403);
    expect(jsonBody(result)).toMatchObject({
      statusCode: 403,
      error: 'Forbidden',
      code: 'origin_not_allowed',
      path: '/v1/health',
    });
    expect(ddb.commandCalls(GetCommand)).toHaveLength(0);
  });

  it('answers 403 to a wrong origin header, before authenticating the caller', async () => {
    const result = await listFacts(
      get('/v1/facts', { [ORIGIN_HEADER]: 'x'.repeat(64), 'x-api-key': 'key' }),
      lambdaContext,
    );

    expect(jsonBody(result)).toMatchObject({ statusCode: 403, code: 'origin_not_allowed' });
    expect(ddb.commandCalls(GetCommand)).toHaveLength(0);
  });

  it("passes a request carrying the secret's current value, and its previous one during a rotation", async () => {
    for (const value of [CURRENT, PREVIOUS]) {
      const result = await health(get('/v1/health', { [ORIGIN_HEADER]: value }), lambdaContext);
      expect(result.statusCode).toBe(200);
    }
  });

  it('reads the secret once per container, not per request', async () => {
    for (let i = 0; i < 3; i++) await health(get('/v1/health', { [ORIGIN_HEADER]: CURRENT }), lambdaContext);
    await health(get('/v1/health'), lambdaContext);

    expect(extension).toHaveBeenCalledTimes(1);
    expect(extension.mock.calls[0]![0]).toBe(
      `http://localhost:2773/secretsmanager/get?secretId=${encodeURIComponent(SECRET_ARN)}`,
    );
  });

  it('guards the $default route too: 403 without the header, its 404 with it', async () => {
    expect(jsonBody(await notFound(get('/v1/unicorns'), lambdaContext))).toMatchObject({
      statusCode: 403,
      code: 'origin_not_allowed',
    });
    expect(jsonBody(await notFound(get('/v1/unicorns', { [ORIGIN_HEADER]: CURRENT }), lambdaContext))).toMatchObject({
      statusCode: 404,
      code: 'route_not_found',
    });
  });

  it('answers 500 in the error format, naming nothing of the secret, when the secret is not the expected JSON', async () => {
    extension.mockResolvedValueOnce(new Response(JSON.stringify({ SecretString: 'not json' })));

    const result = await health(get('/v1/health', { [ORIGIN_HEADER]: CURRENT }), lambdaContext);

    expect(jsonBody(result)).toMatchObject({ statusCode: 500, message: 'Internal server error' });
  });
});

describe('the local stack and stages without the firewall (no ORIGIN_SECRET_ARN)', () => {
  it('check nothing and read no secret', async () => {
    vi.stubGlobal('fetch', extension);

    expect((await health(get('/v1/health'), lambdaContext)).statusCode).toBe(200);
    expect((await notFound(get('/v1/unicorns'), lambdaContext)).statusCode).toBe(404);
    expect(extension).not.toHaveBeenCalled();
  });
});
