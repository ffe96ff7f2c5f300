// The health-tips area's routes: part of the route table (functions/routes.ts). Handlers take their entry from here, so
// a function's bundle holds its own area's routes, not the whole table.
import { type RouteDef, routesById } from '../../shared/http/route-def.ts';

export const healthTipsRoutes = [
  // Health tips
  {
    id: 'health-tips.list',
    method: 'GET',
    path: '/health-tips',
    entry: 'health-tips/list-health-tips',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'health-tips.list-by-breed',
    method: 'GET',
    path: '/health-tips/breed/{breedId}',
    entry: 'health-tips/list-breed-health-tips',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'health-tips.get',
    method: 'GET',
    path: '/health-tips/{id}',
    entry: 'health-tips/get-health-tip',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
] as const satisfies readonly RouteDef[];

export const route = routesById(healthTipsRoutes);
