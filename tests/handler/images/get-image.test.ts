import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/images/get-image.ts';
import { mockDynamoWithAccounts, standardAccounts } from '../../support/fixtures.ts';
import { jsonBody } from '../../support/http-event.ts';
import { aStoredCatalogueImage, aStoredUpload, asUser, serveImages } from './image-fixtures.ts';

/** The public fields of the caller's upload as stored: the response shows exactly these, plus the media URL. */
const OWN_UPLOAD = {
  id: 'up-1',
  status: 'pending' as const,
  sub_id: 'user-7',
  breed_ids: ['beagle'],
  original_filename: 'beach.png',
  mime_type: 'image/png',
  size: 345_678,
  width: 1200,
  height: 900,
  labels: [{ name: 'Beagle', confidence: 91.2 }],
  label_source: 'rekognition',
  created_at: '2026-11-21T08:30:00.000Z',
};
const getImage = (id: string) => asUser(handler, { path: `/v1/images/${id}`, pathParameters: { id } });

describe('GET /v1/images/{id}', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  beforeEach(() => {
    ddb = mockDynamoWithAccounts(standardAccounts());
    serveImages(ddb, [
      aStoredUpload({ ...OWN_UPLOAD, file: 'images/acc-user/up-1.png' }),
      aStoredUpload({ id: 'up-rejected', status: 'rejected', rejection_reason: 'no animal in the photo' }),
      aStoredUpload({ id: 'up-other', account_id: 'acc-other' }),
      aStoredCatalogueImage('cat-1'),
    ]);
  });

  it("answers the caller's own upload in the upload shape, with its URL under the media base and its labels", async () => {
    const result = await getImage('up-1');

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toEqual({
      ...OWN_UPLOAD,
      url: expect.stringMatching(/^https?:\/\/.+\/images\/acc-user\/up-1\.png$/),
    });
  });

  it('says why a rejected upload was rejected', async () => {
    expect(jsonBody(await getImage('up-rejected'))).toMatchObject({
      status: 'rejected',
      rejection_reason: 'no animal in the photo',
    });
  });

  it('answers a catalogue image to any account, always approved, with its species and tags', async () => {
    const body = jsonBody(await getImage('cat-1'));

    expect(body).toEqual({
      id: 'cat-1',
      url: expect.stringMatching(/\/catalogue\/cat-1\.jpg$/),
      width: 800,
      height: 600,
      species_id: 'dog',
      breed_ids: ['beagle'],
      category_ids: [1],
      status: 'approved',
      created_at: '2025-01-01T00:00:00.000Z',
      kind: 'illustration',
      attribution: null,
    });
  });

  it('spells the URL as every other image URL is spelled: each segment of the key encoded', async () => {
    serveImages(ddb, [{ ...aStoredCatalogueImage('cat-2'), file: 'catalogue/cat two#2.jpg' }]);

    expect(jsonBody(await getImage('cat-2'))).toMatchObject({
      url: expect.stringMatching(/\/catalogue\/cat%20two%232\.jpg$/),
    });
  });

  it("answers 403 for another account's upload, without showing it", async () => {
    const result = await getImage('up-other');

    expect(result.statusCode).toBe(403);
    expect(jsonBody(result)).toMatchObject({
      statusCode: 403,
      error: 'Forbidden',
      message: 'Image up-other belongs to another account',
    });
    expect(jsonBody(result)).not.toHaveProperty('url');
  });

  it("answers another account's public upload as the public library shows it, never the upload record", async () => {
    const summary = {
      id: 'up-public',
      file: 'images/acc-other/up-public.jpg',
      width: 640,
      height: 480,
      species_id: 'dog',
      breed_ids: ['beagle'],
      category_ids: [],
      colour_ids: ['dog-black'],
      age_months: null,
      created_at: '2026-11-24T10:00:00.000Z',
      kind: 'photo',
      attribution: { author: null, licence: 'CC0-1.0', source_url: null },
    };
    serveImages(ddb, [
      aStoredUpload({ id: 'up-public', account_id: 'acc-other', public: { summary, placement: { all: 0 } } } as never),
    ]);

    const body = jsonBody(await getImage('up-public'));

    expect(body).toEqual({
      id: 'up-public',
      url: expect.stringMatching(/\/images\/acc-other\/up-public\.jpg$/),
      width: 640,
      height: 480,
      species_id: 'dog',
      breed_ids: ['beagle'],
      category_ids: [],
      status: 'approved',
      created_at: '2026-11-24T10:00:00.000Z',
      kind: 'photo',
      attribution: {
        author: null,
        licence: 'CC0-1.0',
        licence_url: 'https://creativecommons.org/publicdomain/zero/1.0/',
        source_url: null,
      },
    });
  });

  it('answers 404 for an image that does not exist', async () => {
    const result = await getImage('nope');

    expect(result.statusCode).toBe(404);
    expect(jsonBody(result)).toMatchObject({ error: 'Not Found', message: 'Image nope does not exist' });
  });

  it('answers 400 for an id longer than 100 characters, before reading the table', async () => {
    const result = await getImage('x'.repeat(101));

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).message).toEqual(['id must be at most 100 characters long']);
    expect(ddb.commandCalls(GetCommand).filter((c) => c.args[0].input.Key?.pk?.startsWith('IMAGE#'))).toHaveLength(0);
  });
});
