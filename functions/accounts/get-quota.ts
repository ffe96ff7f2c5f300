import { quotaOf } from '../../shared/domain/quota.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';

export const handler = httpRoute('accounts.quota', {}, async ({ account }, deps) => quotaOf(deps, account));
