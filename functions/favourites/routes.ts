// The favourites area's routes: part of the route table (functions/routes.ts). Handlers take their entry from here, so
// a function's bundle holds its own area's routes, not the whole table.
import { type RouteDef, routesById } from '../../shared/http/route-def.ts';

export const favouritesRoutes = [
  // Favourites (API key or bearer)
  {
    id: 'favourites.list',
    method: 'GET',
    path: '/favourites',
    entry: 'favourites/list-favourites',
    auth: 'apiKeyOrBearer',
    access: { table: 'read', tokenSecret: 'read' },
    status: 200,
  },
  {
    id: 'favourites.create',
    method: 'POST',
    path: '/favourites',
    entry: 'favourites/create-favourite',
    auth: 'apiKeyOrBearer',
    capability: 'favourites',
    access: { table: 'write', tokenSecret: 'read' },
    status: 200,
  },
  {
    id: 'favourites.get',
    method: 'GET',
    path: '/favourites/{id}',
    entry: 'favourites/get-favourite',
    auth: 'apiKeyOrBearer',
    access: { table: 'read', tokenSecret: 'read' },
    status: 200,
  },
  {
    id: 'favourites.delete',
    method: 'DELETE',
    path: '/favourites/{id}',
    entry: 'favourites/delete-favourite',
    auth: 'apiKeyOrBearer',
    capability: 'favourites',
    access: { table: 'write', tokenSecret: 'read' },
    status: 200,
  },
] as const satisfies readonly RouteDef[];

export const route = routesById(favouritesRoutes);
