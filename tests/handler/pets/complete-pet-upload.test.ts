import { CompleteMultipartUploadCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/pets/complete-pet-upload.ts';
import { mockDynamoWithAccounts, USER_KEY } from '../../support/fixtures.ts';
import { jsonBody } from '../../support/http-event.ts';
import {
  aStoredMedia,
  aStoredPet,
  callAs,
  OTHER_KEY,
  ownerAndStranger,
  serveMedia,
  servePet,
  DATA_TABLE,
} from './pet-fixtures.ts';

const s3 = mockClient(S3Client);
const MB = 1024 * 1024;
const complete = (key: string, petId: string, imageId: string, body: unknown) =>
  callAs(handler, key, {
    method: 'POST',
    path: `/v1/pets/${petId}/uploads/${imageId}/complete`,
    pathParameters: { petId, imageId },
    body,
  });
/** The ETags of parts 1..n, in the order given. */
const parts = (...numbers: number[]) => ({ parts: numbers.map((n) => ({ part_number: n, etag: `"etag-${n}"` })) });

describe('POST /v1/pets/{petId}/uploads/{imageId}/complete', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  beforeEach(() => {
    ddb = mockDynamoWithAccounts(ownerAndStranger());
    servePet(ddb, aStoredPet());
    // A 20 MB video awaiting its three 8 MiB parts, and a photo whose bytes already arrived.
    serveMedia(
      ddb,
      aStoredMedia({
        id: 'vi-1',
        kind: 'video',
        status: 'awaiting_upload',
        file: 'pets/videos/acc-user/pet-1/vi-1.mp4',
        content_type: 'video/mp4',
        bytes: 20 * MB,
        upload_id: 'upload-1',
        sha256: null,
      }),
    );
    serveMedia(ddb, aStoredMedia({ status: 'pending' }));
    ddb.on(UpdateCommand, DATA_TABLE).resolves({});
    s3.reset();
    s3.on(CompleteMultipartUploadCommand).resolves({});
  });

  it('assembles the parts in order and answers the record, now pending processing', async () => {
    const result = await complete(USER_KEY, 'pet-1', 'vi-1', parts(3, 1, 2));

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toMatchObject({ id: 'vi-1', kind: 'video', status: 'pending' });
    expect(s3.commandCalls(CompleteMultipartUploadCommand)[0]!.args[0].input).toMatchObject({
      Key: 'pets/videos/acc-user/pet-1/vi-1.mp4',
      UploadId: 'upload-1',
      MultipartUpload: {
        Parts: [
          { PartNumber: 1, ETag: '"etag-1"' },
          { PartNumber: 2, ETag: '"etag-2"' },
          { PartNumber: 3, ETag: '"etag-3"' },
        ],
      },
    });
    expect(ddb.commandCalls(UpdateCommand, DATA_TABLE)[0]!.args[0].input).toMatchObject({
      Key: { pk: 'PET#pet-1', sk: 'MEDIA#vi-1' },
      ExpressionAttributeValues: expect.objectContaining({ ':from': 'awaiting_upload' }),
    });
  });

  it('answers 400 unless the parts are exactly 1 to n, each once, without asking S3', async () => {
    const missing = await complete(USER_KEY, 'pet-1', 'vi-1', parts(1, 2));
    const repeated = await complete(USER_KEY, 'pet-1', 'vi-1', parts(1, 2, 2));
    const malformed = await complete(USER_KEY, 'pet-1', 'vi-1', { parts: [{ part_number: 0, etag: '' }] });

    for (const result of [missing, repeated, malformed]) expect(result.statusCode).toBe(400);
    expect(jsonBody(missing).message).toBe(
      'parts must list part_number 1 to 3, each once, with the ETag its PUT returned',
    );
    expect(s3.commandCalls(CompleteMultipartUploadCommand)).toHaveLength(0);
  });

  it('answers 400 upload_incomplete when S3 refuses a part, leaving the record awaiting its bytes', async () => {
    s3.on(CompleteMultipartUploadCommand).rejects(
      new S3ServiceException({ name: 'InvalidPart', $fault: 'client', $metadata: {}, message: 'bad etag' }),
    );

    const result = await complete(USER_KEY, 'pet-1', 'vi-1', parts(1, 2, 3));

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).code).toBe('upload_incomplete');
    expect(ddb.commandCalls(UpdateCommand, DATA_TABLE)).toHaveLength(0);
  });

  it('answers 409 upload_not_open for an item that is not awaiting an upload', async () => {
    const result = await complete(USER_KEY, 'pet-1', 'ph-1', parts(1));

    expect(result.statusCode).toBe(409);
    expect(jsonBody(result)).toMatchObject({ statusCode: 409, code: 'upload_not_open' });
  });

  it('answers 403 for another account’s pet, 404 for an unknown pet or upload', async () => {
    expect((await complete(OTHER_KEY, 'pet-1', 'vi-1', parts(1, 2, 3))).statusCode).toBe(403);
    expect((await complete(USER_KEY, 'pet-404', 'vi-1', parts(1, 2, 3))).statusCode).toBe(404);
    expect((await complete(USER_KEY, 'pet-1', 'vi-404', parts(1, 2, 3))).statusCode).toBe(404);
    expect(s3.commandCalls(CompleteMultipartUploadCommand)).toHaveLength(0);
  });
});
