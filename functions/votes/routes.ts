// The votes area's routes: part of the route table (functions/routes.ts). Handlers take their entry from here, so
// a function's bundle holds its own area's routes, not the whole table.
import { type RouteDef, routesById } from '../../shared/http/route-def.ts';

export const votesRoutes = [
  // Votes (spec: list and lookup take a bearer token, create an API key)
  {
    id: 'votes.list',
    method: 'GET',
    path: '/votes',
    entry: 'votes/list-votes',
    auth: 'bearer',
    access: { table: 'read', tokenSecret: 'read' },
    status: 200,
  },
  {
    id: 'votes.create',
    method: 'POST',
    path: '/votes',
    entry: 'votes/create-vote',
    auth: 'apiKey',
    capability: 'votes',
    access: { table: 'write' },
    status: 200,
  },
  {
    id: 'votes.get',
    method: 'GET',
    path: '/votes/{vote_id}',
    entry: 'votes/get-vote',
    auth: 'bearer',
    access: { table: 'read', tokenSecret: 'read' },
    status: 200,
  },
  {
    id: 'votes.delete',
    method: 'DELETE',
    path: '/votes/{vote_id}',
    entry: 'votes/delete-vote',
    auth: 'apiKeyOrBearer',
    capability: 'votes',
    access: { table: 'write', tokenSecret: 'read' },
    status: 200,
  },
] as const satisfies readonly RouteDef[];

export const route = routesById(votesRoutes);
