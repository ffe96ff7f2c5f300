// Handler-test fixtures of the image routes: image items as the table holds them (uploads of an account, catalogue
// images), the mocked table serving them by key, and a request under the user's API key.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import sharp from 'sharp';
import { accountImageIndex, imageKey } from '../../../shared/db/keys.ts';
import type { UploadItem } from '../../../shared/domain/images/uploads.ts';
import { type mockDynamoWithAccounts, USER_KEY } from '../../support/fixtures.ts';
import { type EventInput, httpEvent, lambdaContext } from '../../support/http-event.ts';

/** A sideways (EXIF orientation 6) 60 × 40 phone photo with its GPS position and camera make in EXIF. */
export const phonePhoto = () =>
  sharp({ create: { width: 60, height: 40, channels: 3, background: '#a05020' } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExif({ IFD0: { Make: 'PhoneCo' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 1234/100' } })
    .toBuffer();

/** A stored upload of `acc-user` (the user of `standardAccounts()`), approved, overridable field by field. */
export function aStoredUpload(overrides: Partial<UploadItem> & Pick<UploadItem, 'id'>): Record<string, unknown> {
  const accountId = overrides.account_id ?? 'acc-user';
  return {
    ...imageKey(overrides.id),
    ...accountImageIndex(accountId, overrides.id),
    type: 'Image',
    account_id: accountId,
    file: `images/${accountId}/${overrides.id}.jpg`,
    upload_file: `uploads/${accountId}/${overrides.id}.jpg`,
    source: 'upload',
    status: 'approved',
    sub_id: null,
    breed_ids: [],
    original_filename: `${overrides.id}.jpg`,
    mime_type: 'image/jpeg',
    size: 2048,
    width: 640,
    height: 480,
    labels: [{ name: 'Dog', confidence: 98.5 }],
    label_source: 'local',
    created_at: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

/** A stored catalogue image: everyone's, owned by no account. */
export const aStoredCatalogueImage = (id: string) => ({
  ...imageKey(id),
  type: 'Image',
  source: 'catalogue',
  id,
  file: `catalogue/${id}.jpg`,
  width: 800,
  height: 600,
  species_id: 'dog',
  breed_ids: ['beagle'],
  category_ids: [1],
  created_at: '2025-01-01T00:00:00.000Z',
});

/** The mocked table answers GetItem of these image items by their key (and nothing for other images). */
export function serveImages(ddb: ReturnType<typeof mockDynamoWithAccounts>, items: Record<string, unknown>[]): void {
  for (const item of items) ddb.on(GetCommand, { Key: imageKey(String(item.id)) } as never).resolves({ Item: item });
}

/** A request to an image route under the user's API key. */
export const asUser = (handler: (e: any, c: any) => Promise<any>, input: EventInput) =>
  handler(httpEvent({ ...input, headers: { 'x-api-key': USER_KEY, ...input.headers } }), lambdaContext);
