import * as z from 'zod/mini';
import { subIdParam } from '../../shared/schema/sub-id.ts';
import { listUploads, presentUpload } from '../../shared/domain/images/uploads.ts';
import { ORDERS, pageParam } from '../../shared/schema/paging.ts';
import { caseInsensitiveEnum, integer } from '../../shared/schema/params.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { uploadBody } from '../../shared/domain/images/responses.ts';

const query = z.strictObject({
  limit: z._default(integer({ min: 1, max: 100 }), 10),
  page: pageParam,
  order: z._default(caseInsensitiveEnum(ORDERS), 'DESC'),
  sub_id: z.optional(subIdParam),
});

/** The caller's own uploads, newest first by default. */
export const handler = httpRoute(
  route('images.list'),
  { summary: 'Your uploads', query, response: z.array(uploadBody) },
  async ({ query: q, account }, deps) =>
    (await listUploads(deps, account, { order: q.order, page: q.page, limit: q.limit, subId: q.sub_id })).map((u) =>
      presentUpload(u, deps.config.mediaBaseUrl),
    ),
);
