// The system area's routes: part of the route table (functions/routes.ts). Handlers take their entry from here, so
// a function's bundle holds its own area's routes, not the whole table.
import { type RouteDef, routesById } from '../../shared/http/route-def.ts';

export const systemRoutes = [
  // System
  {
    id: 'health.get',
    method: 'GET',
    path: '/health',
    entry: 'system/get-health',
    auth: 'none',
    access: { table: 'read' },
    status: 200,
  },
] as const satisfies readonly RouteDef[];

/**
 * Answers every request no route matches (API Gateway's `$default` route, and the local gateway's fallback):
 * 404, or 405 when the path exists under another method.
 */
export const fallbackRoute = {
  id: 'system.not-found',
  method: 'GET',
  path: '/{proxy+}',
  entry: 'system/not-found',
  auth: 'none',
  access: {},
  status: 200,
} as const satisfies RouteDef;

export const route = routesById(systemRoutes);
