import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DeleteCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import sharp from 'sharp';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/images/upload-image.ts';
import { MAX_IMAGE_BREEDS } from '../../../shared/domain/images/uploads.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import { mockDynamoWithAccounts, standardAccounts, USER_KEY } from '../../support/fixtures.ts';
import { jsonBody, lambdaContext } from '../../support/http-event.ts';
import { BOUNDARY, formEvent, multipart } from '../../support/multipart.ts';
import { conditionFailsOn } from '../../support/dynamo-errors.ts';
import { writesTo, writeTo } from '../../support/dynamo-writes.ts';
import { accountStatsKey, imageKey, uploadQuotaKey } from '../../../shared/db/keys.ts';
import { pngClaiming } from '../../support/forged-png.ts';

const s3 = mockClient(S3Client);
const upload = (body: string) => handler(formEvent('/v1/images/upload', USER_KEY, body), lambdaContext);

describe('POST /v1/images/upload', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  beforeEach(() => {
    ddb = mockDynamoWithAccounts(standardAccounts());
    ddb.on(TransactWriteCommand).resolves({});
    ddb.on(UpdateCommand).resolves({});
    s3.reset();
    s3.on(PutObjectCommand).resolves({});
    setDepsForTest({ newId: () => 'img-1', now: () => new Date('2026-11-22T10:00:00Z') });
  });

  it('stores a real photo under a key of ours, counts it against the quota and answers 201', async () => {
    const png = await sharp({ create: { width: 30, height: 20, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();

    const result = await upload(
      multipart([
        { name: 'file', filename: '../../evil.gif', content: png },
        { name: 'sub_id', content: 'u-1' },
      ]),
    );

    expect(result.statusCode).toBe(201);
    expect(jsonBody(result)).toMatchObject({
      id: 'img-1',
      status: 'pending',
      mime_type: 'image/png',
      width: 30,
      height: 20,
      sub_id: 'u-1',
      original_filename: 'evil.gif',
    });
    expect(s3.commandCalls(PutObjectCommand)[0]!.args[0].input).toMatchObject({
      Key: 'uploads/acc-user/img-1.png',
      ContentType: 'image/png',
    });
    // Only within the month's quota (exact under parallel uploads: tests/integration/uploads.test.ts).
    expect(writeTo(ddb, uploadQuotaKey('acc-user', '2026-11'))).toMatchObject({
      update: { used: { add: 1 } },
      conditional: true,
    });
  });

  it('answers 415 for bytes that are no photo, whatever the name, and writes nothing', async () => {
    const result = await upload(multipart([{ name: 'file', filename: 'cat.jpg', content: 'just text' }]));

    expect(jsonBody(result)).toMatchObject({
      statusCode: 415,
      code: 'unsupported_format',
      accepted: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
  });

  it('answers 400 when the monthly quota is used up, before storing anything', async () => {
    ddb.on(TransactWriteCommand).callsFake(conditionFailsOn(uploadQuotaKey('acc-user', '2026-11')));
    const gif = await sharp({ create: { width: 5, height: 5, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();

    const result = await upload(multipart([{ name: 'file', filename: 'a.gif', content: gif }]));

    expect(jsonBody(result)).toMatchObject({ statusCode: 400, code: 'upload_quota_exceeded' });
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
  });

  it('takes the upload back exactly when S3 refuses the object: record, quota use and image count in one transaction', async () => {
    s3.on(PutObjectCommand).rejects(new Error('S3 down'));
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
      .png()
      .toBuffer();

    const result = await upload(multipart([{ name: 'file', filename: 'a.png', content: png }]));

    expect(result.statusCode).toBe(500);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(2);
    expect(writesTo(ddb, imageKey('img-1'))).toMatchObject([
      { put: { status: 'awaiting_upload', expiresAt: expect.any(Number) } },
      // Only while still awaiting its object.
      { delete: true, conditional: true },
    ]);
    const changes = (key: Record<string, string>) => writesTo(ddb, key).map((write) => write.update);
    expect(changes(uploadQuotaKey('acc-user', '2026-11'))).toEqual([{ used: { add: 1 } }, { used: { add: -1 } }]);
    expect(changes(accountStatsKey('acc-user'))).toEqual([{ images: { add: 1 } }, { images: { add: -1 } }]);
    expect(ddb.commandCalls(DeleteCommand)).toHaveLength(0);
  });

  it('answers 400 for a form without a file, an unknown field or a broken body', async () => {
    expect(jsonBody(await upload(multipart([{ name: 'sub_id', content: 'u' }]))).message).toEqual(['file is required']);
    expect(
      jsonBody(
        await upload(
          multipart([
            { name: 'file', filename: 'a.png', content: 'x' },
            { name: 'colour', content: 'red' },
          ]),
        ),
      ).statusCode,
    ).toBe(400);
    expect(
      jsonBody(
        await upload(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"`).toString('base64')),
      ).code,
    ).toBe('invalid_multipart');
  });

  describe('bounded input', () => {
    const smallPng = () =>
      sharp({ create: { width: 2, height: 2, channels: 3, background: '#fff' } })
        .png()
        .toBuffer();

    it('refuses a 10,000 × 10,000 PNG from its header, before anything decodes it, and writes nothing', async () => {
      const result = await upload(
        multipart([{ name: 'file', filename: 'bomb.png', content: await pngClaiming(10_000, 10_000) }]),
      );

      expect(result.statusCode).toBe(400);
      expect(jsonBody(result)).toMatchObject({ code: 'image_dimensions_too_large' });
      expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
      expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
    });

    it('refuses one side longer than the bound even when the pixel count is small', async () => {
      const result = await upload(
        multipart([{ name: 'file', filename: 'strip.png', content: await pngClaiming(60_000, 1) }]),
      );
      expect(jsonBody(result)).toMatchObject({ statusCode: 400, code: 'image_dimensions_too_large' });
    });

    it(`refuses more than ${MAX_IMAGE_BREEDS} breed ids, and 5,000 of them, naming the limit`, async () => {
      const file = { name: 'file', filename: 'a.png', content: await smallPng() };
      const ids = (n: number) => Array.from({ length: n }, (_, i) => `b${i}`).join(',');

      const eleven = jsonBody(
        await upload(multipart([file, { name: 'breed_ids', content: ids(MAX_IMAGE_BREEDS + 1) }])),
      );
      expect(eleven).toMatchObject({ statusCode: 400, message: ['breed_ids must contain at most 10 items'] });
      const many = jsonBody(await upload(multipart([file, { name: 'breed_ids', content: ids(5_000) }])));
      expect(many.statusCode).toBe(400);
      expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    });
  });
});
