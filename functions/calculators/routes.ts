// The calculators area's routes: part of the route table (functions/routes.ts). Handlers take their entry from here, so
// a function's bundle holds its own area's routes, not the whole table.
import { type RouteDef, routesById } from '../../shared/http/route-def.ts';

export const calculatorsRoutes = [
  // Calculators (account feature `calculators`)
  {
    id: 'calculators.energy-requirement',
    method: 'POST',
    path: '/calculators/energy-requirement',
    entry: 'calculators/calculate-energy-requirement',
    auth: 'apiKey',
    feature: 'calculators',
    access: { table: 'read' },
    status: 200,
  },
] as const satisfies readonly RouteDef[];

export const route = routesById(calculatorsRoutes);
