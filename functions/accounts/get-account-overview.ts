import { accountOverview } from '../../shared/domain/accounts/overview.ts';
import { idParam } from '../../shared/schema/paging.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { overviewBody } from '../../shared/domain/accounts/responses.ts';

export const handler = httpRoute(
  route('accounts.overview'),
  {
    summary: "An account's flags, quota and counts",
    params: idParam('accountId'),
    response: overviewBody,
  },
  async ({ params }, deps) => accountOverview(deps, params.accountId),
);
