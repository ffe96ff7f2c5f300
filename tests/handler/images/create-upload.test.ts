import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../../../functions/images/create-upload.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import { ABANDONED_UPLOAD_SECONDS, MAX_PHOTO_BYTES } from '../../../shared/domain/images/uploads.ts';
import { anAccount, mockDynamoWithAccounts, standardAccounts, USER_KEY } from '../../support/fixtures.ts';
import { jsonBody } from '../../support/http-event.ts';
import { asUser } from './image-fixtures.ts';
import { conditionFailsOn } from '../../support/dynamo-errors.ts';
import { writeTo } from '../../support/dynamo-writes.ts';
import { accountStatsKey, imageKey, uploadQuotaKey } from '../../../shared/db/keys.ts';

const NOW = new Date('2026-11-22T10:00:00Z');
const createUpload = (body: unknown) => asUser(handler, { method: 'POST', path: '/v1/images/uploads', body });
const aPhotoSlot = { content_type: 'image/webp', size: 12_000_000, filename: 'holiday/dog.webp', sub_id: 'user-7' };

describe('POST /v1/images/uploads', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  beforeEach(() => {
    // Presigning needs credentials, never a network call.
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDTEST');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'test-secret');
    ddb = mockDynamoWithAccounts(standardAccounts());
    ddb.on(TransactWriteCommand).resolves({});
    setDepsForTest({ newId: () => 'img-1', now: () => NOW });
  });
  afterEach(() => vi.unstubAllEnvs());

  it('answers 201 with the upload awaiting its object and a presigned PUT bound to the declared type and size', async () => {
    const result = await createUpload({ ...aPhotoSlot, breed_ids: ['beagle'] });

    expect(result.statusCode).toBe(201);
    const body = jsonBody(result);
    expect(body).toMatchObject({
      id: 'img-1',
      // Where the clean copy will be: the original the URL below receives is never served.
      url: expect.stringMatching(/\/images\/acc-user\/img-1\.webp$/),
      status: 'awaiting_upload',
      sub_id: 'user-7',
      breed_ids: ['beagle'],
      original_filename: 'holiday/dog.webp',
      mime_type: 'image/webp',
      size: 12_000_000,
      width: null,
      height: null,
      created_at: NOW.toISOString(),
    });
    expect(body.upload).toMatchObject({
      method: 'PUT',
      headers: { 'content-type': 'image/webp', 'content-length': '12000000' },
      expires_at: '2026-11-22T10:15:00.000Z',
    });
    const url = new URL(body.upload.url);
    expect(url.pathname).toMatch(/\/uploads\/acc-user\/img-1\.webp$/);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
  });

  it('counts the slot against the monthly quota and the image count, and records it to expire if never used', async () => {
    await createUpload(aPhotoSlot);

    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
    // Only within the month's quota (exact under parallel uploads: tests/integration/uploads.test.ts).
    expect(writeTo(ddb, uploadQuotaKey('acc-user', '2026-11'))).toMatchObject({
      update: { used: { add: 1 } },
      conditional: true,
    });
    expect(writeTo(ddb, imageKey('img-1'))).toMatchObject({
      put: {
        gsi1pk: 'ACCOUNT#acc-user#IMAGES',
        status: 'awaiting_upload',
        file: 'images/acc-user/img-1.webp',
        upload_file: 'uploads/acc-user/img-1.webp',
        expiresAt: NOW.getTime() / 1000 + ABANDONED_UPLOAD_SECONDS,
      },
      conditional: true,
    });
    expect(writeTo(ddb, accountStatsKey('acc-user')).update).toEqual({ images: { add: 1 } });
  });

  it('answers 400 upload_quota_exceeded when the month’s quota is used up, with no URL', async () => {
    ddb.on(TransactWriteCommand).callsFake(conditionFailsOn(uploadQuotaKey('acc-user', '2026-11')));

    const result = await createUpload(aPhotoSlot);

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result)).toMatchObject({ code: 'upload_quota_exceeded' });
    expect(jsonBody(result)).not.toHaveProperty('upload');
  });

  it('answers 403 when image uploads are switched off for the account', async () => {
    mockDynamoWithAccounts([{ apiKey: USER_KEY, account: anAccount({ disabled_capabilities: ['image_uploads'] }) }]);

    const result = await createUpload(aPhotoSlot);

    expect(result.statusCode).toBe(403);
    expect(jsonBody(result)).toMatchObject({ code: 'capability_disabled' });
  });

  it.each([
    [{ content_type: 'x'.repeat(256) }, 'content_type must be at most 255 characters long'],
    [{ size: 0 }, 'size must be at least 1'],
    [{ size: MAX_PHOTO_BYTES + 1 }, `size must be at most ${MAX_PHOTO_BYTES}`],
    [{ size: 10.5 }, 'size must be an int'],
    [{ filename: 'x'.repeat(256) }, 'filename must be at most 255 characters long'],
    [{ breed_ids: Array.from({ length: 11 }, (_, i) => `b${i}`) }, 'breed_ids must contain at most 10 items'],
    [
      { sub_id: 'jane@example.com' },
      'sub_id must be an opaque id, not an e-mail address (sub_id must not carry personal data)',
    ],
    [{ colour: 'red' }, "unknown field 'colour'"],
  ])('rejects %o with 400 naming the problem, and reserves nothing', async (change, message) => {
    const result = await createUpload({ ...aPhotoSlot, ...change });

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).message).toEqual([message]);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it.each(['image/tiff', 'image/heic', 'video/mp4', 'text/plain'])(
    'answers 415 unsupported_format naming the accepted types for content_type %s, as the pets upload does, and reserves nothing',
    async (content_type) => {
      const result = await createUpload({ ...aPhotoSlot, content_type });

      expect(result.statusCode).toBe(415);
      expect(jsonBody(result)).toMatchObject({
        statusCode: 415,
        code: 'unsupported_format',
        message: 'content_type must be one of image/jpeg, image/png, image/gif, image/webp for a photo',
        accepted: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
      });
      expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    },
  );

  it('rejects a body that is not JSON with 400', async () => {
    const result = await asUser(handler, {
      method: 'POST',
      path: '/v1/images/uploads',
      headers: { 'content-type': 'application/json' },
      body: '{"content_type": ',
    });

    expect(jsonBody(result)).toMatchObject({
      statusCode: 400,
      code: 'invalid_body',
      message: 'Request body is not valid JSON',
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});
