// What the system routes answer, by route id: read only by the OpenAPI generator (functions/responses.ts joins the
// areas). Handlers see these schemas as types, through `route` (./routes.ts), so no function bundles them.
import * as z from 'zod/mini';
import { documented } from '../../shared/http/api-docs.ts';
import type { ResponseSchemas } from '../../shared/http/route-def.ts';
import type { systemRoutes } from './routes.ts';

/** Readiness probe: answers 200 only when the table can be read. */
const healthBody = z.object({
  status: z.literal('ok'),
  stage: documented(z.string(), { description: 'The deployment stage (`local`, `staging`, `production`).' }),
  time: documented(z.string(), { description: 'The server clock (ISO 8601).' }),
});

export const systemResponses = {
  'health.get': healthBody,
} satisfies ResponseSchemas<typeof systemRoutes>;
