// The breeds area's routes: part of the route table (functions/routes.ts). Handlers take their entry from here, so
// a function's bundle holds its own area's routes, not the whole table.
import { type RouteDef, routesById } from '../../shared/http/route-def.ts';

export const breedsRoutes = [
  // Breeds (literal paths before /breeds/{id} is the matcher's job, not the table's)
  {
    id: 'breeds.list',
    method: 'GET',
    path: '/breeds',
    entry: 'breeds/list-breeds',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'breeds.search',
    method: 'GET',
    path: '/breeds/search',
    entry: 'breeds/search-breeds',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'breeds.groups',
    method: 'GET',
    path: '/breeds/breed-groups',
    entry: 'breeds/list-breed-groups',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'breeds.get',
    method: 'GET',
    path: '/breeds/{id}',
    entry: 'breeds/get-breed',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'breeds.colours',
    method: 'GET',
    path: '/breeds/{id}/colours',
    entry: 'breeds/list-breed-colours',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
] as const satisfies readonly RouteDef[];

export const route = routesById(breedsRoutes);
