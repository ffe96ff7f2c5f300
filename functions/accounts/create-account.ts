import { newAccountSchema } from '../../shared/domain/account-input.ts';
import { createAccount } from '../../shared/domain/accounts.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';

export const handler = httpRoute('accounts.create', { body: newAccountSchema }, async ({ body }, deps) =>
  createAccount(deps, body),
);
