import { newAccountSchema } from '../../shared/domain/accounts/input.ts';
import { createAccount } from '../../shared/domain/accounts/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { createdAccountBody } from '../../shared/domain/accounts/responses.ts';

export const handler = httpRoute(
  route('accounts.create'),
  { summary: 'Create an account', body: newAccountSchema, response: createdAccountBody },
  async ({ body }, deps) => createAccount(deps, body),
);
