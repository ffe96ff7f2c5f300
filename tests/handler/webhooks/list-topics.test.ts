import { beforeEach, describe, expect, it } from 'vitest';
import { EVENT_NAMES } from '../../../shared/events/catalogue.ts';
import { jsonBody } from '../../support/http-event.ts';
import { handler } from '../../../functions/webhooks/list-topics.ts';
import { call, mockWebhookRoutes } from '../../support/webhook-routes.ts';

beforeEach(() => {
  mockWebhookRoutes();
});

describe('GET /v1/webhooks/topics', () => {
  it('lists the event catalogue with descriptions', async () => {
    const body = jsonBody(await call(handler, { path: '/v1/webhooks/topics' }));

    expect(body.map((t: { name: string }) => t.name)).toEqual(EVENT_NAMES);
    expect(body[0]).toEqual({ name: 'vote.created', description: 'a vote was recorded' });
  });
});
