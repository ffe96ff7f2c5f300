// The upload processor's paths against mocked DynamoDB and S3: what it writes, what it deletes, and that nothing of
// an upload stays behind when the upload was deleted or decided meanwhile.
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import sharp from 'sharp';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeLabeller } from '../../../shared/adapters/labeller/fake.ts';
import { getDeps, setDepsForTest } from '../../../shared/deps.ts';
import { processUploadedObject } from '../../../shared/domain/images/processing.ts';
import { mockDynamoWithAccounts } from '../../support/fixtures.ts';
import { conditionalCheckFailed } from '../../support/dynamo-errors.ts';
import { allWrites } from '../../support/dynamo-writes.ts';
import { aStoredUpload, phonePhoto } from './image-fixtures.ts';

const s3 = mockClient(S3Client);
const BUCKET = 'media';
const ORIGINAL = 'uploads/acc-user/up-1.jpg';
const SERVED = 'images/acc-user/up-1.jpg';
const labels = [{ name: 'Dog', confidence: 0.97 }];

const process = () => processUploadedObject(getDeps(), fakeLabeller(labels), BUCKET, ORIGINAL);
const deletedKeys = () => s3.commandCalls(DeleteObjectCommand).map((c) => c.args[0].input.Key);

/** The fields the verdict set (the update conditioned on the image still being `pending`), by name. */
const verdictFields = (ddb: ReturnType<typeof mockDynamoWithAccounts>) =>
  allWrites(ddb).find((write) => write.update && write.conditionValues[0] === 'pending')!.update!;

describe('processing an uploaded photo', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  let bytes: Buffer;
  const stored = (overrides: Record<string, unknown> = {}) =>
    aStoredUpload({ id: 'up-1', status: 'pending', size: bytes.length, width: 40, height: 60, ...overrides });

  beforeEach(async () => {
    bytes = await phonePhoto();
    ddb = mockDynamoWithAccounts([]);
    ddb.on(GetCommand, { Key: { pk: 'IMAGE#up-1', sk: 'IMAGE' } } as never).resolves({ Item: stored() });
    ddb.on(UpdateCommand).resolves({});
    s3.reset();
    s3.on(GetObjectCommand).callsFake(() => ({ Body: { transformToByteArray: async () => new Uint8Array(bytes) } }));
    s3.on(PutObjectCommand).resolves({});
    s3.on(DeleteObjectCommand).resolves({});
    setDepsForTest({});
  });

  it('writes the upright copy without metadata, approves with its upright size, deletes the original and labels the copy', async () => {
    const labeller = vi.fn(fakeLabeller(labels));

    await processUploadedObject(getDeps(), labeller, BUCKET, ORIGINAL);

    const [put] = s3.commandCalls(PutObjectCommand).map((c) => c.args[0].input);
    expect(put).toMatchObject({
      Bucket: BUCKET,
      Key: SERVED,
      ContentType: 'image/jpeg',
      ContentDisposition: 'inline; filename="up-1.jpg"',
    });
    const copy = await sharp(put!.Body as Buffer).metadata();
    expect([copy.width, copy.height, copy.exif, copy.orientation]).toEqual([40, 60, undefined, undefined]);
    expect(verdictFields(ddb)).toEqual({
      status: 'approved',
      width: 40,
      height: 60,
      file: SERVED,
      upload_file: ORIGINAL,
    });
    expect(deletedKeys()).toEqual([ORIGINAL]);
    expect(labeller).toHaveBeenCalledWith(BUCKET, SERVED);
  });

  it('rejects a file that does not decode, writes no copy and deletes the original', async () => {
    bytes = bytes.subarray(0, -40);
    ddb.on(GetCommand, { Key: { pk: 'IMAGE#up-1', sk: 'IMAGE' } } as never).resolves({ Item: stored() });

    await process();

    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
    expect(verdictFields(ddb)).toMatchObject({
      status: 'rejected',
      rejection_reason: expect.stringMatching(/^the photo could not be decoded: /),
    });
    expect(deletedKeys()).toEqual([ORIGINAL]);
  });

  it('removes the copy and the original when the image was deleted while it was being processed', async () => {
    ddb
      .on(GetCommand, { Key: { pk: 'IMAGE#up-1', sk: 'IMAGE' } } as never)
      .resolvesOnce({ Item: stored() })
      .resolves({});
    ddb.on(UpdateCommand).rejects(conditionalCheckFailed());

    await process();

    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(1);
    expect(deletedKeys()).toEqual([SERVED, ORIGINAL]);
  });

  it('keeps the copy another delivery approved, and only drops the original of a decided upload', async () => {
    ddb
      .on(GetCommand, { Key: { pk: 'IMAGE#up-1', sk: 'IMAGE' } } as never)
      .resolvesOnce({ Item: stored() })
      .resolves({ Item: stored({ status: 'approved' }) });
    ddb.on(UpdateCommand).rejects(conditionalCheckFailed());

    await process();
    expect(deletedKeys()).toEqual([]);

    // The notification again, after the verdict: nothing is read or written, the original (if any) goes.
    s3.resetHistory();
    await process();
    expect(s3.commandCalls(GetObjectCommand)).toHaveLength(0);
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
    expect(deletedKeys()).toEqual([ORIGINAL]);
  });

  it('labels an approved photo on the next delivery when the run that approved it failed to label it', async () => {
    const failing = vi.fn().mockRejectedValueOnce(new Error('labeller unavailable'));
    const labeller = vi.fn(fakeLabeller(labels));
    await expect(processUploadedObject(getDeps(), failing, BUCKET, ORIGINAL)).rejects.toThrow('labeller unavailable');
    ddb
      .on(GetCommand, { Key: { pk: 'IMAGE#up-1', sk: 'IMAGE' } } as never)
      .resolves({ Item: stored({ status: 'approved', file: SERVED, labels: null }) });
    s3.resetHistory();

    await processUploadedObject(getDeps(), labeller, BUCKET, ORIGINAL);

    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
    expect(labeller).toHaveBeenCalledWith(BUCKET, SERVED);
    const written = allWrites(ddb).map((write) => write.update?.labels);
    expect(written).toContainEqual(labels);
  });

  it('does not label again a photo that has its labels', async () => {
    ddb
      .on(GetCommand, { Key: { pk: 'IMAGE#up-1', sk: 'IMAGE' } } as never)
      .resolves({ Item: stored({ status: 'approved', file: SERVED, labels, label_source: 'model' }) });
    const labeller = vi.fn(fakeLabeller(labels));

    await processUploadedObject(getDeps(), labeller, BUCKET, ORIGINAL);

    expect(labeller).not.toHaveBeenCalled();
    expect(deletedKeys()).toEqual([ORIGINAL]);
  });

  it('deletes an object no upload record names', async () => {
    ddb.on(GetCommand, { Key: { pk: 'IMAGE#up-1', sk: 'IMAGE' } } as never).resolves({});

    await process();

    expect(s3.commandCalls(GetObjectCommand)).toHaveLength(0);
    expect(deletedKeys()).toEqual([ORIGINAL]);
  });
});
