import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/auth/create-token.ts';
import { verifyToken } from '../../../shared/auth/tokens.ts';
import { mockDynamoWithAccounts, standardAccounts, USER_KEY } from '../../support/fixtures.ts';
import { httpEvent, jsonBody, lambdaContext } from '../../support/http-event.ts';

describe('POST /v1/auth/token', () => {
  beforeEach(() => void mockDynamoWithAccounts(standardAccounts()));

  it('exchanges an API key for a bearer token of the same account', async () => {
    const result = await handler(
      httpEvent({ method: 'POST', path: '/v1/auth/token', headers: { 'x-api-key': USER_KEY } }),
      lambdaContext,
    );

    const body = jsonBody(result);
    expect(result).toMatchObject({ statusCode: 200 });
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(
      await verifyToken(new TextEncoder().encode(process.env.TOKEN_SECRET!), body.access_token, new Date()),
    ).toMatchObject({ accountId: 'acc-user' });
  });

  it('refuses a request body, since the key is the only input', async () => {
    const event = httpEvent({
      method: 'POST',
      path: '/v1/auth/token',
      headers: { 'x-api-key': USER_KEY, 'content-type': 'application/json' },
      body: '{"ttl":99}',
    });

    expect(jsonBody(await handler(event, lambdaContext))).toMatchObject({
      statusCode: 400,
      message: 'This route takes no request body',
    });
  });
});
