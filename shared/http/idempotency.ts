// `Idempotency-Key` for POST and PATCH routes, kept in the requests table: a record per route + account + key holds the
// route's answer for 24 hours; the request it answered is fingerprinted (path parameters, query, body, form fields and
// file hashes) so a different request under the same key is refused instead of being answered with someone else's
// response. The record layout is that of the Powertools idempotency utility's DynamoDB persistence layer (2.35), which
// this replaced to keep its 15 KB out of the write routes' bundles, so records it wrote keep working
// (docs/decisions.md, "Idempotency of our own, on Powertools' record layout").
import { createHash } from 'node:crypto';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { isConditionFailure, itemAtConditionFailure } from '../db/errors.ts';
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

/**
 * A record, as Powertools' DynamoDB persistence layer writes it: `id` (the table's key) and `expiration` (its TTL, epoch
 * seconds), `status` (INPROGRESS, then COMPLETED), `in_progress_expiration` (epoch milliseconds: the claiming
 * invocation's deadline, after which the claim lapses), `validation` (the request's hash) and `data` (the answer).
 */
const IN_PROGRESS = 'INPROGRESS';
const COMPLETED = 'COMPLETED';
/** `status` and `data` are reserved words in expressions. */
const STATUS = { '#status': 'status' };

/** Powertools' canonical JSON: object keys sorted case-insensitively at every depth (its `deepSort`), then hashed. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (Object.prototype.toString.call(value) !== '[object Object]') return value;
  const object = value as Record<string, unknown>;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(object).sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)))
    sorted[key] = sortedKeys(object[key]);
  return sorted;
}
const hashOf = (value: unknown) =>
  createHash('sha256')
    .update(JSON.stringify(sortedKeys(value)))
    .digest('base64');

/** The record's key: the route id, then the hash of [account, key] (Powertools' key prefix and key hash). */
export const idempotencyRecordId = (route: Pick<RouteDef, 'id'>, accountId: string, key: string) =>
  `${route.id}#${hashOf([accountId, key])}`;

/** The record's `validation`: the hash of the request's fingerprint. */
export const requestHash = (request: RequestFingerprint) => hashOf(fingerprintOf(request));

const expirationAt = (now: Date) => Math.round(now.getTime() / 1000 + IDEMPOTENCY_TTL_SECONDS);

type IdempotencyDeps = Pick<Deps, 'ddb' | 'config' | 'now' | 'log'>;

/**
 * Claims the key with one conditional PutItem: free when there is no record, when it expired, or when an earlier
 * claim lapsed (its invocation crashed or timed out). Otherwise the record as it stands, returned by the failed write.
 */
async function claim(deps: IdempotencyDeps, id: string, validation: string, context: Context) {
  const now = deps.now();
  const until = now.getTime() + context.getRemainingTimeInMillis();
  try {
    await deps.ddb.send(
      new PutCommand({
        TableName: requestsTable(deps),
        Item: { id, expiration: expirationAt(now), status: IN_PROGRESS, in_progress_expiration: until, validation },
        ConditionExpression:
          'attribute_not_exists(id) OR expiration < :now OR (#status = :inProgress AND in_progress_expiration < :nowMs)',
        ExpressionAttributeNames: STATUS,
        ExpressionAttributeValues: {
          ':now': now.getTime() / 1000,
          ':nowMs': now.getTime(),
          ':inProgress': IN_PROGRESS,
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { until };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const held = itemAtConditionFailure(error);
    if (!held) throw new Error(`The claim of ${id} failed without returning the record that holds it`);
    return { held };
  }
}

/** The answer to a request whose key another request holds: its stored answer replayed, 422 or 409. */
function answerOf(held: Record<string, unknown>, validation: string): HttpResult {
  if (held.validation !== validation) {
    throw new AppError(
      422,
      'This Idempotency-Key was already used for a different request (path, query or body); use a new key for a new request',
      { code: 'idempotency_key_reused' },
    );
  }
  if (held.status !== COMPLETED) {
    throw new AppError(409, 'A request with this Idempotency-Key is still being processed; retry shortly', {
      code: 'idempotency_request_in_progress',
      headers: { 'retry-after': '1' },
      retryable: true,
    });
  }
  const stored = held.data as HttpResult;
  return { ...stored, headers: { ...stored.headers, [REPLAYED_HEADER]: 'true' } };
}

/**
 * Stores the answer on the claimed record, or deletes the record so a retry runs again: both only while the claim is
 * still ours (`in_progress_expiration` is the claim's own deadline, and a later claim always sets a later one). The
 * route's work is done either way, so a failure here is logged and the caller still gets the route's own answer.
 */
async function settle(deps: IdempotencyDeps, id: string, until: number, answer: HttpResult | undefined) {
  const whileOurs = {
    TableName: requestsTable(deps),
    Key: { id },
    ConditionExpression: '#status = :inProgress AND in_progress_expiration = :until',
  };
  const values = { ':inProgress': IN_PROGRESS, ':until': until };
  try {
    await deps.ddb.send(
      answer
        ? new UpdateCommand({
            ...whileOurs,
            UpdateExpression: 'SET #status = :completed, expiration = :expiration, #data = :data',
            ExpressionAttributeNames: { ...STATUS, '#data': 'data' },
            ExpressionAttributeValues: {
              ...values,
              ':completed': COMPLETED,
              ':expiration': expirationAt(deps.now()),
              ':data': answer,
            },
          })
        : new DeleteCommand({ ...whileOurs, ExpressionAttributeNames: STATUS, ExpressionAttributeValues: values }),
    );
  } catch (error) {
    const what = answer ? 'storing the answer of' : 'giving back';
    const why = isConditionFailure(error) ? 'its claim lapsed and was taken' : 'the write failed';
    deps.log.error(`idempotency: ${what} ${id} skipped: ${why}`, { error });
  }
}

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
  deps: IdempotencyDeps,
  route: RouteDef,
  scope: { accountId: string; key: string; request: RequestFingerprint },
  context: Context,
  respond: () => Promise<HttpResult>,
  refusal: (error: AppError) => HttpResult,
): Promise<HttpResult> {
  const id = idempotencyRecordId(route, scope.accountId, scope.key);
  const validation = requestHash(scope.request);
  const claimed = await claim(deps, id, validation, context);
  if (claimed.held) return answerOf(claimed.held, validation);
  let answer: HttpResult;
  try {
    answer = await respond();
  } catch (error) {
    if (error instanceof AppError && !error.retryable) answer = refusal(error);
    else {
      await settle(deps, id, claimed.until, undefined);
      throw error;
    }
  }
  await settle(deps, id, claimed.until, answer);
  return answer;
}

/** What an idempotent route passes to the pipeline (`idempotency` in its contract): reading the key and replaying. */
export const idempotency = { keyOf: idempotencyKeyOf, respond: idempotentResponse };
export type Idempotency = typeof idempotency;
