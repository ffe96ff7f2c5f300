// An in-memory delivery store for tests of the delivery process: one endpoint item and its attempt log, kept by the
// same rules as attempts.ts's conditional writes (tests/support/delivery-store-contract.ts holds both to them).
import {
  type LoggedAttempt,
  type DeliveryStore,
  disableReason,
  type FailureOutcome,
  slotLease,
  type SettledGroup,
  type SlotGrant,
} from '../../shared/domain/webhooks/attempts.ts';
import { expiresAt } from '../../shared/domain/webhooks/stored-events.ts';
import {
  DISABLE_AFTER_CONSECUTIVE_FAILURES,
  reachedDisableThreshold,
  webhookItemSchema,
} from '../../shared/domain/webhooks/webhook.ts';

type Item = Record<string, unknown>;

export interface InMemoryDeliveryStore extends DeliveryStore {
  /** Stores an endpoint item as the table holds it (`attempt_slots` included), replacing one of the same id. */
  put(item: Item): void;
  remove(accountId: string, webhookId: string): void;
  /** The endpoint item as stored (tests read and change it in place), undefined when there is none. */
  get(accountId: string, webhookId: string): Item | undefined;
  /** The attempt log as stored: each attempt with its expiry. */
  readonly attempts: Item[];
  /** The store's writes in order: how many writes the process made. */
  readonly writes: string[];
  /**
   * Called after failures are counted and before the threshold is checked: a test can hold racing workers there
   * (the window in which two of them may both see the threshold crossed).
   */
  afterCounting?: () => Promise<void>;
}

const slotsOf = (webhook: Item) => Number(webhook.attempt_slots ?? 0);
const keyOf = (accountId: unknown, webhookId: unknown) => `${accountId}\n${webhookId}`;

/** An empty store whose log is stamped with `now`'s expiry. */
export function inMemoryDeliveryStore(now: () => Date): InMemoryDeliveryStore {
  const endpoints = new Map<string, Item>();
  const store: InMemoryDeliveryStore = {
    put: (item) => void endpoints.set(keyOf(item.account_id, item.id), item),
    remove: (accountId, webhookId) => void endpoints.delete(keyOf(accountId, webhookId)),
    get: (accountId, webhookId) => endpoints.get(keyOf(accountId, webhookId)),
    attempts: [],
    writes: [],

    async reserveSlots(accountId, webhookId, wanted): Promise<SlotGrant> {
      store.writes.push('reserveSlots');
      const item = store.get(accountId, webhookId);
      if (!item) return { kind: 'stopped', reason: 'endpoint deleted' };
      if (item.status !== 'enabled') return { kind: 'stopped', reason: 'endpoint disabled' };
      const free = () => DISABLE_AFTER_CONSECUTIVE_FAILURES - slotsOf(item);
      if (free() <= 0) {
        const lease = slotLease(item, now());
        if (lease === 'unstamped') {
          store.writes.push('stampLease');
          item.slots_taken_at = now().getTime();
        }
        if (lease !== 'expired') return { kind: 'busy' };
        store.writes.push('reclaimSlots');
        item.attempt_slots = Number(item.consecutive_failures ?? 0);
      }
      const slots = Math.min(wanted, free());
      item.attempt_slots = slotsOf(item) + slots;
      item.slots_taken_at = now().getTime();
      return { kind: 'granted', slots, webhook: webhookItemSchema.parse({ ...item }) };
    },

    async settleSlots(accountId, webhookId, group: SettledGroup): Promise<FailureOutcome> {
      store.writes.push('settleSlots');
      const item = store.get(accountId, webhookId);
      if (!item) return { kind: 'stopped' };
      const lastSuccess = group.outcomes.lastIndexOf(true);
      if (lastSuccess >= 0) {
        // The streak becomes the failures after the last success; the old streak's slots and the group's are freed.
        const streak = group.outcomes.length - 1 - lastSuccess;
        item.attempt_slots = slotsOf(item) + streak - Number(item.consecutive_failures ?? 0) - group.slots;
        item.consecutive_failures = streak;
        return item.status === 'enabled' ? { kind: 'counting' } : { kind: 'stopped' };
      }
      const failures = group.outcomes.length;
      item.consecutive_failures = Number(item.consecutive_failures ?? 0) + failures;
      item.attempt_slots = slotsOf(item) + failures - group.slots;
      const counted = { ...item };
      await store.afterCounting?.();
      if (counted.status !== 'enabled') return { kind: 'stopped' };
      const streak = Number(counted.consecutive_failures);
      if (!reachedDisableThreshold(streak)) return { kind: 'counting' };
      store.writes.push('disable');
      const current = store.get(accountId, webhookId);
      if (current?.status !== 'enabled') return { kind: 'stopped' };
      const at = now().toISOString();
      Object.assign(current, {
        status: 'disabled',
        disabled_at: at,
        disabled_reason: disableReason(streak, group.lastError ?? 'unknown'),
        updated_at: at,
      });
      return { kind: 'disabled_now', webhook: webhookItemSchema.parse({ ...current }) };
    },

    async recordAttempts(attempts: LoggedAttempt[]): Promise<void> {
      store.writes.push('recordAttempts');
      const expires = expiresAt(now());
      store.attempts.push(...attempts.map((attempt) => ({ ...attempt, expiresAt: expires })));
    },
  };
  return store;
}
