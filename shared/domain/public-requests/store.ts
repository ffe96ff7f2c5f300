// Every DynamoDB command of the public-library requests. A request sits in its image's partition next to the image's
// pending marker; the marker is the "one pending request per image" rule (a conditional put) and, through gsi1, the
// administrators' queue.
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import {
  imageKey,
  imagePartition,
  PENDING_PUBLIC_REQUESTS_PARTITION,
  PUBLIC_REQUEST_PREFIX,
  pendingPublicRequestIndex,
  pendingPublicRequestKey,
  publicRequestIdIndex,
  publicRequestKey,
} from '../../db/keys.ts';
import { queryPendingQueue } from '../../db/pending-queue.ts';
import { type CancellationReasons, type TransactItem, transact } from '../../db/transact.ts';
import { setFields } from '../../db/update.ts';
import type { Deps } from '../../deps.ts';
import { asPublicRequest, type PublicRequestItem, REQUEST_ITEM_TYPE } from './request.ts';

type StoreDeps = Pick<Deps, 'ddb' | 'config'>;

const PENDING_MARKER_TYPE = 'ImagePublicRequestPending';

/**
 * Why a request write did not happen: the image is no longer the caller's approved, unpublished upload; the image
 * already has a pending request; the request is no longer pending.
 */
export type WriteRefusal = 'image_changed' | 'already_pending' | 'not_pending';

/** The condition the image must meet to be put forward or published: the owner's approved upload, not yet public. */
const publishableImage = (accountId: string) => ({
  ConditionExpression: 'account_id = :account AND #status = :approved AND attribute_not_exists(#public)',
  ExpressionAttributeNames: { '#status': 'status', '#public': 'public' },
  ExpressionAttributeValues: { ':account': accountId, ':approved': 'approved' },
});

/** Creates the request and the image's pending marker, on the condition that the image is publishable and none waits. */
export async function insertRequest(deps: StoreDeps, request: PublicRequestItem): Promise<WriteRefusal | undefined> {
  const table = deps.config.tableName;
  return refusalOf(
    transact(
      deps.ddb,
      [
        {
          ConditionCheck: {
            TableName: table,
            Key: imageKey(request.image_id),
            ...publishableImage(request.account_id),
          },
        },
        {
          Put: {
            TableName: table,
            Item: {
              ...pendingPublicRequestKey(request.image_id),
              ...pendingPublicRequestIndex(request.created_at, request.id),
              type: PENDING_MARKER_TYPE,
              request_id: request.id,
              image_id: request.image_id,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: table,
            Item: {
              ...publicRequestKey(request.image_id, request.id),
              ...publicRequestIdIndex(request.id),
              type: REQUEST_ITEM_TYPE,
              ...request,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
      refusals('image_changed', 'already_pending'),
    ),
  );
}

/** The id of the image's pending request, read consistently (the 409 names it). */
export async function readPendingRequestId(deps: StoreDeps, imageId: string): Promise<string | undefined> {
  const { Item } = await deps.ddb.send(
    new GetCommand({ TableName: deps.config.tableName, Key: pendingPublicRequestKey(imageId), ConsistentRead: true }),
  );
  return Item?.request_id as string | undefined;
}

export async function readRequest(
  deps: StoreDeps,
  imageId: string,
  requestId: string,
): Promise<PublicRequestItem | undefined> {
  const { Item } = await deps.ddb.send(
    new GetCommand({
      TableName: deps.config.tableName,
      Key: publicRequestKey(imageId, requestId),
      ConsistentRead: true,
    }),
  );
  return Item ? asPublicRequest(Item) : undefined;
}

/** A request by id alone (gsi1): how administrators address requests. */
export async function findRequest(deps: StoreDeps, requestId: string): Promise<PublicRequestItem | undefined> {
  const { Items } = await deps.ddb.send(
    new QueryCommand({
      TableName: deps.config.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :id',
      ExpressionAttributeValues: { ':id': publicRequestIdIndex(requestId).gsi1pk },
    }),
  );
  return Items?.[0] ? asPublicRequest(Items[0]) : undefined;
}

/** The image's newest request (ids are ULIDs: key order is creation order). */
export async function latestRequest(deps: StoreDeps, imageId: string): Promise<PublicRequestItem | undefined> {
  const { Items } = await deps.ddb.send(
    new QueryCommand({
      TableName: deps.config.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :request)',
      ExpressionAttributeValues: { ':pk': imagePartition(imageId), ':request': PUBLIC_REQUEST_PREFIX },
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  return Items?.[0] ? asPublicRequest(Items[0]) : undefined;
}

/** The first `count` pending requests of all accounts, oldest first. */
export const queryPendingRequests = (deps: StoreDeps, count: number): Promise<PublicRequestItem[]> =>
  queryPendingQueue(
    deps,
    {
      partition: PENDING_PUBLIC_REQUESTS_PARTITION,
      itemKeyOf: (marker) => publicRequestKey(String(marker.image_id), String(marker.request_id)),
      idAttribute: 'request_id',
      asItem: asPublicRequest,
    },
    count,
  );

/** The request moves out of `pending` (only from there) and the image's marker goes with it. */
export function decisionWrites(table: string, decided: PublicRequestItem): TransactItem[] {
  const { status, admin_message, tags, actioned_at, updated_at, decided_by } = decided;
  const set = setFields({ status, admin_message, tags, actioned_at, updated_at, decided_by });
  return [
    {
      Update: {
        TableName: table,
        Key: publicRequestKey(decided.image_id, decided.id),
        ...set,
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { ...set.ExpressionAttributeNames, '#status': 'status' },
        ExpressionAttributeValues: { ...set.ExpressionAttributeValues, ':pending': 'pending' },
      },
    },
    {
      Delete: {
        TableName: table,
        Key: pendingPublicRequestKey(decided.image_id),
        ConditionExpression: 'request_id = :request',
        ExpressionAttributeValues: { ':request': decided.id },
      },
    },
  ];
}

/** The image item becomes public (with the record of its publication), if it is still the owner's publishable upload. */
export const imagePublishedWrite = (
  table: string,
  image: { id: string; account_id: string; file: string },
  record: Record<string, unknown>,
): TransactItem => {
  const condition = publishableImage(image.account_id);
  return {
    Update: {
      TableName: table,
      Key: imageKey(image.id),
      UpdateExpression: 'SET #public = :record',
      // …and still the object that is being published.
      ConditionExpression: `${condition.ConditionExpression} AND #file = :file`,
      ExpressionAttributeNames: { ...condition.ExpressionAttributeNames, '#file': 'file' },
      ExpressionAttributeValues: { ...condition.ExpressionAttributeValues, ':record': record, ':file': image.file },
    },
  };
};

/** A denial: the decision writes alone. */
export async function writeDenial(deps: StoreDeps, decided: PublicRequestItem): Promise<WriteRefusal | undefined> {
  return refusalOf(
    transact(deps.ddb, decisionWrites(deps.config.tableName, decided), refusals('not_pending', 'not_pending')),
  );
}

/** Withdraws the owner's pending request: the request and its marker are deleted together, only while pending. */
export async function deletePendingRequest(deps: StoreDeps, imageId: string, requestId: string) {
  const table = deps.config.tableName;
  return refusalOf(
    transact(
      deps.ddb,
      [
        {
          Delete: {
            TableName: table,
            Key: publicRequestKey(imageId, requestId),
            ConditionExpression: '#status = :pending',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':pending': 'pending' },
          },
        },
        {
          Delete: {
            TableName: table,
            Key: pendingPublicRequestKey(imageId),
            ConditionExpression: 'request_id = :request',
            ExpressionAttributeValues: { ':request': requestId },
          },
        },
      ],
      refusals('not_pending', 'not_pending'),
    ),
  );
}

/** A refused write the store explains itself (the service turns it into a 404 or 409); it never leaves the module. */
class Refused extends Error {
  readonly refusal: WriteRefusal;
  constructor(refusal: WriteRefusal) {
    super(refusal);
    this.refusal = refusal;
  }
}

/** Names the refusal of a transaction by the first of its items whose condition failed. */
export const refusals =
  (...byItem: WriteRefusal[]) =>
  (reasons: CancellationReasons) => {
    const failed = byItem.findIndex((_, i) => reasons[i] === 'ConditionalCheckFailed');
    return failed >= 0 ? new Refused(byItem[failed]!) : undefined;
  };

export async function refusalOf(write: Promise<unknown>): Promise<WriteRefusal | undefined> {
  try {
    await write;
    return undefined;
  } catch (error) {
    if (error instanceof Refused) return error.refusal;
    throw error;
  }
}
