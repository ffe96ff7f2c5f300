// Test data for the webhooks area: a stored endpoint item as the table holds it, overridable field by field.
import { webhookKey } from '../../../shared/db/keys.ts';

export function aStoredWebhook(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const id = (overrides.id as string | undefined) ?? 'wh-1';
  const accountId = (overrides.account_id as string | undefined) ?? 'acc-user';
  return {
    ...webhookKey(accountId, id),
    type: 'Webhook',
    id,
    account_id: accountId,
    url: `https://hooks.example.com/${id}`,
    description: '',
    enabled_events: ['vote.created'],
    status: 'enabled',
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    consecutive_failures: 0,
    ...overrides,
  };
}
