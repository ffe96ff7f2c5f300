import * as z from 'zod/mini';
import { createFavourite, presentFavourite } from '../../shared/domain/interactions/favourites.ts';
import { subIdParam } from '../../shared/http/sub-id.ts';
import { text } from '../../shared/http/params.ts';
import { bearerTokens } from '../../shared/auth/bearer.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { idempotency } from '../../shared/http/idempotency.ts';
import { route } from './routes.ts';

const body = z.strictObject({ image_id: text({ max: 100 }), sub_id: z.optional(subIdParam) });

export const handler = httpRoute(
  route('favourites.create'),
  { bearerTokens, idempotency, summary: 'Favourite an image', errors: [409], body },
  async ({ body, account }, deps) => presentFavourite(await createFavourite(deps, account, body)),
);
