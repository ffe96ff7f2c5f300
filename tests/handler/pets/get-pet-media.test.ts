import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/pets/get-pet-media.ts';
import { mockDynamoWithAccounts, USER_KEY } from '../../support/fixtures.ts';
import { jsonBody } from '../../support/http-event.ts';
import { aStoredMedia, aStoredPet, callAs, OTHER_KEY, ownerAndStranger, serveMedia, servePet } from './pet-fixtures.ts';

const get = (key: string, petId: string, imageId: string) =>
  callAs(handler, key, { path: `/v1/pets/${petId}/images/${imageId}`, pathParameters: { petId, imageId } });

describe('GET /v1/pets/{petId}/images/{imageId}', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  beforeEach(() => {
    ddb = mockDynamoWithAccounts(ownerAndStranger());
    servePet(ddb, aStoredPet());
    serveMedia(ddb, aStoredMedia());
    serveMedia(
      ddb,
      aStoredMedia({ id: 'vi-1', kind: 'video', status: 'pending', content_type: 'video/mp4', sha256: null }),
    );
    serveMedia(
      ddb,
      aStoredMedia({ id: 'po-1', kind: 'portrait', style: 'watercolour', source_image_id: 'ph-1', generator: 'x' }),
    );
  });

  it('answers a ready photo with fresh short-lived signed URLs for its served copy and thumbnail', async () => {
    const result = await get(USER_KEY, 'pet-1', 'ph-1');

    expect(result.statusCode).toBe(200);
    const photo = jsonBody(result);
    expect(photo).toMatchObject({
      id: 'ph-1',
      pet_id: 'pet-1',
      kind: 'photo',
      status: 'ready',
      content_type: 'image/jpeg',
      width: 640,
      height: 480,
      sha256: 'a'.repeat(64),
      duplicate: false,
      url_expires_in: expect.any(Number),
    });
    // Never the private original, always a signature that expires.
    expect(new URL(photo.url).pathname).toMatch(/pets\/media\/acc-user\/pet-1\/ph-1\/display\.jpg$/);
    expect(new URL(photo.url).searchParams.get('X-Amz-Expires')).toBe(String(photo.url_expires_in));
    expect(new URL(photo.thumbnail_url).pathname).toMatch(/thumbnail\.jpg$/);
  });

  it('answers a pending item without URLs and shows the fields of its kind', async () => {
    const video = jsonBody(await get(USER_KEY, 'pet-1', 'vi-1'));
    const portrait = jsonBody(await get(USER_KEY, 'pet-1', 'po-1'));

    expect(video).toMatchObject({ kind: 'video', status: 'pending', url: null, thumbnail_url: null });
    expect(video).toHaveProperty('duration_s');
    expect(video).not.toHaveProperty('style');
    expect(portrait).toMatchObject({ kind: 'portrait', style: 'watercolour', source_image_id: 'ph-1' });
    expect(portrait).not.toHaveProperty('codec');
  });

  it('answers 403 for an image of another account’s pet, 404 for an unknown pet or image', async () => {
    const forbidden = await get(OTHER_KEY, 'pet-1', 'ph-1');
    const noPet = await get(USER_KEY, 'pet-404', 'ph-1');
    const noImage = await get(USER_KEY, 'pet-1', 'ph-404');

    expect(forbidden.statusCode).toBe(403);
    expect(jsonBody(forbidden)).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    expect(noPet.statusCode).toBe(404);
    expect(noImage.statusCode).toBe(404);
    expect(jsonBody(noImage).message).toBe('Image ph-404 does not exist on pet pet-1');
  });
});
