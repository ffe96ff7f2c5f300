// The rules every delivery store keeps (shared/domain/webhooks/attempts.ts's DeliveryStore): run against the
// DynamoDB store on DynamoDB Local (integration) and against the in-memory fake the consumer tests use (unit), so the
// fake cannot drift from the table's conditional writes.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type DeliveryStore, type LoggedAttempt, SLOT_LEASE_MS } from '../../shared/domain/webhooks/attempts.ts';
import { aStoredWebhook } from './factories/webhooks.ts';

export const CONTRACT_NOW = new Date('2026-11-22T10:00:00.000Z');

type Item = Record<string, unknown>;

/** A store with the means to set up and read back what it holds (every test uses endpoints of its own). */
export interface DeliveryStoreHarness {
  store: DeliveryStore;
  /** Writes the endpoint item as the table holds it. */
  putWebhook(item: Item): Promise<void>;
  removeWebhook(accountId: string, webhookId: string): Promise<void>;
  readWebhook(accountId: string, webhookId: string): Promise<Item | undefined>;
  /** The logged attempts of one event at one endpoint, as stored. */
  readAttempts(webhookId: string, eventId: string): Promise<Item[]>;
}

export function deliveryStoreContract(name: string, harness: () => DeliveryStoreHarness) {
  describe(`${name}: the delivery store rules`, () => {
    /** A fresh endpoint of its own account, stored with the given fields. */
    async function anEndpoint(h: DeliveryStoreHarness, fields: Item = {}) {
      const item = aStoredWebhook({
        id: `wh-${randomUUID()}`,
        account_id: `acc-${randomUUID()}`,
        encrypted_secret: 'ciphertext',
        ...fields,
      });
      await h.putWebhook(item);
      const ids = [String(item.account_id), String(item.id)] as const;
      return { ids, read: () => h.readWebhook(...ids) };
    }
    const failures = (n: number) => Array.from({ length: n }, () => false);

    it('grants the wanted slots, returning the endpoint as it is now (its secret included)', async () => {
      const h = harness();
      const endpoint = await anEndpoint(h);

      const grant = await h.store.reserveSlots(...endpoint.ids, 3);

      expect(grant).toMatchObject({ kind: 'granted', slots: 3, webhook: { encrypted_secret: 'ciphertext' } });
      expect(await endpoint.read()).toMatchObject({ attempt_slots: 3 });
    });

    it('grants only the free slots of ten, then none; stops for a disabled or deleted endpoint', async () => {
      const h = harness();
      const endpoint = await anEndpoint(h, { attempt_slots: 8 });
      const disabled = await anEndpoint(h, { status: 'disabled' });
      const deleted = await anEndpoint(h);
      await h.removeWebhook(...deleted.ids);

      expect(await h.store.reserveSlots(...endpoint.ids, 5)).toMatchObject({ kind: 'granted', slots: 2 });
      expect(await h.store.reserveSlots(...endpoint.ids, 1)).toEqual({ kind: 'busy' });
      expect(await h.store.reserveSlots(...disabled.ids, 1)).toEqual({ kind: 'stopped', reason: 'endpoint disabled' });
      expect(await h.store.reserveSlots(...deleted.ids, 1)).toEqual({ kind: 'stopped', reason: 'endpoint deleted' });
      expect(await endpoint.read()).toMatchObject({ attempt_slots: 10 });
    });

    it('stamps the time it takes slots, the start of their lease', async () => {
      const h = harness();
      const endpoint = await anEndpoint(h, { attempt_slots: 2, slots_taken_at: CONTRACT_NOW.getTime() - 5000 });

      await h.store.reserveSlots(...endpoint.ids, 1);

      expect(await endpoint.read()).toMatchObject({ attempt_slots: 3, slots_taken_at: CONTRACT_NOW.getTime() });
    });

    it('takes back the slots of attempts in flight when none was taken for a whole lease (their worker died), keeping the streak’s', async () => {
      const h = harness();
      const taken = CONTRACT_NOW.getTime() - SLOT_LEASE_MS;
      const endpoint = await anEndpoint(h, { consecutive_failures: 4, attempt_slots: 10, slots_taken_at: taken });

      const grant = await h.store.reserveSlots(...endpoint.ids, 10);

      expect(grant).toMatchObject({ kind: 'granted', slots: 6 });
      expect(await endpoint.read()).toMatchObject({
        consecutive_failures: 4,
        attempt_slots: 10,
        slots_taken_at: CONTRACT_NOW.getTime(),
      });
    });

    it('leaves slots alone while their lease runs, and a full streak always (only a success frees it); stamps unstamped ones', async () => {
      const h = harness();
      const recent = await anEndpoint(h, {
        attempt_slots: 10,
        slots_taken_at: CONTRACT_NOW.getTime() - SLOT_LEASE_MS + 1,
      });
      const streak = await anEndpoint(h, {
        consecutive_failures: 9,
        attempt_slots: 10,
        slots_taken_at: CONTRACT_NOW.getTime() - SLOT_LEASE_MS,
      });

      const unstamped = await anEndpoint(h, { attempt_slots: 10 });

      // Taken before leases existed: the first worker that finds them stamps them, so a leak comes back a lease later.
      expect(await h.store.reserveSlots(...unstamped.ids, 1)).toEqual({ kind: 'busy' });
      expect(await unstamped.read()).toMatchObject({ attempt_slots: 10, slots_taken_at: CONTRACT_NOW.getTime() });
      expect(await h.store.reserveSlots(...recent.ids, 1)).toEqual({ kind: 'busy' });
      expect(await recent.read()).toMatchObject({ attempt_slots: 10 });
      // Nine failures in a row and one attempt in flight past its lease: the one slot comes back, the nine stay.
      expect(await h.store.reserveSlots(...streak.ids, 3)).toMatchObject({ kind: 'granted', slots: 1 });
      expect(await streak.read()).toMatchObject({ consecutive_failures: 9, attempt_slots: 10 });
    });

    it('ends a streak at the failures after the last success, freeing the old streak’s slots (a stale streak too)', async () => {
      const h = harness();
      const endpoint = await anEndpoint(h, { consecutive_failures: 4, attempt_slots: 4 });
      await h.store.reserveSlots(...endpoint.ids, 3);

      const outcome = await h.store.settleSlots(...endpoint.ids, {
        slots: 3,
        outcomes: [false, true, false],
        streakSeen: 0,
        lastError: 'HTTP 500',
      });

      expect(outcome).toEqual({ kind: 'counting' });
      expect(await endpoint.read()).toMatchObject({ consecutive_failures: 1, attempt_slots: 1 });
    });

    it('adds failures to the streak, keeping their slots and giving back the slots nothing used', async () => {
      const h = harness();
      const endpoint = await anEndpoint(h, { consecutive_failures: 2, attempt_slots: 2 });
      await h.store.reserveSlots(...endpoint.ids, 3);

      const outcome = await h.store.settleSlots(...endpoint.ids, {
        slots: 3,
        outcomes: failures(2),
        streakSeen: 2,
        lastError: 'HTTP 503',
      });

      expect(outcome).toEqual({ kind: 'counting' });
      expect(await endpoint.read()).toMatchObject({ consecutive_failures: 4, attempt_slots: 4, status: 'enabled' });
    });

    it('disables the endpoint at the tenth failure in a row, with the reason, and grants nothing after', async () => {
      const h = harness();
      const endpoint = await anEndpoint(h, { consecutive_failures: 9, attempt_slots: 9 });
      await h.store.reserveSlots(...endpoint.ids, 1);

      const outcome = await h.store.settleSlots(...endpoint.ids, {
        slots: 1,
        outcomes: failures(1),
        streakSeen: 9,
        lastError: 'HTTP 500',
      });

      const reason = '10 delivery attempts failed in a row (last: HTTP 500)';
      expect(outcome).toMatchObject({ kind: 'disabled_now', webhook: { status: 'disabled', disabled_reason: reason } });
      expect(await endpoint.read()).toMatchObject({
        status: 'disabled',
        disabled_at: CONTRACT_NOW.toISOString(),
        disabled_reason: reason,
        consecutive_failures: 10,
      });
      expect(await h.store.reserveSlots(...endpoint.ids, 1)).toMatchObject({ kind: 'stopped' });
    });

    it('lets exactly one of two workers that cross the threshold together disable the endpoint', async () => {
      const h = harness();
      const endpoint = await anEndpoint(h, { consecutive_failures: 9, attempt_slots: 11 });
      const group = { slots: 1, outcomes: failures(1), streakSeen: 9, lastError: 'timeout' };

      const outcomes = await Promise.all([
        h.store.settleSlots(...endpoint.ids, group),
        h.store.settleSlots(...endpoint.ids, group),
      ]);

      expect(outcomes.map((o) => o.kind).sort()).toEqual(['disabled_now', 'stopped']);
      expect(await endpoint.read()).toMatchObject({ status: 'disabled', consecutive_failures: 11 });
    });

    it('stops settling for an endpoint deleted meanwhile, success or failure', async () => {
      const h = harness();
      const endpoint = await anEndpoint(h, { attempt_slots: 2 });
      await h.removeWebhook(...endpoint.ids);

      const group = { slots: 1, streakSeen: 0, lastError: undefined };
      expect(await h.store.settleSlots(...endpoint.ids, { ...group, outcomes: [true] })).toEqual({ kind: 'stopped' });
      expect(await h.store.settleSlots(...endpoint.ids, { ...group, outcomes: [false] })).toEqual({ kind: 'stopped' });
      expect(await endpoint.read()).toBeUndefined();
    });

    it('logs attempts with the event they delivered, each kept for 30 days', async () => {
      const h = harness();
      const webhookId = `wh-${randomUUID()}`;
      const event = {
        id: 'evt_1',
        event_type: 'vote.created',
        account_id: 'acc-1',
        occurred_at: CONTRACT_NOW.toISOString(),
        country_code: null,
        resource: { id: 7, value: 1 },
      };
      const attempt = (n: number): LoggedAttempt => ({
        id: `att-${n}`,
        webhook_id: webhookId,
        event_id: 'evt_1',
        event_type: 'vote.created',
        attempt: n,
        attempted_at: CONTRACT_NOW.toISOString(),
        status_code: n === 1 ? 500 : 200,
        error: n === 1 ? 'HTTP 500' : null,
        duration_ms: 12,
        succeeded: n !== 1,
        event,
      });

      await h.store.recordAttempts([attempt(1), attempt(2)]);

      const stored = await h.readAttempts(webhookId, 'evt_1');
      expect(stored.map((a) => [a.id, a.succeeded, a.expiresAt, a.event])).toEqual([
        ['att-1', false, CONTRACT_NOW.getTime() / 1000 + 30 * 24 * 3600, event],
        ['att-2', true, CONTRACT_NOW.getTime() / 1000 + 30 * 24 * 3600, event],
      ]);
    });
  });
}
