import { httpRoute } from '../../shared/http/pipeline.ts';

export const handler = httpRoute('accounts.features', {}, async ({ account }) => account.features);
