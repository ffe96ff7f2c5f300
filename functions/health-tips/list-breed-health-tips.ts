import * as z from 'zod/mini';
import { requireBreed } from '../../shared/domain/reference/breeds.ts';
import { findHealthTips, presentHealthTip } from '../../shared/domain/reference/health-tips.ts';
import { idParam } from '../../shared/schema/paging.ts';
import { offsetQuery } from '../../shared/domain/reference/list-query.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { offsetPage, presentation } from '../../shared/domain/reference/content.ts';
import { translatedReply } from '../../shared/http/responses.ts';
import { healthTipList } from '../../shared/domain/reference/responses.ts';

export const handler = httpRoute(
  route('health-tips.list-by-breed'),
  {
    summary: "A breed's health tips",
    headers: ['content-language'],
    params: idParam('breedId'),
    query: z.strictObject(offsetQuery),
    response: healthTipList,
  },
  async ({ params, query }, deps) => {
    await requireBreed(deps, params.breedId);
    const view = presentation(query.lang, query.include_sources);
    const tips = await findHealthTips(deps, { breedId: params.breedId });
    return translatedReply(
      offsetPage(tips, query.offset, query.limit).map((t) => presentHealthTip(t, view)),
      view,
    );
  },
);
