import * as z from 'zod/mini';
import { showImage } from '../../shared/domain/images/uploads.ts';
import { catalogueImageBody, uploadBody } from '../../shared/domain/images/responses.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { idParam } from '../../shared/schema/paging.ts';
import { route } from './routes.ts';

export const handler = httpRoute(
  route('images.get'),
  {
    summary: 'One image',
    description: "An upload of yours (403 for another account's) or any public image (catalogue or public library).",
    params: idParam('id'),
    response: z.union([uploadBody, catalogueImageBody]),
  },
  async ({ params, account }, deps) => showImage(deps, account, params.id),
);
