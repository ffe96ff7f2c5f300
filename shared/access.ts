// What a function may touch: the one vocabulary in which the route table (functions/routes.ts) and the consumer table
// (events/consumers.ts) declare access. infra/constructs/grants.ts turns a declaration into its IAM grants and the
// environment that goes with them, for routes and consumers alike, so a right is spelled and granted in one way.

/** DynamoDB actions a function may use on a table (never Scan). */
export type TableAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'ConditionCheckItem'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'BatchWriteItem';

/**
 * Rights on the objects under one media-bucket prefix: read = GetObject (and signing GET URLs), write = PutObject
 * (and signing PUT URLs), multipart = giving up and listing the parts of a multipart upload, delete = DeleteObject,
 * list = listing keys under the prefix.
 */
export type ObjectRight = 'read' | 'write' | 'multipart' | 'delete' | 'list';

/** Media-bucket prefixes (each ending in `/`) and the rights on each. */
export type MediaAccess = Readonly<Record<`${string}/`, readonly ObjectRight[]>>;

export interface Access<Q extends string = string> {
  /**
   * The single table: `read` (GetItem, BatchGetItem, Query, ConditionCheckItem) or `write` (those plus PutItem,
   * UpdateItem, DeleteItem, BatchWriteItem) on the table and its indexes, or exactly the listed actions on the table
   * alone.
   */
  table?: 'read' | 'write' | readonly TableAction[];
  /**
   * The requests table (idempotency records, rate-limit windows): read = the caller's rate windows. Routes never
   * declare write: the pipeline's guards imply it (shared/http/guards.ts `accessWithGuards`).
   */
  requests?: 'read' | 'write';
  media?: MediaAccess;
  /** Queues the function sends to (their URLs arrive in its environment). */
  sendsTo?: readonly Q[];
  /** Reads the bearer-token signing secret (Secrets Manager deployed). */
  tokenSecret?: 'read';
  /** Webhook signing secrets: routes encrypt new ones, the deliverer decrypts (KMS deployed, a local key locally). */
  webhookSecrets?: 'encrypt' | 'decrypt';
  /** Sends owner e-mails (SES deployed, outbox files locally). */
  ownerMail?: 'send';
  /** Labels photos (Rekognition deployed; no model locally). */
  labels?: 'detect';
  /** Asks the stage's vision model (Bedrock InvokeModel on that one model deployed). */
  visionModel?: 'invoke';
  /** Draws portraits with the stage's image model (Bedrock InvokeModel on that one model deployed). */
  imageModel?: 'invoke';
}

/** Routes that take photo uploads: originals under uploads/, and deleting an image removes its served copy. */
export const UPLOAD_MEDIA = { 'uploads/': ['write', 'delete'], 'images/': ['delete'] } as const satisfies MediaAccess;

/** Routes that show pet media, by presigned GET URLs (which carry the signing role's rights). */
export const PET_MEDIA_READ = { 'pets/': ['read'] } as const satisfies MediaAccess;

/** Routes that add or delete pet media: presigned PUTs (in parts for large files), and a pet's prefixes listed to go. */
export const PET_MEDIA_WRITE = {
  'pets/': ['read', 'write', 'multipart', 'delete', 'list'],
} as const satisfies MediaAccess;
