// `Idempotency-Key` for POST and PATCH routes, on Powertools for AWS Lambda's idempotency utility with its DynamoDB
// persistence layer (the requests table). A record is keyed by route + account + key and holds the route's response
// for 24 hours; the request it answered is fingerprinted (path parameters, query, body, form fields and file hashes)
// so a different request under the same key is refused instead of being answered with someone else's response.
import { createHash } from 'node:crypto';
import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Context } from 'aws-lambda';
import { REQUESTS_TABLE } from '../db/table.ts';
import type { Deps } from '../deps.ts';
import { requestsTable } from '../domain/accounts/rate-limits.ts';
import { AppError, badRequest } from '../errors.ts';
import type { UploadedFile } from '../media/multipart.ts';
import { IDEMPOTENCY_TTL_SECONDS, MAX_IDEMPOTENCY_KEY_LENGTH } from './limits.ts';
import type { HttpResult } from './responses.ts';
import type { RouteDef } from './route-def.ts';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';

/** Visible ASCII only: no spaces, controls or anything a log line or a DynamoDB key would have to escape. */
const KEY_CHARACTERS = /^[\x21-\x7e]+$/;

/** The caller's key, or undefined without the header; 400 for an empty, over-long or non-ASCII key. */
export function idempotencyKeyOf(headers: Record<string, string | undefined>): string | undefined {
  const key = headers[IDEMPOTENCY_KEY_HEADER];
  if (key === undefined) return undefined;
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH || !KEY_CHARACTERS.test(key)) {
    throw badRequest(
      `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} visible ASCII characters (a UUID is a good key)`,
      { code: 'invalid_idempotency_key' },
    );
  }
  return key;
}

/** What makes two requests "the same request": everything the route reads, files by their SHA-256. */
export interface RequestFingerprint {
  params: unknown;
  query: unknown;
  body: unknown;
  form: { fields: unknown; files: UploadedFile[] } | undefined;
}

const fingerprintOf = (request: RequestFingerprint) => ({
  params: request.params,
  query: request.query,
  body: request.body,
  form: request.form && {
    fields: request.form.fields,
    files: request.form.files.map((file) => ({
      field: file.field,
      filename: file.filename,
      type: file.declaredType,
      sha256: createHash('sha256').update(file.bytes).digest('hex'),
    })),
  },
});

/** One persistence layer per route and client: Powertools keeps the key prefix on it. */
const stores = new WeakMap<object, Map<string, DynamoDBPersistenceLayer>>();

function storeFor(deps: Pick<Deps, 'ddb' | 'config'>, route: RouteDef): DynamoDBPersistenceLayer {
  const byRoute = stores.get(deps.ddb) ?? new Map<string, DynamoDBPersistenceLayer>();
  stores.set(deps.ddb, byRoute);
  let store = byRoute.get(route.id);
  if (!store) {
    store = new DynamoDBPersistenceLayer({
      tableName: requestsTable(deps),
      keyAttr: REQUESTS_TABLE.partitionKey,
      expiryAttr: REQUESTS_TABLE.ttlAttribute,
      // The document client is an SDK v3 client over the same base client (endpoint, credentials, middleware);
      // Powertools sends the low-level item commands through it.
      awsSdkV3Client: deps.ddb as unknown as DynamoDBClient,
    });
    byRoute.set(route.id, store);
  }
  return store;
}

const replayed = (response: HttpResult): HttpResult => ({
  ...response,
  headers: { ...response.headers, [REPLAYED_HEADER]: 'true' },
});

/**
 * Runs `respond` at most once per route, account and key within 24 hours. Stored: the route's answer, success or a
 * refusal by the domain (4xx other than 429: it performed nothing and would fail the same way). Not stored, so a retry
 * runs again: failures worth retrying (429, 5xx: `AppError.retryable`) and anything unexpected.
 *
 * - a repeat of a stored request → the stored status, headers and body, plus `Idempotent-Replayed: true`;
 * - the same key with a different request → 422 `idempotency_key_reused`;
 * - a repeat while the first is still running → 409 `idempotency_request_in_progress` with `Retry-After: 1`.
 */
export async function idempotentResponse(
  deps: Pick<Deps, 'ddb' | 'config' | 'now'>,
  route: RouteDef,
  scope: { accountId: string; key: string; request: RequestFingerprint },
  context: Context,
  respond: () => Promise<HttpResult>,
  refusal: (error: AppError) => HttpResult,
): Promise<HttpResult> {
  const config = new IdempotencyConfig({
    eventKeyJmesPath: '[account, key]',
    payloadValidationJmesPath: 'request',
    expiresAfterSeconds: IDEMPOTENCY_TTL_SECONDS,
    throwOnNoIdempotencyKey: true,
    hashFunction: 'sha256',
    // The stored value is the HttpResult `respond` returned; Powertools types it as plain JSON.
    responseHook: (response) => replayed(response as unknown as HttpResult) as never,
  });
  const once = makeIdempotent(
    async (_payload: unknown, _context: Context): Promise<HttpResult> => {
      try {
        return await respond();
      } catch (error) {
        if (error instanceof AppError && !error.retryable) return refusal(error);
        throw error;
      }
    },
    { persistenceStore: storeFor(deps, route), config, keyPrefix: route.id },
  );
  try {
    return await once(
      { account: scope.accountId, key: scope.key, request: fingerprintOf(scope.request) },
      // Powertools bounds an in-progress record by the invocation's remaining time, so a crashed attempt frees its key.
      context,
    );
  } catch (error) {
    if (error instanceof IdempotencyValidationError) {
      throw new AppError(
        422,
        'This Idempotency-Key was already used for a different request (path, query or body); use a new key for a new request',
        { code: 'idempotency_key_reused' },
      );
    }
    if (error instanceof IdempotencyAlreadyInProgressError) {
      throw new AppError(409, 'A request with this Idempotency-Key is still being processed; retry shortly', {
        code: 'idempotency_request_in_progress',
        headers: { 'retry-after': '1' },
        retryable: true,
      });
    }
    throw error;
  }
}

/** What an idempotent route passes to the pipeline (`idempotency` in its contract): reading the key and replaying. */
export const idempotency = { keyOf: idempotencyKeyOf, respond: idempotentResponse };
export type Idempotency = typeof idempotency;
