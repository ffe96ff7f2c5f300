// The bans area's routes: part of the route table (functions/routes.ts). Handlers take their entry from here, so
// a function's bundle holds its own area's routes, not the whole table.
import { type RouteDef, routesById } from '../../shared/http/route-def.ts';

export const bansRoutes = [
  // Breed bans and legislation
  {
    id: 'bans.countries',
    method: 'GET',
    path: '/breeds/bans/countries',
    entry: 'bans/list-ban-countries',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'bans.country',
    method: 'GET',
    path: '/breeds/bans/country',
    entry: 'bans/list-country-bans',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'bans.breed',
    method: 'GET',
    path: '/breeds/bans/breed/{breedId}',
    entry: 'bans/list-breed-bans',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
] as const satisfies readonly RouteDef[];

export const route = routesById(bansRoutes);
