// `Idempotency-Key` on the routes that honour it (shared/http/guards.ts `isIdempotent`), on Powertools for AWS Lambda's
// idempotency utility with its DynamoDB persistence layer (the requests table). A record is keyed by route + account +
// key and holds the route's answer for 24 hours; the request it answered is fingerprinted (path parameters, query,
// body, form fields and file hashes) so a different request under the same key is refused instead of being answered
// with someone else's response.
import { createHash } from 'node:crypto';
import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { IdempotencyRecord } from '@aws-lambda-powertools/idempotency/persistence';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { isConditionFailure } from '../db/errors.ts';
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

type IdempotencyDeps = Pick<Deps, 'ddb' | 'config' | 'log'>;

/** Powertools' in-progress status and its default attribute names (`id` and `expiration`: the table's key and TTL). */
const IN_PROGRESS = 'INPROGRESS';
const STATUS = { '#status': 'status', '#until': 'in_progress_expiration' };

/** A write of the claimed record, conditioned on the claim being the one this request made. */
interface ClaimCondition {
  TableName: string;
  Key: Record<string, string>;
  ConditionExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
}

/**
 * Powertools' DynamoDB persistence layer, except that the answer is stored, or the claim given back, only while the
 * claim is still this request's. Powertools' own update and delete are unconditional: a request that outlived its
 * deadline (`in_progress_expiration`, after which another request may claim the key) would overwrite the answer of the
 * request that took over, or delete its claim. A later claim always sets a later deadline, so the deadline names the
 * claim; one instance per request remembers its own. The route's work is done either way, so a failed settle is
 * logged and the caller still gets the route's own answer (Powertools would turn it into an error).
 */
class ClaimBoundRecords extends DynamoDBPersistenceLayer {
  readonly #deps: IdempotencyDeps;
  #claimedUntil: number | undefined;

  constructor(deps: IdempotencyDeps) {
    super({
      tableName: requestsTable(deps),
      keyAttr: REQUESTS_TABLE.partitionKey,
      expiryAttr: REQUESTS_TABLE.ttlAttribute,
      // The document client is an SDK v3 client over the same base client; Powertools sends item commands through it.
      awsSdkV3Client: deps.ddb as unknown as DynamoDBClient,
    });
    this.#deps = deps;
  }

  protected override async _putRecord(record: IdempotencyRecord): Promise<void> {
    await super._putRecord(record);
    this.#claimedUntil = record.inProgressExpiryTimestamp;
  }

  protected override _updateRecord(record: IdempotencyRecord): Promise<void> {
    return this.#whileClaimed('storing the answer of', record, (claim) =>
      this.#deps.ddb.send(
        new UpdateCommand({
          ...claim,
          UpdateExpression: 'SET #status = :completed, expiration = :expiration, #data = :data',
          ExpressionAttributeNames: { ...claim.ExpressionAttributeNames, '#data': 'data' },
          ExpressionAttributeValues: {
            ...claim.ExpressionAttributeValues,
            ':completed': 'COMPLETED',
            ':expiration': record.expiryTimestamp,
            ':data': record.responseData,
          },
        }),
      ),
    );
  }

  protected override _deleteRecord(record: IdempotencyRecord): Promise<void> {
    return this.#whileClaimed('giving back', record, (claim) => this.#deps.ddb.send(new DeleteCommand(claim)));
  }

  async #whileClaimed(
    what: string,
    record: IdempotencyRecord,
    write: (claim: ClaimCondition) => Promise<unknown>,
  ): Promise<void> {
    try {
      await write({
        TableName: requestsTable(this.#deps),
        Key: { [REQUESTS_TABLE.partitionKey]: record.idempotencyKey },
        ConditionExpression: '#status = :inProgress AND #until = :until',
        ExpressionAttributeNames: STATUS,
        ExpressionAttributeValues: { ':inProgress': IN_PROGRESS, ':until': this.#claimedUntil },
      });
    } catch (error) {
      const why = isConditionFailure(error) ? 'its claim lapsed and was taken' : 'the write failed';
      this.#deps.log.error(`idempotency: ${what} ${record.idempotencyKey} skipped: ${why}`, { error });
    }
  }
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
 *
 * Powertools reads the clock itself (`Date.now()`), not `deps.now`.
 */
export async function idempotentResponse(
  deps: IdempotencyDeps,
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
    { persistenceStore: new ClaimBoundRecords(deps), config, keyPrefix: route.id },
  );
  try {
    // Powertools bounds the claim by the invocation's remaining time, so a crashed attempt frees its key.
    return await once({ account: scope.accountId, key: scope.key, request: fingerprintOf(scope.request) }, context);
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
