import { describe, expect, it } from 'vitest';
import type { RouteDef } from '../../../shared/http/route-def.ts';
import { createRouteMatcher } from '../../../shared/routing/match.ts';

const route = (method: RouteDef['method'], path: `/${string}`): RouteDef => ({
  id: `${method} ${path}`,
  method,
  path,
  entry: 'x',
  auth: 'none',
  access: {},
  status: 200,
});

// The spec's literal-vs-parameter pairs; the table order is deliberately the "wrong" way round.
const table = [
  route('GET', '/facts/{id}'),
  route('GET', '/facts/random'),
  route('GET', '/breeds/{id}'),
  route('GET', '/breeds/search'),
  route('GET', '/breeds/breed-groups'),
  route('GET', '/pets/{petId}'),
  route('DELETE', '/pets/{petId}'),
  route('GET', '/pets/portrait-styles'),
  route('GET', '/facts/breed/{breedId}/random'),
];
const match = createRouteMatcher(table);

describe('route matching', () => {
  it.each([
    ['/facts/random', '/facts/random'],
    ['/facts/abc123', '/facts/{id}'],
    ['/breeds/search', '/breeds/search'],
    ['/breeds/breed-groups', '/breeds/breed-groups'],
    ['/breeds/beagle', '/breeds/{id}'],
    ['/pets/portrait-styles', '/pets/portrait-styles'],
    ['/pets/p-1', '/pets/{petId}'],
  ])('GET %s picks %s', (path, template) => {
    const result = match('GET', path);
    expect(result.kind === 'route' && result.route.path).toBe(template);
  });

  it('extracts and URL-decodes path parameters', () => {
    expect(match('GET', '/facts/breed/border%20collie/random')).toMatchObject({
      kind: 'route',
      pathParameters: { breedId: 'border collie' },
    });
  });

  it('lets a parameter route take a literal-looking path when only it has the method', () => {
    expect(match('DELETE', '/pets/portrait-styles')).toMatchObject({ kind: 'route', route: { path: '/pets/{petId}' } });
  });

  it('reports the allowed methods when the path exists under other methods', () => {
    expect(match('POST', '/facts/random')).toEqual({ kind: 'method-not-allowed', allowed: ['GET'] });
  });

  it('reports not-found for unknown paths and trailing segments', () => {
    expect(match('GET', '/facts/random/extra')).toEqual({ kind: 'not-found' });
    expect(match('GET', '/nothing')).toEqual({ kind: 'not-found' });
  });
});
