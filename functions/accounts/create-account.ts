import { newAccountSchema } from '../../shared/domain/account-input.ts';
import { createAccount } from '../../shared/domain/accounts.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from '../routes.ts';

export const handler = httpRoute(route('accounts.create'), { body: newAccountSchema }, async ({ body }, deps) =>
  createAccount(deps, body),
);
