// The one spelling of a public media URL: the stage's media origin (CloudFront, or the local bucket) and the object
// key. Catalogue images, approved uploads and breed reference images are served this way; pet media never is (it
// is private and gets short-lived presigned URLs, shared/domain/media/objects.ts).

/** Object keys are the server's own (ids and fixed prefixes); each path segment is still encoded, never trusted. */
export const publicMediaUrl = (mediaBaseUrl: string, objectKey: string) =>
  `${mediaBaseUrl}/${objectKey.split('/').map(encodeURIComponent).join('/')}`;
