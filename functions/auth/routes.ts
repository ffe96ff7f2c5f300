// The auth area's routes: part of the route table (functions/routes.ts). Handlers take their entry from here, so
// a function's bundle holds its own area's routes, not the whole table.
import { type RouteDef, routesById } from '../../shared/http/route-def.ts';

export const authRoutes = [
  // Authentication: a short-lived bearer token for an API key
  {
    id: 'auth.token',
    method: 'POST',
    path: '/auth/token',
    entry: 'auth/create-token',
    auth: 'apiKey',
    access: { table: 'read', tokenSecret: 'read' },
    status: 200,
  },
] as const satisfies readonly RouteDef[];

export const route = routesById(authRoutes);
