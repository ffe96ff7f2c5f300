import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/pets/list-portraits.ts';
import { anAccount, mockDynamoWithAccounts, USER_KEY } from '../../support/fixtures.ts';
import { jsonBody } from '../../support/http-event.ts';
import {
  aStoredMedia,
  aStoredPet,
  callAs,
  OTHER_KEY,
  ownerAndStranger,
  serveMediaQuery,
  servePet,
} from './pet-fixtures.ts';

const list = (key: string, petId: string, query?: Record<string, string>) =>
  callAs(handler, key, { path: `/v1/pets/${petId}/portraits`, pathParameters: { petId }, ...(query && { query }) });
const portrait = (id: string, style: string) =>
  aStoredMedia({ id, kind: 'portrait', style, source_image_id: 'ph-1', generator: 'sharp-filters' });

describe('GET /v1/pets/{petId}/portraits', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  beforeEach(() => {
    ddb = mockDynamoWithAccounts(ownerAndStranger());
    servePet(ddb, aStoredPet({ photo_count: 1, video_count: 1, portrait_count: 2 }));
    serveMediaQuery(ddb, [
      aStoredMedia(),
      portrait('po-1', 'studio'),
      aStoredMedia({ id: 'vi-1', kind: 'video', content_type: 'video/mp4' }),
      portrait('po-2', 'pencil_sketch'),
    ]);
  });

  it('answers only the pet’s portraits, oldest first, with style, source and generator', async () => {
    const result = await list(USER_KEY, 'pet-1');

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toEqual([
      expect.objectContaining({ id: 'po-1', kind: 'portrait', style: 'studio', source_image_id: 'ph-1' }),
      expect.objectContaining({ id: 'po-2', style: 'pencil_sketch', generator: 'sharp-filters' }),
    ]);
    expect(result.headers['pagination-count']).toBe('2');
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({
      IndexName: 'gsi1',
      ExpressionAttributeValues: { ':partition': 'PET#pet-1#MEDIA#portrait' },
      Limit: 20,
    });
  });

  it('still lists portraits when drawing them is switched off for the account (the capability gates drawing)', async () => {
    ddb = mockDynamoWithAccounts([{ apiKey: USER_KEY, account: anAccount({ disabled_capabilities: ['portraits'] }) }]);
    servePet(ddb, aStoredPet({ portrait_count: 1 }));
    serveMediaQuery(ddb, [portrait('po-1', 'studio')]);

    const result = await list(USER_KEY, 'pet-1');

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result).map((p: { id: string }) => p.id)).toEqual(['po-1']);
  });

  it('pages newest first with order=DESC and limit', async () => {
    const result = await list(USER_KEY, 'pet-1', { order: 'DESC', limit: '1' });

    expect(jsonBody(result).map((p: { id: string }) => p.id)).toEqual(['po-2']);
    expect(result.headers['pagination-count']).toBe('2');
  });

  it('answers 400 for a kind parameter (this list is portraits only) and 403/404 as every pet route', async () => {
    const withKind = await list(USER_KEY, 'pet-1', { kind: 'photo' });

    expect(withKind.statusCode).toBe(400);
    expect(jsonBody(withKind).message).toEqual(["unknown query parameter 'kind'"]);
    expect((await list(OTHER_KEY, 'pet-1')).statusCode).toBe(403);
    expect((await list(USER_KEY, 'pet-404')).statusCode).toBe(404);
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
  });
});
