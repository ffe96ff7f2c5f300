import * as z from 'zod/mini';
import { accountChangesSchema } from '../../shared/domain/accounts/input.ts';
import { updateAccount } from '../../shared/domain/accounts/service.ts';
import { text } from '../../shared/http/params.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { idempotency } from '../../shared/http/idempotency.ts';
import { route } from './routes.ts';

const params = z.object({ accountId: text({ max: 64 }) });

export const handler = httpRoute(
  route('accounts.update'),
  { idempotency, summary: 'Change an account', params, body: accountChangesSchema },
  async ({ params, body }, deps) => updateAccount(deps, params.accountId, body),
);
