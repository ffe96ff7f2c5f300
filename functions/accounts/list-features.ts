import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { featureList } from '../../shared/domain/accounts/responses.ts';

export const handler = httpRoute(
  route('accounts.features'),
  { summary: 'Your feature flags', response: featureList },
  async ({ account }) => account.features,
);
