// The one-off migrations of `npm run migrate` on the local stack, run as the operator runs them: items written in the
// shapes of before (a pet photo without its kind's index keys; an approved and a public upload whose file is the
// original under uploads/, GPS and camera in its EXIF) are rewritten so that the kind page lists the photo and every
// URL of the uploads serves a copy without metadata; the originals are gone, and a second run changes nothing.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { imageKey, petMediaKey, publicSegmentKey } from '../../shared/db/keys.ts';
import { adminKey, api, createAccount, send } from '../support/api-client.ts';
import { aPet, aPhoto, bucketKeys, settled } from '../support/factories/pets.ts';
import { until } from '../support/polling.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const BUCKET = 'pet-api-media';
const TABLE = 'pet-api-local';
const run = promisify(execFile);
const env = inject('localEnv');
const local = { region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({ ...local, endpoint: env.AWS_ENDPOINT_URL_DYNAMODB }));
const s3 = new S3Client({ ...local, endpoint: env.AWS_ENDPOINT_URL_S3, forcePathStyle: true });
afterAll(() => {
  ddb.destroy();
  s3.destroy();
});

/** Runs `npm run migrate -- <migration>` against the local stack; answers its exit code and JSON report. */
async function migrate(migration: string) {
  const port = (url: string | undefined) => new URL(url!).port;
  const args = ['--disable-warning=ExperimentalWarning', '--import', 'tsx', 'scripts/migrate.ts', migration];
  const ports = {
    DYNAMODB_LOCAL_PORT: port(env.AWS_ENDPOINT_URL_DYNAMODB),
    AWS_LOCAL_PORT: port(env.AWS_ENDPOINT_URL_S3),
  };
  try {
    const { stdout } = await run(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...ports } });
    return { code: 0, report: JSON.parse(stdout) };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    if (!failed.stdout) throw new Error(failed.stderr);
    return { code: failed.code, report: JSON.parse(failed.stdout) };
  }
}

/** A sideways phone photo carrying its GPS position and camera. */
const phonePhoto = (background: string) =>
  sharp({ create: { width: 90, height: 60, channels: 3, background } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: 'PhoneCo', Model: 'X1' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 1234/100' },
    })
    .toBuffer();

let owner: { id: string; api_key: string };
let viewer: string;

async function anApprovedUpload(bytes: Buffer): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), 'rex.jpg');
  const created = await send('POST', '/images/upload', { headers: { 'x-api-key': owner.api_key }, body: form });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const processed = await until(
    () => api('GET', `/images/${created.body.id}`, { key: owner.api_key }),
    (r) => r.body.status === 'approved',
  );
  expect(processed.body.status).toBe('approved');
  return created.body.id as string;
}

async function madePublic(imageId: string): Promise<void> {
  const request = await api('POST', `/images/${imageId}/public-requests`, { key: owner.api_key, body: {} });
  expect(request.status, JSON.stringify(request.body)).toBe(201);
  const approved = await api('POST', `/images/public-requests/${request.body.id}/approve`, {
    key: adminKey(),
    body: { species_id: 'dog', breed_ids: ['beagle'] },
  });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
}

/**
 * Puts an upload back in the shape of before clean copies: the original (with its EXIF) under uploads/ is its file,
 * no clean copy, and, when public, its summaries and requests name the original too.
 */
async function asStoredBeforeCleanCopies(imageId: string, bytes: Buffer): Promise<string> {
  const { Item } = await ddb.send(new GetCommand({ TableName: TABLE, Key: imageKey(imageId) }));
  // A key outside the upload processor's pattern (uploads/<account>/<id>.<ext>): the local stack announces every
  // object stored under uploads/ to the processor, which deletes the original of a decided upload at once (a stage of
  // before kept its originals, their notifications long handled). The migration reads the key from the item.
  const original = `uploads/${owner.id}/before-clean-copies/${imageId}.jpg`;
  await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: original, Body: bytes, ContentType: 'image/jpeg' }));
  await s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: Item!.file }));
  await ddb.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: imageKey(imageId),
      UpdateExpression: `SET #file = :original${Item!.public ? ', #public.summary.#file = :original' : ''} REMOVE upload_file`,
      ExpressionAttributeNames: { '#file': 'file', ...(Item!.public && { '#public': 'public' }) },
      ExpressionAttributeValues: { ':original': original },
    }),
  );
  for (const [facet, segment] of Object.entries((Item!.public?.placement ?? {}) as Record<string, number>))
    await ddb.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: publicSegmentKey(facet, segment),
        UpdateExpression: 'SET images.#id.#file = :original',
        ExpressionAttributeNames: { '#id': imageId, '#file': 'file' },
        ExpressionAttributeValues: { ':original': original },
      }),
    );
  const requests = await ddb.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :requests)',
      ExpressionAttributeValues: { ':pk': imageKey(imageId).pk, ':requests': 'PUBREQ#' },
    }),
  );
  for (const request of requests.Items ?? [])
    await ddb.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: { pk: request.pk, sk: request.sk },
        UpdateExpression: 'SET #file = :original',
        ExpressionAttributeNames: { '#file': 'file' },
        ExpressionAttributeValues: { ':original': original },
      }),
    );
  return original;
}

/** The EXIF block of the photo a URL serves (undefined: none). */
async function exifServedAt(url: string) {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
  return { exif: meta.exif, width: meta.width, height: meta.height };
}

beforeAll(async () => {
  owner = await createAccount({ quota: 20 });
  viewer = (await createAccount()).api_key;
});

describe('npm run migrate on the local stack', () => {
  it('pet-media-index: a pet photo written without its kind index keys joins the kind page; a second run changes nothing', async () => {
    const pet = (await aPet(owner.api_key, { name: 'Old gallery' }, [await aPhoto(901)])).body;
    const photoId = pet.images[0].id as string;
    await settled(owner.api_key, pet.id, photoId);
    await ddb.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: petMediaKey(pet.id, photoId),
        UpdateExpression: 'REMOVE gsi1pk, gsi1sk',
      }),
    );
    const kindPage = () => api('GET', `/pets/${pet.id}/images?kind=photo`, { key: owner.api_key });
    expect((await kindPage()).body).toEqual([]);

    const first = await migrate('pet-media-index');
    const second = await migrate('pet-media-index');

    expect(first).toMatchObject({ code: 0, report: { migration: 'pet-media-index', failed: 0 } });
    expect(first.report.changed).toBeGreaterThanOrEqual(1);
    expect((await kindPage()).body.map((m: { id: string }) => m.id)).toEqual([photoId]);
    expect(second).toMatchObject({ code: 0, report: { found: 0, changed: 0, failed: 0 } });
  });

  it('clean-uploads: an approved and a public upload stored with their EXIF are served as clean copies, the originals deleted', async () => {
    const [privateBytes, publicBytes] = await Promise.all([phonePhoto('#805030'), phonePhoto('#305080')]);
    const privateId = await anApprovedUpload(privateBytes);
    const publicId = await anApprovedUpload(publicBytes);
    await madePublic(publicId);
    const originals = [
      await asStoredBeforeCleanCopies(privateId, privateBytes),
      await asStoredBeforeCleanCopies(publicId, publicBytes),
    ];
    const before = await api('GET', `/images/${publicId}`, { key: viewer });
    expect(before.body.url).toContain(originals[1]);
    expect((await exifServedAt(before.body.url)).exif).toBeDefined();

    const first = await migrate('clean-uploads');
    const second = await migrate('clean-uploads');

    expect(first).toMatchObject({
      code: 0,
      report: { migration: 'clean-uploads', outcomes: { cleaned: 1, public_cleaned: 1 }, failed: 0 },
    });
    const owned = await api('GET', `/images/${privateId}`, { key: owner.api_key });
    const shown = await api('GET', `/images/${publicId}`, { key: viewer });
    const found = await api('GET', '/images/search?breed_ids=beagle&order=DESC&limit=100', { key: viewer });
    const inSearch = found.body.find((image: { id: string }) => image.id === publicId);
    expect(inSearch, 'the public upload in search').toBeDefined();
    const request = await api('GET', `/images/${publicId}/public-requests/status`, { key: owner.api_key });
    for (const url of [owned.body.url, shown.body.url, inSearch.url, request.body.image_url]) {
      expect(url).toMatch(/\/images\/[^/]+\/[^/]+\.jpg$/);
      // Upright (the sideways 90 × 60 photo is 60 × 90) and without EXIF.
      expect(await exifServedAt(url)).toEqual({ exif: undefined, width: 60, height: 90 });
    }
    expect([shown.body.width, shown.body.height]).toEqual([60, 90]);
    expect(await bucketKeys(`uploads/${owner.id}/`)).toEqual([]);
    expect(second).toMatchObject({ code: 0, report: { found: 0, changed: 0, failed: 0 } });
  });
});
