import * as z from 'zod/mini';
import { createFavourite, presentFavourite } from '../../shared/domain/interactions/favourites.ts';
import { subIdParam } from '../../shared/schema/sub-id.ts';
import { text } from '../../shared/schema/params.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { withReferences } from '../../shared/schema/references.ts';
import { imageProblems } from '../../shared/domain/interactions/image-reference.ts';
import { route } from './routes.ts';
import { favouriteBody } from '../../shared/domain/interactions/responses.ts';

const body = withReferences(
  z.strictObject({ image_id: text({ max: 100 }), sub_id: z.optional(subIdParam) }),
  (fields, deps) => imageProblems(deps, fields),
);

export const handler = httpRoute(
  route('favourites.create'),
  { summary: 'Favourite an image', errors: [409], body, response: favouriteBody },
  async ({ body, account }, deps) => presentFavourite(await createFavourite(deps, account, body)),
);
