// The public library's rules: an account puts one of its approved uploads forward (one pending request per image,
// 409 otherwise), may withdraw it while it waits, and administrators approve it with the tags search finds it by, or
// deny it with a message. An approval publishes the photo in the same transaction (domain/images/publishing.ts).
// Events follow from the committed writes (shared/events/from-stream.ts).
import type { Deps } from '../../deps.ts';
import { badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import type { Account } from '../accounts/account.ts';
import { getImage, readImageItem, SERVED_UPLOADS_PREFIX } from '../images/uploads.ts';
import { checkTags, loadTagVocabulary, publicRecord, publish } from '../images/publishing.ts';
import type { ApprovePublicRequest, CreatePublicRequest, PublicRequestQueueQuery } from './input.ts';
import { presentPublicRequest, type PublicRequestItem } from './request.ts';
import {
  decisionWrites,
  deletePendingRequest,
  findRequest,
  imagePublishedWrite,
  insertRequest,
  latestRequest,
  queryPendingRequests,
  readPendingRequestId,
  readRequest,
  writeDenial,
} from './store.ts';

type RequestDeps = Pick<Deps, 'ddb' | 'config' | 'now' | 'newId'>;
type ReadDeps = Pick<Deps, 'ddb' | 'config' | 'now'>;

const present = (deps: Pick<Deps, 'config'>, request: PublicRequestItem) =>
  presentPublicRequest(request, deps.config.mediaBaseUrl);

const pendingConflict = (imageId: string, requestId: string) =>
  conflict(`Image ${imageId} already has a pending public request: ${requestId}`, {
    code: 'public_request_pending',
    details: { request_id: requestId },
  });

/** Why this image cannot be put forward (or published) now, from the image item itself; undefined when it can. */
function unpublishable(image: Record<string, unknown>, imageId: string) {
  if (image.public)
    return conflict(`Image ${imageId} is already public`, {
      code: 'image_already_public',
      details: { status: 'approved' },
    });
  if (image.status === 'rejected')
    return conflict(`Image ${imageId} was rejected when it was checked and cannot be made public`, {
      code: 'image_rejected',
      details: { status: image.status },
    });
  if (image.status !== 'approved')
    return conflict(
      `Image ${imageId} is still being checked (status ${String(image.status)}): try again once it is approved`,
      {
        code: 'image_not_ready',
        details: { status: String(image.status) },
      },
    );
  return undefined;
}

/** The caller's own upload (403 for another account's or a catalogue image, 404 when there is none). */
async function ownUpload(deps: ReadDeps, account: Account, imageId: string) {
  const image = await getImage(deps, account, imageId);
  if (image.source !== 'upload' || image.account_id !== account.id)
    throw forbidden(`Image ${imageId} is not an upload of this account`);
  return image;
}

/** POST /images/{imageId}/public-requests: 201 pending; 409 naming the pending request, or saying why not now. */
export async function requestPublication(
  deps: RequestDeps,
  account: Account,
  imageId: string,
  body: CreatePublicRequest,
) {
  const image = await ownUpload(deps, account, imageId);
  const refused = unpublishable(image, imageId);
  if (refused) throw refused;
  const now = deps.now().toISOString();
  const request: PublicRequestItem = {
    id: deps.newId(),
    image_id: imageId,
    account_id: account.id,
    status: 'pending',
    request_message: body.request_message,
    author: body.author,
    licence: body.licence,
    file: String(image.file),
    admin_message: null,
    tags: null,
    actioned_at: null,
    decided_by: null,
    created_at: now,
    updated_at: now,
  };
  const refusal = await insertRequest(deps, request);
  if (!refusal) return present(deps, request);
  if (refusal === 'already_pending') {
    const pendingId = await readPendingRequestId(deps, imageId);
    // The pending request was decided or withdrawn in between: the caller may simply ask again.
    throw pendingId
      ? pendingConflict(imageId, pendingId)
      : conflict(`Image ${imageId}'s request changed meanwhile: try again`, { code: 'public_request_changed' });
  }
  const current = await readImageItem(deps, imageId, true);
  if (!current) throw notFound(`Image ${imageId} does not exist`);
  throw unpublishable(current, imageId) ?? conflict(`Image ${imageId} changed meanwhile: try again`);
}

/** GET /images/{imageId}/public-requests/status: the newest request, or `none`. */
export async function publicationStatus(deps: ReadDeps, account: Account, imageId: string) {
  await ownUpload(deps, account, imageId);
  const request = await latestRequest(deps, imageId);
  return request ? present(deps, request) : { image_id: imageId, status: 'none' as const };
}

/** DELETE /images/{imageId}/public-requests: withdraws the pending request; 404 when none is pending. */
export async function withdrawPublication(deps: ReadDeps, account: Account, imageId: string) {
  await ownUpload(deps, account, imageId);
  const pendingId = await readPendingRequestId(deps, imageId);
  const none = () => notFound(`Image ${imageId} has no pending public request`, { code: 'no_pending_public_request' });
  if (!pendingId) throw none();
  if (await deletePendingRequest(deps, imageId, pendingId)) throw none();
}

/** GET /images/public-requests: the administrators' queue, oldest first; reads no further than the page. */
export async function listPendingPublications(deps: ReadDeps, q: PublicRequestQueueQuery) {
  const requests = await queryPendingRequests(deps, (q.page + 1) * q.limit);
  return requests.slice(q.page * q.limit).map((r) => present(deps, r));
}

async function requirePending(deps: ReadDeps, requestId: string): Promise<PublicRequestItem> {
  const request = await findRequest(deps, requestId);
  if (!request) throw notFound(`Public request ${requestId} does not exist`);
  return request;
}

/** A decided request's 409, or 404 when it went with its image. */
async function notPending(deps: ReadDeps, request: PublicRequestItem) {
  const current = await readRequest(deps, request.image_id, request.id);
  if (!current) return notFound(`Public request ${request.id} does not exist`);
  return conflict(`Public request ${request.id} is already ${current.status}: only pending requests can be decided`, {
    code: 'public_request_not_pending',
    details: { request_id: request.id, status: current.status },
  });
}

const decided = (
  request: PublicRequestItem,
  admin: Account,
  at: Date,
  fields: Pick<PublicRequestItem, 'status' | 'admin_message' | 'tags'>,
): PublicRequestItem => ({
  ...request,
  ...fields,
  actioned_at: at.toISOString(),
  updated_at: at.toISOString(),
  decided_by: admin.id,
});

/**
 * POST /images/public-requests/{requestId}/approve: the request is approved, the image item becomes public and the
 * photo joins search under the administrator's tags, all in one transaction. Approving twice, or an image that was
 * deleted or rejected meanwhile, is a 409 or 404 and publishes nothing.
 */
export async function approvePublication(
  deps: ReadDeps,
  admin: Account,
  requestId: string,
  body: ApprovePublicRequest,
) {
  const request = await requirePending(deps, requestId);
  if (request.status !== 'pending') throw await notPending(deps, request);
  const { admin_message, ...tags } = body;
  const context = checkTags(tags, await loadTagVocabulary(deps));
  const image = await readImageItem(deps, request.image_id, true);
  if (!image)
    throw notFound(`Image ${request.image_id} of request ${requestId} was deleted`, { code: 'image_deleted' });
  const refused = unpublishable(image, request.image_id);
  if (refused) throw refused;
  if (typeof image.width !== 'number' || typeof image.height !== 'number')
    throw badRequest(`Image ${request.image_id} has no known size yet`, { code: 'image_not_ready' });
  // What is published is the image's clean copy, never an original (uploads approved before clean copies existed
  // have none until they are migrated: docs/decisions.md#the-public-library-public-image-requests-and-imported-photos).
  const file = String(image.file);
  if (!file.startsWith(SERVED_UPLOADS_PREFIX))
    throw conflict(`Image ${request.image_id} has no metadata-free copy to publish yet`, {
      code: 'image_not_ready',
      details: { status: String(image.status) },
    });
  const approved = decided(request, admin, deps.now(), { status: 'approved', admin_message, tags });
  const table = deps.config.tableName;
  await publish(
    deps,
    {
      id: request.image_id,
      file,
      width: image.width,
      height: image.height,
      tags,
      attribution: { author: request.author, licence: request.licence, source_url: null },
    },
    context,
    (publication) => [
      ...decisionWrites(table, approved),
      imagePublishedWrite(
        table,
        { id: request.image_id, account_id: request.account_id, file },
        publicRecord(publication, { request_id: request.id }),
      ),
    ],
    async (reasons) => {
      if (reasons[0] === 'ConditionalCheckFailed' || reasons[1] === 'ConditionalCheckFailed')
        return notPending(deps, request);
      if (reasons[2] !== 'ConditionalCheckFailed') return undefined;
      const current = await readImageItem(deps, request.image_id, true);
      return current
        ? (unpublishable(current, request.image_id) ?? conflict(`Image ${request.image_id} changed meanwhile`))
        : notFound(`Image ${request.image_id} of request ${requestId} was deleted`, { code: 'image_deleted' });
    },
  );
  return present(deps, approved);
}

/** POST /images/public-requests/{requestId}/deny: decided once, with the administrator's message. */
export async function denyPublication(deps: ReadDeps, admin: Account, requestId: string, message: string) {
  const request = await requirePending(deps, requestId);
  if (request.status !== 'pending') throw await notPending(deps, request);
  const denied = decided(request, admin, deps.now(), { status: 'denied', admin_message: message, tags: null });
  if (await writeDenial(deps, denied)) throw await notPending(deps, request);
  return present(deps, denied);
}
