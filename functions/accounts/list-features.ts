import { featureList } from '../../shared/domain/accounts/responses.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';

export const handler = httpRoute(
  route('accounts.features'),
  { summary: 'Your feature flags', response: featureList },
  async ({ account }) => account.features,
);
