import { describe, expect, it } from 'vitest';
import { fallbackRoute, route, routes } from '../../../functions/routes.ts';
import { acceptsBearer } from '../../../shared/auth/authenticate.ts';
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

  // The pipeline decides both from the table entry alone (auth mode, method, oneTimeSecret); this pins the routes it
  // picks, so a change of rule or entry that moves a route in or out shows here.
  it('accepts Idempotency-Key and bearer tokens on exactly these routes', () => {
    expect(table.filter(isIdempotent).map((r) => r.id)).toEqual([
      'auth.token',
      'accounts.update',
      'accounts.quota-update',
      'images.upload',
      'images.create-upload',
      'images.public-request-create',
      'images.public-request-approve',
      'images.public-request-deny',
      'pets.create',
      'pets.update',
      'pets.photos-upload',
      'pets.video-upload',
      'pets.create-upload',
      'pets.complete-upload',
      'pets.portrait-create',
      'votes.create',
      'favourites.create',
      'analysis.body-condition-score',
      'analysis.estimated-age',
      'analysis.genealogy',
      'analysis.muscle-condition-score',
      'analysis.estimated-weight',
      'reviews.request',
      'reviews.complete',
      'reviews.reject',
      'analysis.respiratory-rate-create',
      'calculators.energy-requirement',
      'webhooks.test',
      'webhooks.redeliver',
      'webhooks.recover',
    ]);
    // spec: the votes list and look-up take a bearer credential, the favourites routes either credential
    expect(table.filter(acceptsBearer).map((r) => `${r.id} ${r.auth}`)).toEqual([
      'votes.list bearer',
      'votes.get bearer',
      'votes.delete apiKeyOrBearer',
      'favourites.list apiKeyOrBearer',
      'favourites.create apiKeyOrBearer',
      'favourites.get apiKeyOrBearer',
      'favourites.delete apiKeyOrBearer',
    ]);
  });

  it('adds requests-table writes to exactly the guarded routes', () => {
    expect(accessWithGuards(route('votes.create'))).toEqual({ table: 'write', requests: 'write' });
    expect(accessWithGuards(route('images.search'))).toBe(route('images.search').access);
    expect(accessWithGuards(route('accounts.quota')).requests).toBe('read');
  });
});
