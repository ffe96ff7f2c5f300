import { CreateMultipartUploadCommand, S3Client } from '@aws-sdk/client-s3';
import { BatchGetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/pets/create-pet-upload.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import { mockDynamoWithAccounts, USER_KEY } from '../../support/fixtures.ts';
import { jsonBody } from '../../support/http-event.ts';
import {
  aStoredMedia,
  aStoredPet,
  callAs,
  OTHER_KEY,
  ownerAndStranger,
  servePetTakingPhotos,
  transactionSortKeys,
} from './pet-fixtures.ts';

const s3 = mockClient(S3Client);
const MB = 1024 * 1024;
const SHA = 'b'.repeat(64);
const photoSlot = (size: number, content_type = 'image/jpeg') => ({ kind: 'photo', content_type, size, sha256: SHA });
const slot = (key: string, petId: string, body: unknown) =>
  callAs(handler, key, { method: 'POST', path: `/v1/pets/${petId}/uploads`, pathParameters: { petId }, body });

describe('POST /v1/pets/{petId}/uploads', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  beforeEach(() => {
    ddb = mockDynamoWithAccounts(ownerAndStranger());
    servePetTakingPhotos(ddb, aStoredPet());
    s3.reset();
    s3.on(CreateMultipartUploadCommand).resolves({ UploadId: 'upload-1' });
    setDepsForTest({ newId: () => 'up-1', now: () => new Date('2026-11-22T10:00:00Z'), random: () => 0 });
  });

  it('answers 201 for a 200 MB video with its record awaiting the bytes and one presigned PUT per part', async () => {
    const result = await slot(USER_KEY, 'pet-1', { kind: 'video', content_type: 'video/mp4', size: 200 * MB });

    expect(result.statusCode).toBe(201);
    const body = jsonBody(result);
    expect(body).toMatchObject({
      id: 'up-1',
      kind: 'video',
      status: 'awaiting_upload',
      bytes: 200 * MB,
      upload: { method: 'PUT', part_size: 8 * MB, complete: 'POST /v1/pets/pet-1/uploads/up-1/complete' },
    });
    const parts: { part_number: number; size: number; url: string }[] = body.upload.parts;
    expect(parts.map((p) => p.part_number)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(parts.reduce((sum, p) => sum + p.size, 0)).toBe(200 * MB);
    const url = new URL(parts[0]!.url);
    expect(url.pathname).toMatch(/pets\/videos\/acc-user\/pet-1\/up-1\.mp4$/);
    expect(url.searchParams.get('uploadId')).toBe('upload-1');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toContain('content-length');
    // The record and its quota are written before any URL is handed out.
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('takes a rate slot, the hash and the quota for a large photo at step one', async () => {
    const result = await slot(USER_KEY, 'pet-1', photoSlot(30 * MB));

    expect(result.statusCode).toBe(201);
    expect(jsonBody(result)).toMatchObject({ kind: 'photo', status: 'awaiting_upload', sha256: SHA, duplicate: false });
    expect(transactionSortKeys(ddb)).toEqual([`HASH#${SHA}`, 'MEDIA#up-1', 'PET', 'QUOTA#2026-11', 'RATE#000']);
  });

  it('answers a photo already on the pet with that record, duplicate: true, and no URL, writing nothing', async () => {
    const existing = aStoredMedia({ sha256: SHA });
    ddb.on(BatchGetCommand).callsFake((input) => {
      const [table] = Object.keys(input.RequestItems);
      const sk = input.RequestItems[table!].Keys[0].sk;
      const item = sk.startsWith('HASH#') ? { sha256: SHA, media_id: 'ph-1' } : existing;
      return { Responses: { [table!]: [item] } };
    });

    const result = await slot(USER_KEY, 'pet-1', photoSlot(1000, 'image/png'));

    expect(result.statusCode).toBe(201);
    expect(jsonBody(result)).toMatchObject({ id: 'ph-1', duplicate: true, upload: null });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(s3.commandCalls(CreateMultipartUploadCommand)).toHaveLength(0);
  });

  it('answers 400 naming each bad field: over the spec sizes, a malformed hash, an unbounded type', async () => {
    const bigPhoto = await slot(USER_KEY, 'pet-1', photoSlot(60 * MB));
    const bigVideo = await slot(USER_KEY, 'pet-1', { kind: 'video', content_type: 'video/mp4', size: 201 * MB });
    const badHash = await slot(USER_KEY, 'pet-1', { kind: 'photo', content_type: 'image/gif', size: 10, sha256: 'x' });
    const hugeType = await slot(USER_KEY, 'pet-1', {
      kind: 'video',
      content_type: `video/${'x'.repeat(300)}`,
      size: 10,
    });

    for (const result of [bigPhoto, bigVideo, badHash, hugeType]) expect(result.statusCode).toBe(400);
    expect(jsonBody(bigPhoto).message).toEqual([expect.stringMatching(/^size/)]);
    expect(jsonBody(bigVideo).message).toEqual([expect.stringMatching(/^size/)]);
    expect(jsonBody(badHash).message).toEqual([expect.stringMatching(/^sha256/)]);
    expect(jsonBody(hugeType).message).toEqual([expect.stringMatching(/^content_type/)]);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('answers 415 unsupported_format naming the accepted types for a content_type outside them, writing nothing', async () => {
    const video = await slot(USER_KEY, 'pet-1', { kind: 'video', content_type: 'video/x-matroska', size: 10 });
    const photo = await slot(USER_KEY, 'pet-1', photoSlot(10, 'image/heic'));

    expect(video.statusCode).toBe(415);
    expect(jsonBody(video)).toMatchObject({
      statusCode: 415,
      error: 'Unsupported Media Type',
      code: 'unsupported_format',
      accepted: ['video/mp4', 'video/quicktime', 'video/webm', 'video/x-msvideo', 'video/mpeg', 'video/3gpp'],
    });
    expect(jsonBody(video).message).toMatch(/video\/mp4.*video\/3gpp/);
    expect(photo.statusCode).toBe(415);
    expect(jsonBody(photo)).toMatchObject({
      code: 'unsupported_format',
      accepted: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
    });
    expect(jsonBody(photo).message).toMatch(/image\/jpeg, image\/png, image\/gif, image\/webp/);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(s3.commandCalls(CreateMultipartUploadCommand)).toHaveLength(0);
  });

  it('answers 403 for another account’s pet and 404 for an unknown one, before anything is written', async () => {
    const body = { kind: 'video', content_type: 'video/mp4', size: 10 * MB };
    expect((await slot(OTHER_KEY, 'pet-1', body)).statusCode).toBe(403);
    expect((await slot(USER_KEY, 'pet-404', body)).statusCode).toBe(404);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(s3.commandCalls(CreateMultipartUploadCommand)).toHaveLength(0);
  });
});
