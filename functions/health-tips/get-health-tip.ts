import * as z from 'zod/mini';
import { getHealthTip, presentHealthTip } from '../../shared/domain/reference/health-tips.ts';
import { contentQuery } from '../../shared/domain/reference/list-query.ts';
import { idParam } from '../../shared/schema/paging.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { presentation } from '../../shared/domain/reference/content.ts';
import { translatedReply } from '../../shared/http/responses.ts';
import { healthTipBody } from '../../shared/domain/reference/responses.ts';

export const handler = httpRoute(
  route('health-tips.get'),
  {
    summary: 'One health tip',
    headers: ['content-language'],
    params: idParam('id'),
    query: z.strictObject(contentQuery),
    response: healthTipBody,
  },
  async ({ params, query }, deps) => {
    const view = presentation(query.lang, query.include_sources);
    return translatedReply(presentHealthTip(await getHealthTip(deps, params.id), view), view);
  },
);
