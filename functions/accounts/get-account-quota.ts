import { requireAccount } from '../../shared/domain/accounts/overview.ts';
import { quotaOf } from '../../shared/domain/accounts/quota.ts';
import { idParam } from '../../shared/schema/paging.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { quotaBody } from '../../shared/domain/accounts/responses.ts';

export const handler = httpRoute(
  route('accounts.quota-get'),
  { summary: "An account's monthly upload quota", params: idParam('accountId'), response: quotaBody },
  async ({ params }, deps) => quotaOf(deps, await requireAccount(deps, params.accountId)),
);
