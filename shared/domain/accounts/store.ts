import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { TTL_ATTRIBUTE } from '../../db/table.ts';
import { transact } from '../../db/transact.ts';
import { conflict, forbidden } from '../../errors.ts';
import { queryAll } from '../../db/query-all.ts';
import type { Deps } from '../../deps.ts';
import { whenConditionFails } from '../../db/errors.ts';
import { setFields } from '../../db/update.ts';
import { accountSchema, type Account } from './account.ts';
import { ACCOUNT_LIST_PARTITION, accountKey, accountListKey, apiKeyKey } from '../../db/keys.ts';

type Db = Pick<Deps, 'ddb' | 'config'>;

const toAccount = (item: Record<string, unknown>): Account => accountSchema.parse(item);

export async function getAccount(db: Db, accountId: string): Promise<Account | undefined> {
  const { Item } = await db.ddb.send(new GetCommand({ TableName: db.config.tableName, Key: accountKey(accountId) }));
  return Item ? toAccount(Item) : undefined;
}

/** What an API-key lookup item says: whose key it is and, once rotated or revoked, when it stops (ISO time). */
export interface ApiKeyRecord {
  accountId: string;
  expiresAt: string | undefined;
}

export async function getApiKey(db: Db, keyHash: string): Promise<ApiKeyRecord | undefined> {
  const { Item } = await db.ddb.send(new GetCommand({ TableName: db.config.tableName, Key: apiKeyKey(keyHash) }));
  if (typeof Item?.accountId !== 'string') return undefined;
  return { accountId: Item.accountId, expiresAt: typeof Item.expires_at === 'string' ? Item.expires_at : undefined };
}

export async function getAccountIdByKeyHash(db: Db, keyHash: string): Promise<string | undefined> {
  return (await getApiKey(db, keyHash))?.accountId;
}

/** Writes the account and its key-hash lookup item together, or neither. */
export async function putNewAccount(db: Db, account: Account, keyHash: string): Promise<void> {
  await db.ddb.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: db.config.tableName,
            Item: {
              ...accountKey(account.id),
              ...accountListKey(account.created_at, account.id),
              type: 'Account',
              apiKeyHash: keyHash,
              ...account,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: db.config.tableName,
            Item: { ...apiKeyKey(keyHash), type: 'ApiKey', accountId: account.id, created_at: account.created_at },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
    }),
  );
}

export type AccountChanges = Partial<
  Pick<Account, 'name' | 'email' | 'role' | 'status' | 'features' | 'quota' | 'plan' | 'disabled_capabilities'>
>;

/** Applies the given fields; undefined when the account does not exist. */
export async function updateAccountFields(
  db: Db,
  accountId: string,
  changes: AccountChanges,
  updatedAt: string,
): Promise<Account | undefined> {
  return whenConditionFails(
    db.ddb
      .send(
        new UpdateCommand({
          TableName: db.config.tableName,
          Key: accountKey(accountId),
          ...setFields({ ...changes, updated_at: updatedAt }),
          ConditionExpression: 'attribute_exists(pk)',
          ReturnValues: 'ALL_NEW',
        }),
      )
      .then(({ Attributes }) => (Attributes ? toAccount(Attributes) : undefined)),
    () => undefined,
  );
}

/** Every account, oldest first (operator CLI; not on a request path of integrators). */
export async function listAccounts(db: Db): Promise<Account[]> {
  const items = await queryAll(db.ddb, {
    TableName: db.config.tableName,
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :p',
    ExpressionAttributeValues: { ':p': ACCOUNT_LIST_PARTITION },
  });
  return items.map(toAccount);
}

/** A retired key answers 401 `api_key_expired` for 30 days after it stopped; then its item expires (TTL): 403 as unknown. */
const RETIRED_KEY_KEPT_SECONDS = 30 * 24 * 3600;

/**
 * Points the account at a new key hash and retires the current key at `oldKeyEndsAt` (now for a revocation): the new
 * lookup item in, the old one marked with its end, all or nothing. At most one retired key stays valid: one still in
 * its grace period from an earlier rotation ends now. With `presentedKeyHash` (an account rotating its own key) only
 * the current key may rotate: a retiring key gets 403. A concurrent rotation fails the condition: 409.
 * False when the account does not exist.
 */
export async function rotateApiKeyHash(
  db: Db,
  accountId: string,
  change: { newKeyHash: string; now: Date; oldKeyEndsAt: Date; presentedKeyHash?: string | undefined },
): Promise<boolean> {
  const { newKeyHash, now, oldKeyEndsAt } = change;
  const { Item } = await db.ddb.send(
    new GetCommand({ TableName: db.config.tableName, Key: accountKey(accountId), ConsistentRead: true }),
  );
  if (!Item) return false;
  const oldKeyHash = String(Item.apiKeyHash);
  if (change.presentedKeyHash !== undefined && change.presentedKeyHash !== oldKeyHash)
    throw forbidden('This key was rotated and is retiring: only the current key can rotate it', {
      code: 'api_key_retiring',
    });
  const retiringKeyHash =
    typeof Item.previousKeyHash === 'string' && String(Item.previousKeyExpiresAt) > now.toISOString()
      ? Item.previousKeyHash
      : undefined;
  const retire = (keyHash: string, endsAt: Date) => ({
    Update: {
      TableName: db.config.tableName,
      Key: apiKeyKey(keyHash),
      UpdateExpression: 'SET expires_at = :ends, #ttl = :ttl',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
      ExpressionAttributeValues: {
        ':ends': endsAt.toISOString(),
        ':ttl': Math.ceil(endsAt.getTime() / 1000) + RETIRED_KEY_KEPT_SECONDS,
      },
    },
  });
  await transact(
    db.ddb,
    [
      {
        Update: {
          TableName: db.config.tableName,
          Key: accountKey(accountId),
          UpdateExpression:
            'SET apiKeyHash = :new, previousKeyHash = :old, previousKeyExpiresAt = :ends, updated_at = :now',
          ConditionExpression: 'apiKeyHash = :old',
          ExpressionAttributeValues: {
            ':new': newKeyHash,
            ':old': oldKeyHash,
            ':ends': oldKeyEndsAt.toISOString(),
            ':now': now.toISOString(),
          },
        },
      },
      retire(oldKeyHash, oldKeyEndsAt),
      ...(retiringKeyHash ? [retire(retiringKeyHash, now)] : []),
      {
        Put: {
          TableName: db.config.tableName,
          Item: { ...apiKeyKey(newKeyHash), type: 'ApiKey', accountId, created_at: now.toISOString() },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ],
    () =>
      conflict('The key was rotated by another request at the same moment; try again', {
        code: 'key_rotation_conflict',
      }),
  );
  return true;
}
