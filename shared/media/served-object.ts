// How a media object tells a browser what it is: its exact type and an inline disposition that names it. Written
// as the object's metadata whenever the service stores media, so every GET of it answers both, from S3 (pet media,
// presigned) and through the CDN (catalogue and public photos), which adds `X-Content-Type-Options: nosniff`
// (infra/constructs/media.ts; locally scripts/local/media-front.ts).
import { PHOTO_FORMATS, type PhotoFormat } from './format.ts';

/** Object metadata as S3's PutObject and CreateMultipartUpload take it. */
export interface ServedObject {
  ContentType: string;
  ContentDisposition: string;
}

/** Anything but these becomes `_`: the quoted name then needs no escaping and no RFC 5987 form in any browser. */
const UNQUOTABLE = /[^A-Za-z0-9._-]/g;
/** Names are ids with an extension; a longer one is cut, never passed on. */
const MAX_NAME_LENGTH = 100;

/** The metadata of an object served inline as `fileName` (`<id>.<ext>`). */
export function servedObject(fileName: string, contentType: string): ServedObject {
  const name = fileName.replace(UNQUOTABLE, '_').slice(0, MAX_NAME_LENGTH);
  return { ContentType: contentType, ContentDisposition: `inline; filename="${name}"` };
}

/** A photo stored as `<id>.<ext>` in its format. */
export const servedPhoto = (id: string, format: PhotoFormat) =>
  servedObject(`${id}${PHOTO_FORMATS[format].extension}`, PHOTO_FORMATS[format].mimeType);
