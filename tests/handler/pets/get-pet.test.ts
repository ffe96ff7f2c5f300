import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/pets/get-pet.ts';
import { mockDynamoWithAccounts, USER_KEY } from '../../support/fixtures.ts';
import { jsonBody } from '../../support/http-event.ts';
import { aBreed, serveReferenceData } from '../../support/reference-fixtures.ts';
import { aStoredPet, callAs, OTHER_KEY, ownerAndStranger, servePet } from './pet-fixtures.ts';

const get = (key: string, petId: string, query?: Record<string, string>) =>
  callAs(handler, key, { path: `/v1/pets/${petId}`, pathParameters: { petId }, ...(query && { query }) });

describe('GET /v1/pets/{petId}', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  beforeEach(() => {
    ddb = mockDynamoWithAccounts(ownerAndStranger());
    serveReferenceData(ddb, { breeds: [aBreed({ id: 'beagle', name: 'Beagle', breed_groups: ['Hound'] })] });
    servePet(ddb, aStoredPet({ breed_ids: ['beagle'], photo_count: 3, weight_kg: 9.5 }));
  });

  it('answers the pet with its breeds in the basic shape and its counts, never its account', async () => {
    const result = await get(USER_KEY, 'pet-1');

    expect(result.statusCode).toBe(200);
    const pet = jsonBody(result);
    expect(pet).toMatchObject({
      id: 'pet-1',
      name: 'Rex',
      species_id: 'dog',
      breed_ids: ['beagle'],
      breeds: [{ id: 'beagle', name: 'Beagle', breed_group: 'Hound' }],
      weight_kg: 9.5,
      photo_count: 3,
      video_count: 0,
      portrait_count: 0,
      sub_id: 'user-1',
      external_owner_id: 'owner-1',
    });
    expect(pet).not.toHaveProperty('account_id');
  });

  it('answers 403 for another account’s pet and 404 for an unknown id, in the spec’s error JSON', async () => {
    const forbidden = await get(OTHER_KEY, 'pet-1');
    const missing = await get(USER_KEY, 'pet-404');

    expect(forbidden.statusCode).toBe(403);
    expect(jsonBody(forbidden)).toMatchObject({ statusCode: 403, error: 'Forbidden', path: '/v1/pets/pet-1' });
    expect(missing.statusCode).toBe(404);
    expect(jsonBody(missing)).toMatchObject({
      statusCode: 404,
      error: 'Not Found',
      message: 'Pet pet-404 does not exist',
      timestamp: expect.any(String),
    });
  });

  it('answers 400 listing every bad query parameter', async () => {
    const result = await get(USER_KEY, 'pet-1', { lang: 'xx', include: 'images' });

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result)).toMatchObject({
      statusCode: 400,
      error: 'Bad Request',
      message: [expect.stringMatching(/^lang is not supported/), "unknown query parameter 'include'"],
    });
  });
});
