import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { webhookKey } from '../../../shared/db/keys.ts';
import { handler } from '../../../functions/webhooks/rotate-webhook-secret.ts';
import { localSecretCipher } from '../../../shared/adapters/secret-cipher/local.ts';
import { conditionalCheckFailed } from '../../support/dynamo-errors.ts';
import { writeTo } from '../../support/dynamo-writes.ts';
import { jsonBody } from '../../support/http-event.ts';
import { call, mockWebhookRoutes, SECRET_KEY } from '../../support/webhook-routes.ts';

let ddb: ReturnType<typeof mockWebhookRoutes>;
beforeEach(() => {
  ddb = mockWebhookRoutes();
});

describe('POST /v1/webhooks/{id}/rotate-secret', () => {
  const rotate = (id: string) =>
    call(handler, { method: 'POST', path: `/v1/webhooks/${id}/rotate-secret`, pathParameters: { id } });

  it('stores a new encrypted secret and returns it once', async () => {
    ddb.on(UpdateCommand, { TableName: 'test-table' }).resolves({});

    const body = jsonBody(await rotate('wh-1'));

    expect(body).toEqual({ id: 'wh-1', signing_secret: expect.stringMatching(/^whsec_/) });
    const update = writeTo(ddb, webhookKey('acc-user', 'wh-1')).update!;
    expect(JSON.stringify(update)).not.toContain(body.signing_secret);
    await expect(localSecretCipher(SECRET_KEY).decrypt(update.encrypted_secret as string, 'wh-1')).resolves.toBe(
      body.signing_secret,
    );
  });

  it('answers 404 when the endpoint does not exist', async () => {
    ddb.on(UpdateCommand, { TableName: 'test-table' }).rejects(conditionalCheckFailed());

    expect(jsonBody(await rotate('wh-missing'))).toMatchObject({ statusCode: 404 });
  });
});
