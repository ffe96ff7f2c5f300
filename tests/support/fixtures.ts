import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { hashApiKey } from '../../shared/auth/api-keys.ts';
import type { Account } from '../../shared/domain/accounts/account.ts';
import { type ReviewItem, UNDECIDED } from '../../shared/domain/reviews/review.ts';

export function anAccount(overrides: Partial<Account> = {}): Account {
  return {
    id: 'acc-user',
    name: 'Test user',
    email: null,
    role: 'user',
    status: 'active',
    features: [],
    quota: 100,
    plan: 'standard',
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
 * so handler tests authenticate through the real pipeline; the request-rate window of a limited route answers as
 * its first use (tests of the limit itself answer otherwise).
 */
export function mockDynamoWithAccounts(accounts: { apiKey: string; account: Account }[]) {
  const ddb = mockClient(DynamoDBDocumentClient);
  ddb.on(GetCommand).callsFake((input: { Key: { pk: string } }) => {
    const { pk } = input.Key;
    for (const { apiKey, account } of accounts) {
      if (pk === `APIKEY#${hashApiKey(apiKey)}`) return { Item: { accountId: account.id } };
      if (pk === `ACCOUNT#${account.id}`)
        return { Item: { pk, sk: 'ACCOUNT', apiKeyHash: hashApiKey(apiKey), ...account } };
    }
    return {};
  });
  ddb.on(UpdateCommand, { TableName: process.env.REQUESTS_TABLE_NAME }).resolves({ Attributes: { used: 1 } });
  return ddb;
}

export const standardAccounts = () => [
  { apiKey: ADMIN_KEY, account: anAccount({ id: 'acc-admin', role: 'admin', name: 'Admin' }) },
  { apiKey: USER_KEY, account: anAccount() },
];

/** A pending body condition review of pet-1 (account acc-user) of a score-7 result. */
export function aStoredReview(overrides: Partial<ReviewItem> = {}): ReviewItem {
  return {
    id: 'rev-1',
    account_id: 'acc-user',
    pet_id: 'pet-1',
    analysis_id: 'an-1',
    status: 'pending',
    requested_at: '2026-11-24T09:00:00.000Z',
    analysis: {
      score: 7,
      category: 'overweight',
      confidence: 0.8,
      explanation: 'Waist barely visible',
      prompt_version: 'v1',
      image_ids: ['ph-1'],
      created_at: '2026-11-24T08:00:00.000Z',
    },
    ...UNDECIDED,
    sub_id: 'user-1',
    external_owner_id: 'owner-1',
    ...overrides,
  };
}
