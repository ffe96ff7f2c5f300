// The package's entry: the typed client, its helpers (uploads, paging, errors) and webhook verification. Browser-safe:
// nothing here imports a Node built-in (file paths are in `@pet-api/client/node`).
export {
  createPetApiClient,
  type PetApiClient,
  type PetApiClientOptions,
  type Schema,
} from './client.ts';
export { type CallResult, PetApiError, unwrap } from './errors.ts';
export { items, type Page, type PageRequest, pages } from './paging.ts';
export { type FetchLike, IDEMPOTENCY_KEY_HEADER, type RetryOptions, retryingFetch } from './retry.ts';
export type { components, paths, webhooks } from './schema.ts';
export {
  createPet,
  type FileInput,
  type LargeUploadOptions,
  type PetFields,
  uploadLargeMedia,
  uploadPetPhotos,
} from './uploads.ts';
export {
  type HeadersLike,
  type RawBody,
  type VerifyOptions,
  verifyStandardWebhook,
  verifyWebhook,
  type WebhookFailure,
  type WebhookVerification,
} from './webhooks.ts';
