import { quotaOf } from '../../shared/domain/accounts/quota.ts';
import { rateLimitsOf } from '../../shared/domain/accounts/rate-limits.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { ownQuotaBody } from '../../shared/domain/accounts/responses.ts';

export const handler = httpRoute(
  route('accounts.quota'),
  {
    summary: 'Your monthly upload quota and request-rate limits',
    description: 'The upload quota of this month, and the plan with where each request-rate window stands.',
    response: ownQuotaBody,
  },
  async ({ account }, deps) => {
    const [quota, rateLimits] = await Promise.all([quotaOf(deps, account), rateLimitsOf(deps, account)]);
    return { ...quota, rate_limits: rateLimits };
  },
);
