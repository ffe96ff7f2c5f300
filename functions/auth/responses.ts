// What the auth routes answer, by route id: read only by the OpenAPI generator (functions/responses.ts joins the
// areas). Handlers see these schemas as types, through `route` (./routes.ts), so no function bundles them.
import * as z from 'zod/mini';
import { documented } from '../../shared/http/api-docs.ts';
import type { ResponseSchemas } from '../../shared/http/route-def.ts';
import type { authRoutes } from './routes.ts';

const tokenBody = z.object({
  access_token: documented(z.string(), {
    description: 'A JWT (HS256) naming the account; send it as `Authorization: Bearer …`.',
  }),
  token_type: z.literal('Bearer'),
  expires_in: documented(z.int(), { description: 'Seconds until the token expires.' }),
});

export const authResponses = {
  'auth.token': tokenBody,
} satisfies ResponseSchemas<typeof authRoutes>;
