import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';

export const handler = httpRoute(
  route('accounts.features'),
  { summary: 'Your feature flags' },
  async ({ account }) => account.features,
);
