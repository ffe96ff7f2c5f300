import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/images/approve-public-request.ts';
import { jsonBody } from '../../support/http-event.ts';
import { aBreed, serveReferenceData } from '../../support/reference-fixtures.ts';
import {
  ADMIN_KEY,
  aStoredRequest,
  call,
  mockPublicRequestTable,
  NOW,
  OWNER_KEY,
  serveRequest,
  serveUpload,
} from './public-request-fixtures.ts';
import { conditionFailsOn } from '../../support/dynamo-errors.ts';
import { transactionWrites, writeTo } from '../../support/dynamo-writes.ts';
import {
  imageKey,
  pendingPublicRequestKey,
  publicFacetHeadKey,
  publicRequestKey,
  publicSegmentKey,
} from '../../../shared/db/keys.ts';

const TAGS = { species_id: 'dog', breed_ids: ['beagle'], colour_ids: ['dog-black'] };
const approve = (body: unknown = TAGS, key = ADMIN_KEY, requestId = 'req-1') =>
  call(handler, key, {
    method: 'POST',
    path: `/images/public-requests/${requestId}/approve`,
    pathParameters: { requestId },
    body,
  });
/** The facets a beagle photo in black is indexed under. */
const FACETS = [
  'all',
  'species:dog',
  'has_breeds:1',
  'species:dog|has_breeds:1',
  'has_colours:1',
  'breed:beagle',
  'group:hound',
  'colour:dog-black',
  'colour_code:blk',
];

describe('POST /images/public-requests/{requestId}/approve', () => {
  let ddb: ReturnType<typeof mockPublicRequestTable>;
  beforeEach(() => {
    ddb = mockPublicRequestTable();
    serveReferenceData(ddb, {
      breeds: [
        aBreed({ id: 'beagle', name: 'Beagle', breed_groups: ['Hound'] }),
        aBreed({ id: 'abyssinian', name: 'Abyssinian', species_id: 'cat', breed_groups: [] }),
      ],
      colours: {
        variants: [{ id: 'dog-black', species_id: 'dog', code: 'BLK', name: 'Black', kind: 'colour' }],
        breeds: {},
      },
      categories: [{ id: 1, name: 'Hats', species_ids: ['dog'] }],
    });
    serveUpload(ddb);
    serveRequest(ddb);
    ddb.on(TransactWriteCommand).resolves({});
  });

  it('approves with the tags and publishes the photo under each of its facets in the same transaction', async () => {
    const result = await approve({ ...TAGS, category_ids: [1], admin_message: 'Lovely' });

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toMatchObject({
      id: 'req-1',
      status: 'approved',
      admin_message: 'Lovely',
      tags: { species_id: 'dog', breed_ids: ['beagle'], colour_ids: ['dog-black'], category_ids: [1] },
      actioned_at: NOW.toISOString(),
      updated_at: NOW.toISOString(),
    });
    const [transaction] = ddb.commandCalls(TransactWriteCommand);
    // The request leaves pending, only from there (a refusal is the 409 below), and its marker goes.
    expect(writeTo(ddb, publicRequestKey('up-1', 'req-1'))).toMatchObject({
      update: { status: 'approved', admin_message: 'Lovely', actioned_at: NOW.toISOString() },
      conditionValues: ['pending'],
    });
    expect(writeTo(ddb, pendingPublicRequestKey('up-1')).delete).toBe(true);
    const published = writeTo(ddb, imageKey('up-1'));
    // Only while it is the owner's publishable upload, and the very copy being published.
    expect(published.conditionValues).toEqual(expect.arrayContaining(['acc-user', 'images/acc-user/up-1.jpg']));
    expect(published.update!.public).toMatchObject({
      request_id: 'req-1',
      summary: {
        id: 'up-1',
        file: 'images/acc-user/up-1.jpg',
        width: 640,
        height: 480,
        species_id: 'dog',
        breed_ids: ['beagle'],
        colour_ids: ['dog-black'],
        category_ids: [1],
        kind: 'photo',
        attribution: { author: 'Ana Ruiz', licence: 'CC-BY-4.0', source_url: null },
        created_at: NOW.toISOString(),
      },
      placement: Object.fromEntries([...FACETS, 'category:1'].map((f) => [f, 0])),
    });
    // A facet never published to gets its head and first segment, each created only if absent.
    const writes = transactionWrites(transaction!.args[0].input);
    const heads = writes.filter((w) => w.key.sk === 'HEAD');
    expect(heads.map((h) => h.key.pk).sort()).toEqual([...FACETS, 'category:1'].map((f) => `PUBIDX#${f}`).sort());
    expect(heads.every((h) => h.put && h.conditional)).toBe(true);
    expect(writes).toHaveLength(3 + 2 * (FACETS.length + 1));
  });

  it('appends to the last segment, or opens a new one when it is full, on the condition of the head’s revision', async () => {
    ddb.on(GetCommand, { Key: { pk: 'PUBIDX#all', sk: 'HEAD' } } as never).resolves({
      Item: { pk: 'PUBIDX#all', sk: 'HEAD', sizes: [50, 3], rev: 7, last_published_at: '2026-11-24T09:59:00.000Z' },
    });
    ddb.on(GetCommand, { Key: { pk: 'PUBIDX#breed:beagle', sk: 'HEAD' } } as never).resolves({
      Item: { pk: 'PUBIDX#breed:beagle', sk: 'HEAD', sizes: [50], rev: 2 },
    });

    expect((await approve()).statusCode).toBe(200);

    expect(writeTo(ddb, publicFacetHeadKey('all'))).toMatchObject({
      update: { 'sizes[1]': { add: 1 }, rev: { add: 1 }, last_published_at: NOW.toISOString() },
      conditionValues: [7],
    });
    expect(writeTo(ddb, publicSegmentKey('all', 1))).toMatchObject({
      update: { 'images.up-1': expect.objectContaining({ id: 'up-1' }) },
      conditional: true,
    });
    expect(writeTo(ddb, publicFacetHeadKey('breed:beagle'))).toMatchObject({
      update: { sizes: { append: [1] }, rev: { add: 1 } },
      conditionValues: [2],
    });
    expect(writeTo(ddb, publicSegmentKey('breed:beagle', 1))).toMatchObject({
      put: expect.objectContaining({ images: expect.objectContaining({ 'up-1': expect.anything() }) }),
      conditional: true,
    });
  });

  it('publishes after the newest photo even when the clock says otherwise (search orders by publication)', async () => {
    ddb.on(GetCommand, { Key: { pk: 'PUBIDX#all', sk: 'HEAD' } } as never).resolves({
      Item: { pk: 'PUBIDX#all', sk: 'HEAD', sizes: [1], rev: 1, last_published_at: '2026-11-24T10:00:00.000Z' },
    });

    await approve();

    const record = writeTo(ddb, imageKey('up-1')).update!.public as { summary: { created_at: string } };
    expect(record.summary.created_at).toBe('2026-11-24T10:00:00.001Z');
  });

  it('reads the heads again and rebuilds the transaction when another publication moved the index first', async () => {
    ddb
      .on(TransactWriteCommand)
      .callsFakeOnce(conditionFailsOn(publicFacetHeadKey('all')))
      .resolves({});

    expect((await approve()).statusCode).toBe(200);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });

  it('answers 409 for a decided request, whether decided before or while this approval ran', async () => {
    serveRequest(ddb, aStoredRequest({ status: 'denied' }), { status: 'denied' });
    const before = await approve();
    expect(before.statusCode).toBe(409);
    expect(jsonBody(before)).toMatchObject({ code: 'public_request_not_pending', status: 'denied' });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);

    serveRequest(ddb, aStoredRequest(), { status: 'approved' });
    ddb.on(TransactWriteCommand).callsFake(conditionFailsOn(publicRequestKey('up-1', 'req-1')));
    const racing = await approve();
    expect(racing.statusCode).toBe(409);
    expect(jsonBody(racing).status).toBe('approved');
  });

  it('answers 404 when the image was deleted, 409 when it was rejected, and publishes nothing', async () => {
    ddb.on(GetCommand, { Key: { pk: 'IMAGE#up-1', sk: 'IMAGE' } } as never).resolves({});
    const deleted = await approve();
    expect(deleted.statusCode).toBe(404);
    expect(jsonBody(deleted).code).toBe('image_deleted');

    serveUpload(ddb, { status: 'rejected' });
    expect(jsonBody(await approve()).code).toBe('image_rejected');
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('answers 409 image_not_ready and publishes nothing for an upload approved before it had a metadata-free copy', async () => {
    // Recorded before clean copies existed: its file is the original as uploaded, EXIF and all.
    serveUpload(ddb, { file: 'uploads/acc-user/up-1.jpg', upload_file: null });
    serveRequest(ddb, aStoredRequest({ file: 'uploads/acc-user/up-1.jpg' }));

    const result = await approve();

    expect(result.statusCode).toBe(409);
    expect(jsonBody(result)).toMatchObject({ code: 'image_not_ready', status: 'approved' });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('answers 400 naming every tag that does not fit the species or the reference data', async () => {
    const result = await approve({
      species_id: 'dog',
      breed_ids: ['abyssinian', 'unicorn'],
      colour_ids: ['cat-n'],
      category_ids: [99],
    });

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result)).toMatchObject({
      code: 'invalid_tags',
      message: [
        'breed_ids: abyssinian is a cat breed',
        'breed_ids: unknown breed unicorn',
        'colour_ids: unknown colour cat-n',
        'category_ids: unknown category 99',
      ],
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('names unknown tags together with the problems of the other fields, in one 400', async () => {
    const result = await approve({
      species_id: 'dog',
      breed_ids: ['unicorn'],
      colour_ids: ['cat-n'],
      category_ids: [0],
      admin_message: '',
    });

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).message).toEqual([
      'category_ids.0 must be at least 1',
      'admin_message must not be empty',
      'breed_ids: unknown breed unicorn',
      'colour_ids: unknown colour cat-n',
    ]);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('answers 400 for more than three tags of a kind or no species, 403 to a non-administrator, 404 for an unknown request', async () => {
    expect((await approve({ ...TAGS, breed_ids: ['a', 'b', 'c', 'd'] })).statusCode).toBe(400);
    expect((await approve({ breed_ids: ['beagle'] })).statusCode).toBe(400);
    expect((await approve(TAGS, OWNER_KEY)).statusCode).toBe(403);
    ddb.on(QueryCommand, { IndexName: 'gsi1' } as never).resolves({ Items: [] });
    expect((await approve(TAGS, ADMIN_KEY, 'req-unknown')).statusCode).toBe(404);
  });
});
