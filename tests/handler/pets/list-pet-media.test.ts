import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/pets/list-pet-media.ts';
import { mockDynamoWithAccounts, USER_KEY } from '../../support/fixtures.ts';
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
  callAs(handler, key, { path: `/v1/pets/${petId}/images`, pathParameters: { petId }, ...(query && { query }) });
const ids = (result: unknown) => jsonBody(result).map((m: { id: string }) => m.id);

describe('GET /v1/pets/{petId}/images', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  beforeEach(() => {
    ddb = mockDynamoWithAccounts(ownerAndStranger());
    servePet(ddb, aStoredPet({ photo_count: 3, video_count: 1, portrait_count: 1 }));
    serveMediaQuery(ddb, [
      aStoredMedia({ id: 'm1' }),
      aStoredMedia({ id: 'm2', kind: 'video', status: 'pending', content_type: 'video/mp4', sha256: null }),
      aStoredMedia({ id: 'm3' }),
      aStoredMedia({ id: 'm4', kind: 'portrait', style: 'studio', generator: 'sharp-filters' }),
      aStoredMedia({ id: 'm5', status: 'rejected', reason: 'damaged file' }),
    ]);
  });

  it('answers the gallery oldest first, photos, videos and portraits, with the total in Pagination-Count', async () => {
    const result = await list(USER_KEY, 'pet-1');

    expect(result.statusCode).toBe(200);
    expect(ids(result)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect(result.headers['pagination-count']).toBe('5');
    expect(jsonBody(result)[4]).toMatchObject({ status: 'rejected', reason: 'damaged file', url: null });
    expect(jsonBody(result)[0].url).toContain('X-Amz-Signature=');
  });

  it('filters by kind (any letter case) and pages with limit, page and order', async () => {
    const photos = await list(USER_KEY, 'pet-1', { kind: 'PHOTO' });
    const secondPage = await list(USER_KEY, 'pet-1', { limit: '2', page: '1' });
    const newestFirst = await list(USER_KEY, 'pet-1', { order: 'desc', limit: '2' });

    expect(ids(photos)).toEqual(['m1', 'm3', 'm5']);
    expect(photos.headers['pagination-count']).toBe('3');
    expect(ids(secondPage)).toEqual(['m3', 'm4']);
    expect(secondPage.headers['pagination-count']).toBe('5');
    expect(ids(newestFirst)).toEqual(['m5', 'm4']);
  });

  it('takes Pagination-Count from the pet’s counts and reads only what the page needs, by kind from its index', async () => {
    servePet(ddb, aStoredPet({ photo_count: 3, video_count: 1, portrait_count: 40 }));

    const page = await list(USER_KEY, 'pet-1', { limit: '2', page: '1' });
    const photos = await list(USER_KEY, 'pet-1', { kind: 'photo', limit: '1', page: '2' });

    expect(page.headers['pagination-count']).toBe('44');
    expect(photos.headers['pagination-count']).toBe('3');
    expect(ids(photos)).toEqual(['m5']);
    const queries = ddb.commandCalls(QueryCommand).map((c) => c.args[0].input);
    // Per page: the skipped items as keys only, then the page with Limit; a kind reads its own gsi1 partition.
    expect(queries.map((q) => [q.IndexName, q.Limit, q.ProjectionExpression])).toEqual([
      [undefined, 2, 'pk, sk'],
      [undefined, 2, undefined],
      ['gsi1', 2, 'pk, sk, gsi1pk, gsi1sk'],
      ['gsi1', 1, undefined],
    ]);
    expect(queries[2]!.ExpressionAttributeValues).toEqual({ ':partition': 'PET#pet-1#MEDIA#photo' });
    expect(queries.every((q) => q.FilterExpression === undefined)).toBe(true);
  });

  it('answers 400 for an unknown kind or a limit out of range, before reading the gallery', async () => {
    const badKind = await list(USER_KEY, 'pet-1', { kind: 'audio' });
    const badLimit = await list(USER_KEY, 'pet-1', { limit: '101' });

    expect(badKind.statusCode).toBe(400);
    expect(jsonBody(badKind).message).toEqual([expect.stringMatching(/^kind/)]);
    expect(badLimit.statusCode).toBe(400);
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
  });

  it('answers 403 for another account’s pet and 404 for an unknown one', async () => {
    expect((await list(OTHER_KEY, 'pet-1')).statusCode).toBe(403);
    expect((await list(USER_KEY, 'pet-404')).statusCode).toBe(404);
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
  });
});
