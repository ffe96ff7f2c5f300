import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { capabilityList } from '../../shared/domain/accounts/responses.ts';

/** Capabilities switched off for the caller (routes naming them answer 403). */
export const handler = httpRoute(
  route('accounts.capabilities'),
  { summary: 'Capabilities switched off for you', response: capabilityList },
  async ({ account }) => account.disabled_capabilities,
);
