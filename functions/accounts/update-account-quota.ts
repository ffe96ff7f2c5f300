import { quotaChangeSchema } from '../../shared/domain/accounts/input.ts';
import { updateAccount } from '../../shared/domain/accounts/service.ts';
import { quotaOf } from '../../shared/domain/accounts/quota.ts';
import { idParam } from '../../shared/schema/paging.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { quotaBody } from '../../shared/domain/accounts/responses.ts';

export const handler = httpRoute(
  route('accounts.quota-update'),
  {
    summary: "Set an account's monthly upload quota",
    params: idParam('accountId'),
    body: quotaChangeSchema,
    response: quotaBody,
  },
  async ({ params, body }, deps) => quotaOf(deps, await updateAccount(deps, params.accountId, { quota: body.quota })),
);
