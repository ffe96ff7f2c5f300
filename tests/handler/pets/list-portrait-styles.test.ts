import { describe, expect, it } from 'vitest';
import { handler } from '../../../functions/pets/list-portrait-styles.ts';
import { PORTRAIT_STYLES } from '../../../shared/ports/image-generator.ts';
import { mockDynamoWithAccounts, USER_KEY } from '../../support/fixtures.ts';
import { httpEvent, jsonBody, lambdaContext } from '../../support/http-event.ts';
import { callAs, ownerAndStranger } from './pet-fixtures.ts';

const list = (key: string, query?: Record<string, string>) =>
  callAs(handler, key, { path: '/v1/pets/portrait-styles', ...(query && { query }) });

describe('GET /v1/pets/portrait-styles', () => {
  it('answers every style POST /pets/{petId}/portrait accepts, in the real service’s style shape', async () => {
    mockDynamoWithAccounts(ownerAndStranger());

    const result = await list(USER_KEY);

    expect(result.statusCode).toBe(200);
    const styles = jsonBody(result);
    expect(styles.map((s: { id: string }) => s.id)).toEqual([...PORTRAIT_STYLES]);
    for (const style of styles)
      expect(style).toEqual({
        id: expect.any(String),
        name: expect.any(String),
        description: expect.any(String),
        category: expect.any(String),
        popularity_score: expect.any(Number),
      });
  });

  it('answers 403 without an API key or with an unknown one (spec: no key, invalid key)', async () => {
    mockDynamoWithAccounts(ownerAndStranger());

    const missing = await handler(httpEvent({ path: '/v1/pets/portrait-styles' }), lambdaContext);
    const unknown = await list('live_nobody');

    expect([missing.statusCode, unknown.statusCode]).toEqual([403, 403]);
    expect(jsonBody(unknown)).toMatchObject({ statusCode: 403, error: 'Forbidden' });
  });
});
