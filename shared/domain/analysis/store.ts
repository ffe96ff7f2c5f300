// Every DynamoDB command of the analysis area. Results live in the pet's partition (deleting the pet deletes them),
// one item per request signature, with a TTL. The same item is the lock: a request claims the signature with a
// conditional put (`running`), so concurrent identical requests make one provider call and the others wait for it.
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ignoreConditionFailure, isConditionFailure } from '../../db/errors.ts';
import { analysisLatestKey, analysisResultKey } from '../../db/keys.ts';
import { TTL_ATTRIBUTE } from '../../db/table.ts';
import type { Deps } from '../../deps.ts';
import { transact } from '../../db/transact.ts';
import { notFound } from '../../errors.ts';
import { type PetRecord, recordWrites } from '../records/record.ts';

type StoreDeps = Pick<Deps, 'ddb' | 'config' | 'now'>;

/** What is kept of one analysis: the validated model answer and how it was obtained. */
export interface StoredAnalysis {
  id: string;
  pet_id: string;
  type: string;
  prompt_version: string;
  model: { provider: string; id: string };
  image_ids: string[];
  lang: string;
  season: string | null;
  country: string | null;
  /** Result ids of earlier analyses the prompt built on (health tips). */
  based_on: string[];
  answer: unknown;
  created_at: string;
  /** The result's durable record (the pet's record); absent on results cached before records were kept. */
  record_id?: string | undefined;
}

const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

type SlotState = { state: 'done'; result: StoredAnalysis } | { state: 'running' } | { state: 'free' };

export async function readSlot(deps: StoreDeps, petId: string, type: string, signature: string): Promise<SlotState> {
  const { Item } = await deps.ddb.send(
    new GetCommand({
      TableName: deps.config.tableName,
      Key: analysisResultKey(petId, type, signature),
      ConsistentRead: true,
    }),
  );
  const now = deps.now();
  if (!Item || Number(Item[TTL_ATTRIBUTE]) <= epochSeconds(now)) return { state: 'free' };
  if (Item.status === 'done') return { state: 'done', result: Item.result as StoredAnalysis };
  return Number(Item.lock_until) > now.getTime() ? { state: 'running' } : { state: 'free' };
}

/** Takes the signature for one provider call; false when another request holds it (or already finished it). */
export async function claimSlot(
  deps: StoreDeps,
  petId: string,
  type: string,
  signature: string,
  owner: string,
  lockMs: number,
): Promise<boolean> {
  const now = deps.now();
  try {
    await deps.ddb.send(
      new PutCommand({
        TableName: deps.config.tableName,
        Item: {
          ...analysisResultKey(petId, type, signature),
          type: 'AnalysisResult',
          status: 'running',
          owner,
          lock_until: now.getTime() + lockMs,
          [TTL_ATTRIBUTE]: epochSeconds(now) + Math.ceil(lockMs / 1000) + 60,
        },
        // Free: no item, an expired one (TTL deletes lazily), or a running one whose owner died past its lock.
        ConditionExpression:
          'attribute_not_exists(pk) OR #ttl <= :nowSeconds OR (#status = :running AND lock_until < :nowMs)',
        ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE, '#status': 'status' },
        ExpressionAttributeValues: { ':nowSeconds': epochSeconds(now), ':nowMs': now.getTime(), ':running': 'running' },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Stores the result in the claimed slot, as the latest result of its type and version, and as a record of the pet,
 * together. The cache items expire (ANALYSIS_RESULT_TTL_SECONDS, 30 days by default: a new photo changes the signature
 * long before); the record stays until the pet goes.
 */
export async function completeSlot(
  deps: StoreDeps,
  signature: string,
  owner: string,
  result: StoredAnalysis,
  record: PetRecord,
): Promise<void> {
  const table = deps.config.tableName;
  const expiresAt = epochSeconds(deps.now()) + deps.config.analysisResultTtlSeconds;
  await transact(
    deps.ddb,
    [
      {
        Put: {
          TableName: table,
          Item: {
            ...analysisResultKey(result.pet_id, result.type, signature),
            type: 'AnalysisResult',
            status: 'done',
            result,
            [TTL_ATTRIBUTE]: expiresAt,
          },
          ConditionExpression: '#owner = :owner',
          ExpressionAttributeNames: { '#owner': 'owner' },
          ExpressionAttributeValues: { ':owner': owner },
        },
      },
      {
        Put: {
          TableName: table,
          Item: {
            ...analysisLatestKey(result.pet_id, result.type, result.prompt_version),
            type: 'AnalysisLatest',
            result,
            [TTL_ATTRIBUTE]: expiresAt,
          },
        },
      },
      ...recordWrites(table, record),
    ],
    // The pet was deleted while the model answered: nothing is kept.
    (reasons) =>
      reasons[3] === 'ConditionalCheckFailed' ? notFound(`Pet ${result.pet_id} does not exist`) : undefined,
  );
}

/** Gives the slot back after a failure: nothing is cached, and a waiting request may try itself. */
export async function releaseSlot(deps: StoreDeps, petId: string, type: string, signature: string, owner: string) {
  await ignoreConditionFailure(
    deps.ddb.send(
      new DeleteCommand({
        TableName: deps.config.tableName,
        Key: analysisResultKey(petId, type, signature),
        ConditionExpression: '#owner = :owner AND #status = :running',
        ExpressionAttributeNames: { '#owner': 'owner', '#status': 'status' },
        ExpressionAttributeValues: { ':owner': owner, ':running': 'running' },
      }),
    ),
  );
}

/** The newest stored result of a type and prompt version, whatever photos or language it was for. */
export async function readLatest(
  deps: StoreDeps,
  petId: string,
  type: string,
  promptVersion: string,
): Promise<StoredAnalysis | undefined> {
  const { Item } = await deps.ddb.send(
    new GetCommand({ TableName: deps.config.tableName, Key: analysisLatestKey(petId, type, promptVersion) }),
  );
  if (!Item || Number(Item[TTL_ATTRIBUTE]) <= epochSeconds(deps.now())) return undefined;
  return Item.result as StoredAnalysis;
}
