import { describe, expect, it } from 'vitest';
import { fallbackRoute, route, routes } from '../../../functions/routes.ts';
import { accessWithGuards, isIdempotent, rateClassOf } from '../../../shared/http/guards.ts';
import type { RouteDef } from '../../../shared/http/route-def.ts';

const table: readonly RouteDef[] = routes;

describe('the guards the pipeline derives from the route table', () => {
  it('limits every non-GET route of an account as writes, paid-model routes as models, and nothing else', () => {
    expect(rateClassOf(route('votes.create'))).toBe('writes');
    expect(rateClassOf(route('images.upload'))).toBe('writes');
    expect(rateClassOf(route('pets.delete'))).toBe('writes');
    expect(rateClassOf(route('analysis.body-condition-score'))).toBe('models');
    expect(rateClassOf(route('analysis.health-tips'))).toBe('models');
    expect(rateClassOf(route('pets.portrait-create'))).toBe('models');
    expect(rateClassOf(route('images.search'))).toBeUndefined();
    expect(rateClassOf(route('accounts.create'))).toBeUndefined();
    expect(rateClassOf(fallbackRoute)).toBeUndefined();
    for (const r of table.filter((r) => r.access.visionModel)) expect(rateClassOf(r), r.id).toBe('models');
    for (const r of table.filter((r) => r.method !== 'GET' && r.auth !== 'admin' && r.auth !== 'none'))
      expect(rateClassOf(r), r.id).toBeDefined();
  });

  it('honours Idempotency-Key on every POST and PATCH route of an account, administrators included, but never stores a one-time secret', () => {
    const expected = table.filter(
      (r) => (r.method === 'POST' || r.method === 'PATCH') && r.auth !== 'none' && !r.oneTimeSecret,
    );
    expect(table.filter((r) => r.oneTimeSecret).map((r) => r.id)).toEqual([
      'accounts.create',
      'accounts.rotate-key',
      'accounts.revoke-key',
      'webhooks.create',
      'webhooks.rotate-secret',
    ]);
    expect(table.filter(isIdempotent)).toEqual(expected);
    expect(isIdempotent(route('accounts.update'))).toBe(true);
    expect(isIdempotent(route('votes.delete'))).toBe(false);
  });

  it('adds requests-table writes to exactly the guarded routes', () => {
    expect(accessWithGuards(route('votes.create'))).toEqual({ table: 'write', requests: 'write' });
    expect(accessWithGuards(route('images.search'))).toBe(route('images.search').access);
    expect(accessWithGuards(route('accounts.quota')).requests).toBe('read');
  });
});
