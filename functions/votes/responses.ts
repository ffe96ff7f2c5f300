// What the votes routes answer, by route id: read only by the OpenAPI generator (functions/responses.ts joins the
// areas). Handlers see these schemas as types, through `route` (./routes.ts), so no function bundles them.
import * as z from 'zod/mini';
import { successMessage } from '../../shared/domain/images/responses.ts';
import { voteBody } from '../../shared/domain/interactions/responses.ts';
import type { ResponseSchemas } from '../../shared/http/route-def.ts';
import type { votesRoutes } from './routes.ts';

export const votesResponses = {
  'votes.list': z.array(voteBody),
  'votes.create': voteBody,
  'votes.get': voteBody,
  'votes.delete': successMessage,
} satisfies ResponseSchemas<typeof votesRoutes>;
