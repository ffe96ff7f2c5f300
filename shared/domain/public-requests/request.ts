// A request to make an upload public (the real service's public-library request): `pending`, then `approved` by an
// administrator with the tags the photo is searched by, or `denied` with a message. The stored item, its response
// shape (also the body of the image.public_request.* events) and the decision rule.
import * as z from 'zod/mini';
import { publicMediaUrl } from '../../media/public-url.ts';
import { SPECIES } from '../reference/species.ts';

export const PUBLIC_REQUEST_STATUSES = ['pending', 'approved', 'denied'] as const;
export const REQUEST_ITEM_TYPE = 'ImagePublicRequest';

/** Licences a contributor can grant for a photo of its own (SPDX ids); CC BY 4.0 unless it says otherwise. */
export const CONTRIBUTOR_LICENCES = ['CC-BY-4.0', 'CC-BY-SA-4.0', 'CC0-1.0'] as const;
export const DEFAULT_CONTRIBUTOR_LICENCE = 'CC-BY-4.0';

const tags = z.object({
  species_id: z.enum(SPECIES),
  breed_ids: z.array(z.string()),
  colour_ids: z.array(z.string()),
  category_ids: z.array(z.number()),
});

const requestFields = {
  id: z.string(),
  image_id: z.string(),
  account_id: z.string(),
  status: z.enum(PUBLIC_REQUEST_STATUSES),
  request_message: z.nullable(z.string()),
  /** How the photo is credited once public (null: no name) and the licence the contributor grants. */
  author: z.nullable(z.string()),
  licence: z.enum(CONTRIBUTOR_LICENCES),
  admin_message: z.nullable(z.string()),
  /** The tags the administrator approved the photo with; null until approved. */
  tags: z.nullable(tags),
  actioned_at: z.nullable(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
};

export const publicRequestResource = z.object({
  ...requestFields,
  /** The image as the administrator sees it, to tag it. */
  image_url: z.string(),
});
export type PresentedPublicRequest = z.infer<typeof publicRequestResource>;

export const publicRequestItemSchema = z.object({
  ...requestFields,
  /** The object key of the image (the URL is built from it when presenting). */
  file: z.string(),
  /** The administrator who decided. */
  decided_by: z.nullable(z.string()),
});
export type PublicRequestItem = z.infer<typeof publicRequestItemSchema>;

export const asPublicRequest = (item: Record<string, unknown>): PublicRequestItem =>
  publicRequestItemSchema.parse(item);

/** The response (and event) shape: the item without the object key and the deciding administrator. */
export function presentPublicRequest(request: PublicRequestItem, mediaBaseUrl: string): PresentedPublicRequest {
  const { file, decided_by: _admin, ...fields } = request;
  return { ...fields, image_url: publicMediaUrl(mediaBaseUrl, file) };
}
