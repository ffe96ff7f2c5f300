// The clean-uploads migration against a mocked table and bucket: an approved upload stored before clean copies gets
// its metadata-free copy before the item (and, when public, its index summaries) names it, and loses its original
// only after that commits; a rejected one loses its original; an undecided one is left to the upload processor; an
// image changed or deleted meanwhile is never overwritten; one bad item never stops the rest.
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  ScanCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import sharp from 'sharp';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getDeps, setDepsForTest } from '../../../shared/deps.ts';
import { cleanOldUploads } from '../../../shared/domain/migrations/clean-uploads.ts';
import { conditionFailsOn } from '../../support/dynamo-errors.ts';
import { writesTo, writeTo } from '../../support/dynamo-writes.ts';
import { imageKey, publicSegmentKey } from '../../../shared/db/keys.ts';
import { aStoredUpload, phonePhoto } from '../images/image-fixtures.ts';

const ddb = mockClient(DynamoDBDocumentClient);
const s3 = mockClient(S3Client);
const original = (id: string) => `uploads/acc-user/${id}.jpg`;
const served = (id: string) => `images/acc-user/${id}.jpg`;

/** An upload as stored before clean copies: `file` is the original, no `upload_file`. */
const oldUpload = (id: string, overrides: Record<string, unknown> = {}) =>
  aStoredUpload({ id, file: original(id), upload_file: null, width: 40, height: 60, ...overrides });
const published = (id: string) => ({
  public: {
    summary: { id, file: original(id), width: 40, height: 60, species_id: 'dog' },
    placement: { all: 0, 'breed:beagle': 2 },
  },
});

/** Every write to table and bucket, in the order made. */
let writes: string[];
const record = (entry: string, result: unknown = {}) => {
  writes.push(entry);
  return result;
};

describe('bringing uploads stored before clean copies to the served shape', () => {
  let bytes: Buffer;

  beforeEach(async () => {
    bytes = await phonePhoto();
    writes = [];
    ddb.reset();
    s3.reset();
    ddb.on(QueryCommand).resolves({ Items: [] });
    ddb.on(UpdateCommand).callsFake((input) => record(`update ${input.Key.pk} ${input.Key.sk}`));
    ddb.on(TransactWriteCommand).callsFake(() => record('transaction'));
    s3.on(GetObjectCommand).callsFake(() => ({
      Body: { transformToByteArray: async () => new Uint8Array(bytes) },
    }));
    s3.on(PutObjectCommand).callsFake((input) => record(`put ${input.Key}`));
    s3.on(DeleteObjectCommand).callsFake((input) => record(`delete ${input.Key}`));
    setDepsForTest({});
  });
  const stored = (...items: Record<string, unknown>[]) => ddb.on(ScanCommand).resolves({ Items: items });

  it('writes the upright copy without metadata, repoints the requests, commits the item and its index summaries, then deletes the original', async () => {
    stored(oldUpload('up-1', published('up-1')));
    ddb.on(QueryCommand).resolves({ Items: [{ pk: 'IMAGE#up-1', sk: 'PUBREQ#req-1' }] });

    const report = await cleanOldUploads(getDeps(), { dryRun: false });

    expect(writes).toEqual([
      `put ${served('up-1')}`,
      'update IMAGE#up-1 PUBREQ#req-1',
      'transaction',
      `delete ${original('up-1')}`,
      'update IMAGE#up-1 IMAGE',
    ]);
    const put = s3.commandCalls(PutObjectCommand)[0]!.args[0].input;
    expect(put).toMatchObject({ ContentType: 'image/jpeg', ContentDisposition: 'inline; filename="up-1.jpg"' });
    const copy = await sharp(put.Body as Buffer).metadata();
    expect([copy.width, copy.height, copy.exif, copy.orientation]).toEqual([40, 60, undefined, undefined]);
    const [committed, finished] = writesTo(ddb, imageKey('up-1'));
    expect(committed).toMatchObject({
      update: {
        file: served('up-1'),
        upload_file: original('up-1'),
        original_to_delete: original('up-1'),
        width: 40,
        'public.summary.file': served('up-1'),
      },
      // Only while it is still the approved original, and its summary names the original.
      conditionValues: [original('up-1'), 'approved'],
    });
    expect(finished!.update).toEqual({ original_to_delete: { removed: true } });
    for (const segment of [publicSegmentKey('all', 0), publicSegmentKey('breed:beagle', 2)]) {
      expect(writeTo(ddb, segment)).toMatchObject({
        update: { 'images.up-1.file': served('up-1'), 'images.up-1.width': 40, 'images.up-1.height': 60 },
        conditionValues: [original('up-1')],
      });
    }
    expect(report).toMatchObject({ found: 1, changed: 1, outcomes: { public_cleaned: 1 }, failed: 0 });
  });

  it('deletes the original of a rejected upload, recording the keys as the processor does; leaves undecided ones', async () => {
    stored(oldUpload('up-2', { status: 'rejected' }), oldUpload('up-3', { status: 'pending' }));

    const report = await cleanOldUploads(getDeps(), { dryRun: false });

    expect(writes).toEqual(['update IMAGE#up-2 IMAGE', `delete ${original('up-2')}`, 'update IMAGE#up-2 IMAGE']);
    expect(writesTo(ddb, imageKey('up-2'))[0]).toMatchObject({
      update: { file: served('up-2'), upload_file: original('up-2'), original_to_delete: original('up-2') },
      conditionValues: [original('up-2'), 'rejected'],
    });
    expect(s3.commandCalls(GetObjectCommand)).toEqual([]);
    expect(report).toMatchObject({
      found: 2,
      changed: 1,
      outcomes: { rejected_original_deleted: 1, left_to_processor: 1 },
    });
  });

  it('keeps the original when the image changed meanwhile, and removes the copy when it was deleted', async () => {
    stored(oldUpload('up-4'));
    ddb.on(TransactWriteCommand).callsFake(conditionFailsOn(imageKey('up-4')));
    ddb.on(GetCommand).resolves({});

    const report = await cleanOldUploads(getDeps(), { dryRun: false });

    expect(writes).toEqual([`put ${served('up-4')}`, `delete ${served('up-4')}`]);
    expect(report).toMatchObject({ changed: 0, outcomes: { changed_meanwhile: 1 }, failed: 0 });
  });

  it('reports an upload whose original is missing or too large, or whose index segment does not hold it, and migrates the next', async () => {
    stored(oldUpload('gone'), oldUpload('huge'), oldUpload('up-5', published('up-5')), oldUpload('up-6'));
    s3.on(GetObjectCommand, { Key: original('gone') }).rejects(new NoSuchKey({ message: 'no', $metadata: {} }));
    const hugeBody = { destroy: vi.fn(), transformToByteArray: vi.fn() };
    s3.on(GetObjectCommand, { Key: original('huge') }).resolves({
      ContentLength: 51 * 1024 * 1024,
      Body: hugeBody,
    } as never);
    ddb
      .on(TransactWriteCommand)
      .callsFakeOnce(conditionFailsOn(publicSegmentKey('breed:beagle', 2)))
      .callsFake(() => record('transaction'));

    const report = await cleanOldUploads(getDeps(), { dryRun: false });

    expect(writes.filter((w) => w.startsWith('delete'))).toEqual([`delete ${original('up-6')}`]);
    expect([hugeBody.destroy.mock.calls.length, hugeBody.transformToByteArray.mock.calls.length]).toEqual([1, 0]);
    expect(report).toMatchObject({
      found: 4,
      changed: 1,
      failed: 3,
      failures: [
        { item: 'image gone', reason: `the original ${original('gone')} is missing` },
        { item: 'image huge', reason: `the original ${original('huge')} is larger than the 50 MB photo limit` },
        {
          item: 'image up-5',
          reason: `the index segment of facet breed:beagle does not hold it as ${original('up-5')}`,
        },
      ],
    });
  });

  it('finishes an upload a stopped run committed but did not delete the original of', async () => {
    stored({ ...aStoredUpload({ id: 'up-9' }), original_to_delete: original('up-9') });

    const report = await cleanOldUploads(getDeps(), { dryRun: false });

    expect(writes).toEqual([`delete ${original('up-9')}`, 'update IMAGE#up-9 IMAGE']);
    expect(writeTo(ddb, imageKey('up-9'))).toMatchObject({
      update: { original_to_delete: { removed: true } },
      conditionValues: [original('up-9')],
    });
    expect(s3.commandCalls(GetObjectCommand)).toEqual([]);
    expect(report).toMatchObject({ changed: 1, outcomes: { interrupted_original_deleted: 1 } });
  });

  it('only counts in a dry run', async () => {
    stored(oldUpload('up-7'), oldUpload('up-8', { status: 'rejected' }));

    const report = await cleanOldUploads(getDeps(), { dryRun: true });

    expect(writes).toEqual([]);
    expect(s3.commandCalls(GetObjectCommand)).toEqual([]);
    expect(report).toMatchObject({ dry_run: true, changed: 2, outcomes: { cleaned: 1, rejected_original_deleted: 1 } });
  });
});
