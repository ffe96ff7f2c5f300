import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/pets/upload-pet-video.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import { mockDynamoWithAccounts, USER_KEY } from '../../support/fixtures.ts';
import { jsonBody, lambdaContext } from '../../support/http-event.ts';
import { type FormPart, formEvent, multipart } from '../../support/multipart.ts';
import { aStoredPet, OTHER_KEY, ownerAndStranger, servePet, DATA_TABLE } from './pet-fixtures.ts';
import { conditionFailsOn } from '../../support/dynamo-errors.ts';
import { writesTo, writeTo } from '../../support/dynamo-writes.ts';
import { petKey, petMediaKey, uploadQuotaKey } from '../../../shared/db/keys.ts';

const s3 = mockClient(S3Client);
/** The start of an MP4 file: an ftyp box with the isom brand, then some payload. */
const mp4 = Buffer.concat([
  Buffer.from([0, 0, 0, 24]),
  Buffer.from('ftypisom'),
  Buffer.from([0, 0, 2, 0]),
  Buffer.from('isommp41'),
  Buffer.alloc(1000, 7),
]);
const upload = (key: string, petId: string, parts: FormPart[]) =>
  handler(formEvent(`/v1/pets/${petId}/videos`, key, multipart(parts), { petId }), lambdaContext);
const video = (content: Buffer | string, filename = 'walk.mp4') => [{ name: 'file', filename, content }];
describe('POST /v1/pets/{petId}/videos', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  beforeEach(() => {
    ddb = mockDynamoWithAccounts(ownerAndStranger());
    servePet(ddb, aStoredPet());
    ddb.on(TransactWriteCommand).resolves({});
    ddb.on(UpdateCommand, DATA_TABLE).resolves({});
    s3.reset();
    s3.on(PutObjectCommand).resolves({});
    setDepsForTest({ newId: () => 'vi-1', now: () => new Date('2026-11-22T10:00:00Z') });
  });

  it('records the video with its quota and count, stores the bytes privately and answers the pending record', async () => {
    const result = await upload(USER_KEY, 'pet-1', video(mp4));

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toMatchObject({
      id: 'vi-1',
      pet_id: 'pet-1',
      kind: 'video',
      status: 'pending',
      content_type: 'video/mp4',
      bytes: mp4.length,
      url: null,
      duration_s: null,
      codec: null,
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
    const [recorded] = writesTo(ddb, petMediaKey('pet-1', 'vi-1'));
    expect(recorded).toMatchObject({
      put: { kind: 'video', sub_id: 'user-1', external_owner_id: 'owner-1' },
      conditional: true,
    });
    expect(writeTo(ddb, uploadQuotaKey('acc-user', '2026-11')).update).toEqual({ used: { add: 1 } });
    expect(writeTo(ddb, petKey('pet-1')).update).toEqual({ video_count: { add: 1 } });
    expect(s3.commandCalls(PutObjectCommand)[0]!.args[0].input).toMatchObject({
      Key: 'pets/videos/acc-user/pet-1/vi-1.mp4',
      ContentType: 'video/mp4',
    });
  });

  it('judges the format by the bytes: a PNG named .mp4 is 415 naming the accepted types, nothing written', async () => {
    const png = Buffer.concat([Buffer.from([0x89]), Buffer.from('PNG\r\n\x1a\n'), Buffer.alloc(100)]);

    const result = await upload(USER_KEY, 'pet-1', video(png));

    expect(result.statusCode).toBe(415);
    expect(jsonBody(result)).toMatchObject({
      statusCode: 415,
      code: 'unsupported_format',
      accepted: expect.arrayContaining(['video/mp4', 'video/quicktime', 'video/webm']),
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
  });

  it('answers 400 without a file, 413 pointing to the two-step upload above the direct limit', async () => {
    const none = await upload(USER_KEY, 'pet-1', []);
    const tooLarge = await upload(USER_KEY, 'pet-1', video(Buffer.concat([mp4, Buffer.alloc(4 * 1024 * 1024)])));

    expect(none.statusCode).toBe(400);
    expect(jsonBody(none).message).toEqual(['file is required (one video)']);
    expect(tooLarge.statusCode).toBe(413);
    expect(jsonBody(tooLarge)).toMatchObject({
      code: 'use_two_step_upload',
      message: expect.stringContaining('/v1/pets/{petId}/uploads'),
    });
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
  });

  it('answers 400 when the monthly quota is used up, storing nothing', async () => {
    ddb.on(TransactWriteCommand).callsFake(conditionFailsOn(uploadQuotaKey('acc-user', '2026-11')));

    const result = await upload(USER_KEY, 'pet-1', video(mp4));

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).code).toBe('upload_quota_exceeded');
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
  });

  it('answers 403 for another account’s pet and 404 for an unknown one, storing nothing', async () => {
    expect((await upload(OTHER_KEY, 'pet-1', video(mp4))).statusCode).toBe(403);
    expect((await upload(USER_KEY, 'pet-404', video(mp4))).statusCode).toBe(404);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
  });
});
