import { quotaOf } from '../../shared/domain/accounts/quota.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from '../routes.ts';

export const handler = httpRoute(route('accounts.quota'), {}, async ({ account }, deps) => quotaOf(deps, account));
