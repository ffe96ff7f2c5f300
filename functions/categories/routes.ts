// The categories area's routes: part of the route table (functions/routes.ts). Handlers take their entry from here, so
// a function's bundle holds its own area's routes, not the whole table.
import { type RouteDef, routesById } from '../../shared/http/route-def.ts';

export const categoriesRoutes = [
  // Categories
  {
    id: 'categories.list',
    method: 'GET',
    path: '/categories',
    entry: 'categories/list-categories',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'categories.get',
    method: 'GET',
    path: '/categories/{id}',
    entry: 'categories/get-category',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
] as const satisfies readonly RouteDef[];

export const route = routesById(categoriesRoutes);
