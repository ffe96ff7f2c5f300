// A pet photo's processing: the served copies it stores; the upload routes' header check decides on bytes sent by the
// two-step upload; when its notification comes again, a photo made ready by a run that failed to label it is labelled
// then, one with labels is left alone.
import { createHash } from 'node:crypto';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import sharp from 'sharp';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeLabeller } from '../../../shared/adapters/labeller/fake.ts';
import { getDeps, setDepsForTest } from '../../../shared/deps.ts';
import { processPetPhoto } from '../../../shared/domain/pets/photo-processing.ts';
import { mockDynamoWithAccounts } from '../../support/fixtures.ts';
import { pngClaiming } from '../../support/forged-png.ts';
import { aStoredMedia, serveMedia } from './pet-fixtures.ts';
import { allWrites } from '../../support/dynamo-writes.ts';

const s3 = mockClient(S3Client);
const labels = [{ name: 'Dog', confidence: 0.97 }];
const labelsWritten = (ddb: ReturnType<typeof mockDynamoWithAccounts>) =>
  allWrites(ddb).filter((write) => write.update?.labels);

/** A table that accepts every update, an empty bucket mock, fresh dependencies. */
function freshMocks() {
  const ddb = mockDynamoWithAccounts([]);
  ddb.on(UpdateCommand).resolves({});
  s3.reset();
  setDepsForTest({});
  return ddb;
}

describe('processing a pet photo that arrived', () => {
  it('stores the display copy and the thumbnail as what they are, served inline under the photo id', async () => {
    const ddb = freshMocks();
    const bytes = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#a86' } })
      .jpeg()
      .toBuffer();
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const photo = aStoredMedia({ status: 'pending', bytes: bytes.length, sha256 });
    serveMedia(ddb, photo);
    s3.on(GetObjectCommand).resolves({
      ContentLength: bytes.length,
      Body: { transformToByteArray: async () => new Uint8Array(bytes) },
    } as never);
    s3.on(PutObjectCommand).resolves({});

    await processPetPhoto(getDeps(), photo.file, fakeLabeller(labels));

    const puts = s3.commandCalls(PutObjectCommand).map((c) => c.args[0].input);
    expect(puts.map(({ Key, ContentType, ContentDisposition }) => ({ Key, ContentType, ContentDisposition }))).toEqual([
      { Key: photo.display_key, ContentType: 'image/jpeg', ContentDisposition: 'inline; filename="ph-1.jpg"' },
      {
        Key: photo.thumbnail_key,
        ContentType: 'image/jpeg',
        ContentDisposition: 'inline; filename="ph-1-thumbnail.jpg"',
      },
    ]);
  });
});

describe('processing a pet photo that is ready already', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  beforeEach(() => {
    ddb = mockDynamoWithAccounts([]);
    ddb.on(UpdateCommand).resolves({});
    s3.reset();
    setDepsForTest({});
  });

  it('labels its display copy when the run that made it ready ended before its labels were written', async () => {
    const photo = aStoredMedia({ labels: null });
    serveMedia(ddb, photo);
    const labeller = vi.fn(fakeLabeller(labels));

    await processPetPhoto(getDeps(), photo.file, labeller);

    expect(labeller).toHaveBeenCalledWith(getDeps().config.mediaBucket, photo.display_key);
    expect(labelsWritten(ddb)).toHaveLength(1);
    expect(s3.calls()).toHaveLength(0);
  });

  it('leaves a photo with labels as it is', async () => {
    const photo = aStoredMedia({ labels, label_source: 'model' });
    serveMedia(ddb, photo);
    const labeller = vi.fn(fakeLabeller(labels));

    await processPetPhoto(getDeps(), photo.file, labeller);

    expect(labeller).not.toHaveBeenCalled();
    expect(labelsWritten(ddb)).toHaveLength(0);
  });
});

describe('processing a pet photo sent by the two-step upload', () => {
  it('rejects a PNG claiming 30,000 × 30,000 pixels by the same header check as the upload routes, decoding nothing', async () => {
    const ddb = freshMocks();
    const bomb = await pngClaiming(30_000, 30_000);
    const photo = aStoredMedia({
      status: 'pending',
      file: 'pets/photos/acc-user/pet-1/ph-1.png',
      display_key: null,
      bytes: null,
      sha256: null,
    });
    serveMedia(ddb, photo);
    s3.on(GetObjectCommand).resolves({
      ContentLength: bomb.length,
      Body: { transformToByteArray: async () => new Uint8Array(bomb) },
    } as never);

    await processPetPhoto(getDeps(), photo.file, vi.fn(fakeLabeller(labels)));

    const verdict = ddb.commandCalls(UpdateCommand).at(-1)!.args[0].input.ExpressionAttributeValues!;
    expect(Object.values(verdict)).toEqual(
      expect.arrayContaining(['rejected', expect.stringMatching(/^The image is 30000 × 30000 pixels/)]),
    );
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
  });
});
