import { accountOverview } from '../../shared/domain/overview.ts';
import { idParam } from '../../shared/http/common-params.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';

export const handler = httpRoute('accounts.overview', { params: idParam('accountId') }, async ({ params }, deps) =>
  accountOverview(deps, params.accountId),
);
