// What the accounts routes answer, by route id: read only by the OpenAPI generator (functions/responses.ts joins the
// areas). Handlers see these schemas as types, through `route` (./routes.ts), so no function bundles them.
import {
  accountBody,
  capabilityList,
  createdAccountBody,
  featureList,
  overviewBody,
  ownQuotaBody,
  quotaBody,
  revokedKeysBody,
  rotatedKeyBody,
} from '../../shared/domain/accounts/responses.ts';
import type { ResponseSchemas } from '../../shared/http/route-def.ts';
import type { accountsRoutes } from './routes.ts';

export const accountsResponses = {
  'accounts.create': createdAccountBody,
  'accounts.update': accountBody,
  'accounts.features': featureList,
  'accounts.capabilities': capabilityList,
  'accounts.quota': ownQuotaBody,
  'accounts.quota-get': quotaBody,
  'accounts.quota-update': quotaBody,
  'accounts.rotate-key': rotatedKeyBody,
  'accounts.revoke-key': revokedKeysBody,
  'accounts.overview': overviewBody,
} satisfies ResponseSchemas<typeof accountsRoutes>;
