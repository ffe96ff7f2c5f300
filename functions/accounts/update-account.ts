import * as z from 'zod/mini';
import { accountChangesSchema } from '../../shared/domain/accounts/input.ts';
import { updateAccount } from '../../shared/domain/accounts/service.ts';
import { text } from '../../shared/schema/params.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { accountBody } from '../../shared/domain/accounts/responses.ts';

const params = z.object({ accountId: text({ max: 64 }) });

export const handler = httpRoute(
  route('accounts.update'),
  { summary: 'Change an account', params, body: accountChangesSchema, response: accountBody },
  async ({ params, body }, deps) => updateAccount(deps, params.accountId, body),
);
