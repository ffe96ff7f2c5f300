import * as z from 'zod/mini';
import { revokeApiKeys } from '../../shared/domain/accounts/service.ts';
import { text } from '../../shared/schema/params.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { revokedKeysBody } from '../../shared/domain/accounts/responses.ts';

const params = z.object({ accountId: text({ max: 64 }) });

export const handler = httpRoute(
  route('accounts.revoke-key'),
  {
    summary: 'Revoke every key of an account',
    description: 'For administrators: every key of the account stops at once; the answer holds the one new key.',
    params,
    response: revokedKeysBody,
  },
  async ({ params }, deps) => revokeApiKeys(deps, params.accountId),
);
