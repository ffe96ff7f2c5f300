// The facts area's routes: part of the route table (functions/routes.ts). Handlers take their entry from here, so
// a function's bundle holds its own area's routes, not the whole table.
import { type RouteDef, routesById } from '../../shared/http/route-def.ts';

export const factsRoutes = [
  // Facts (offset-style lists)
  {
    id: 'facts.list',
    method: 'GET',
    path: '/facts',
    entry: 'facts/list-facts',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'facts.random',
    method: 'GET',
    path: '/facts/random',
    entry: 'facts/get-random-fact',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'facts.list-by-breed',
    method: 'GET',
    path: '/facts/breed/{breedId}',
    entry: 'facts/list-breed-facts',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'facts.random-by-breed',
    method: 'GET',
    path: '/facts/breed/{breedId}/random',
    entry: 'facts/get-random-breed-fact',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'facts.random-by-species',
    method: 'GET',
    path: '/facts/species/{speciesId}/random',
    entry: 'facts/get-random-species-fact',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'facts.get',
    method: 'GET',
    path: '/facts/{id}',
    entry: 'facts/get-fact',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
] as const satisfies readonly RouteDef[];

export const route = routesById(factsRoutes);
