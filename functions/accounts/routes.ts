// The accounts area's routes: part of the route table (functions/routes.ts). Handlers take their entry from here, so
// a function's bundle holds its own area's routes, not the whole table.
import { type RouteDef, routesById } from '../../shared/http/route-def.ts';

export const accountsRoutes = [
  // Account administration
  {
    id: 'accounts.create',
    method: 'POST',
    path: '/accounts',
    entry: 'accounts/create-account',
    auth: 'admin',
    access: { table: 'write' },
    status: 201,
    oneTimeSecret: true,
  },
  {
    id: 'accounts.update',
    method: 'PATCH',
    path: '/accounts/{accountId}',
    entry: 'accounts/update-account',
    auth: 'admin',
    access: { table: 'write' },
    status: 200,
  },

  // Accounts: the caller's own flags and quota; quota and overview of any account for administrators
  {
    id: 'accounts.features',
    method: 'GET',
    path: '/accounts/features',
    entry: 'accounts/list-features',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'accounts.capabilities',
    method: 'GET',
    path: '/accounts/capabilities',
    entry: 'accounts/list-capabilities',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'accounts.quota',
    method: 'GET',
    path: '/accounts/quota',
    entry: 'accounts/get-quota',
    auth: 'apiKey',
    access: { table: 'read', requests: 'read' },
    status: 200,
  },
  {
    id: 'accounts.quota-get',
    method: 'GET',
    path: '/accounts/{accountId}/quota',
    entry: 'accounts/get-account-quota',
    auth: 'admin',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'accounts.quota-update',
    method: 'PATCH',
    path: '/accounts/{accountId}/quota',
    entry: 'accounts/update-account-quota',
    auth: 'admin',
    access: { table: 'write' },
    status: 200,
  },
  {
    id: 'accounts.rotate-key',
    method: 'POST',
    path: '/accounts/api-key/rotate',
    entry: 'accounts/rotate-api-key',
    auth: 'apiKey',
    access: { table: 'write' },
    status: 200,
    oneTimeSecret: true,
  },
  {
    id: 'accounts.revoke-key',
    method: 'POST',
    path: '/accounts/{accountId}/api-key/revoke',
    entry: 'accounts/revoke-api-key',
    auth: 'admin',
    access: { table: 'write' },
    status: 200,
    oneTimeSecret: true,
  },
  {
    id: 'accounts.overview',
    method: 'GET',
    path: '/accounts/{accountId}/overview',
    entry: 'accounts/get-account-overview',
    auth: 'admin',
    access: { table: 'read' },
    status: 200,
  },
] as const satisfies readonly RouteDef[];

export const route = routesById(accountsRoutes);
