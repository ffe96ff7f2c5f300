import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
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

export async function getAccountIdByKeyHash(db: Db, keyHash: string): Promise<string | undefined> {
  const { Item } = await db.ddb.send(new GetCommand({ TableName: db.config.tableName, Key: apiKeyKey(keyHash) }));
  return typeof Item?.accountId === 'string' ? Item.accountId : undefined;
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

/**
 * Points the account at a new key hash: the new lookup item in, the old one out, both or neither (a concurrent
 * rotation fails the condition). False when the account does not exist.
 */
export async function replaceApiKeyHash(
  db: Db,
  accountId: string,
  newKeyHash: string,
  updatedAt: string,
): Promise<boolean> {
  const { Item } = await db.ddb.send(
    new GetCommand({ TableName: db.config.tableName, Key: accountKey(accountId), ConsistentRead: true }),
  );
  if (!Item) return false;
  const oldKeyHash = String(Item.apiKeyHash);
  await db.ddb.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: db.config.tableName,
            Key: accountKey(accountId),
            UpdateExpression: 'SET apiKeyHash = :new, updated_at = :now',
            ConditionExpression: 'apiKeyHash = :old',
            ExpressionAttributeValues: { ':new': newKeyHash, ':old': oldKeyHash, ':now': updatedAt },
          },
        },
        { Delete: { TableName: db.config.tableName, Key: apiKeyKey(oldKeyHash) } },
        {
          Put: {
            TableName: db.config.tableName,
            Item: { ...apiKeyKey(newKeyHash), type: 'ApiKey', accountId, created_at: updatedAt },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
    }),
  );
  return true;
}
