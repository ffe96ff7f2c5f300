import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { hashApiKey } from '../../shared/auth/api-keys.ts';
import type { Account } from '../../shared/domain/accounts/account.ts';

export function anAccount(overrides: Partial<Account> = {}): Account {
  return {
    id: 'acc-user',
    name: 'Test user',
    email: null,
    role: 'user',
    status: 'active',
    features: [],
    quota: 100,
    disabled_capabilities: [],
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    ...overrides,
  };
}

export const ADMIN_KEY = 'live_admin-test-key';
export const USER_KEY = 'live_user-test-key';

/**
 * A mocked document client whose GetItem answers the API-key and account lookups of the given accounts,
 * so handler tests authenticate through the real pipeline.
 */
export function mockDynamoWithAccounts(accounts: { apiKey: string; account: Account }[]) {
  const ddb = mockClient(DynamoDBDocumentClient);
  ddb.on(GetCommand).callsFake((input: { Key: { pk: string } }) => {
    const { pk } = input.Key;
    for (const { apiKey, account } of accounts) {
      if (pk === `APIKEY#${hashApiKey(apiKey)}`) return { Item: { accountId: account.id } };
      if (pk === `ACCOUNT#${account.id}`) return { Item: { pk, sk: 'ACCOUNT', ...account } };
    }
    return {};
  });
  return ddb;
}

export const standardAccounts = () => [
  { apiKey: ADMIN_KEY, account: anAccount({ id: 'acc-admin', role: 'admin', name: 'Admin' }) },
  { apiKey: USER_KEY, account: anAccount() },
];
