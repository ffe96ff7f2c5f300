// A pet video's processing: the poster frame and the metadata-free copy it stores are served as what they are,
// inline under the video id. Real ffmpeg on a rendered clip; S3 and the table are mocked.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, expect, it } from 'vitest';
import { getDeps, setDepsForTest } from '../../../shared/deps.ts';
import { processPetVideo } from '../../../shared/domain/pets/video-processing.ts';
import { videoTools } from '../../../shared/media/video-tools.ts';
import { renderBreathingVideo } from '../../support/breathing-video.ts';
import { mockDynamoWithAccounts } from '../../support/fixtures.ts';
import { aStoredMedia, serveMedia } from './pet-fixtures.ts';

const s3 = mockClient(S3Client);
const dir = mkdtempSync(join(tmpdir(), 'pet-video-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('stores the poster and the clean copy with their types and an inline disposition naming the video', async () => {
  const ddb = mockDynamoWithAccounts([]);
  ddb.on(UpdateCommand).resolves({});
  setDepsForTest({});
  const file = join(dir, 'clip.mp4');
  await renderBreathingVideo(file, { bpm: null, seconds: 1 });
  const bytes = readFileSync(file);
  const video = aStoredMedia({
    id: 'vi-1',
    kind: 'video',
    status: 'pending',
    file: 'pets/videos/acc-user/pet-1/vi-1.mp4',
    content_type: 'video/mp4',
    bytes: bytes.length,
    sha256: null,
  });
  serveMedia(ddb, video);
  s3.on(GetObjectCommand).callsFake(() => ({ ContentLength: bytes.length, Body: Readable.from([bytes]) }));
  s3.on(PutObjectCommand).resolves({});

  await processPetVideo(getDeps(), video.file, await videoTools(getDeps().config));

  const puts = s3.commandCalls(PutObjectCommand).map((c) => c.args[0].input);
  expect(puts.map(({ Key, ContentType, ContentDisposition }) => ({ Key, ContentType, ContentDisposition }))).toEqual([
    {
      Key: 'pets/media/acc-user/pet-1/vi-1/poster.jpg',
      ContentType: 'image/jpeg',
      ContentDisposition: 'inline; filename="vi-1-poster.jpg"',
    },
    {
      Key: 'pets/media/acc-user/pet-1/vi-1/video.mp4',
      ContentType: 'video/mp4',
      ContentDisposition: 'inline; filename="vi-1.mp4"',
    },
  ]);
});
