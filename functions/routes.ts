// The route table: plain data, imported by the CDK app, the local gateway, the HTTP pipeline and the tests.
// Only routes that are built belong here. Paths are relative to the `/v1` base path.
import type { Capability } from '../shared/domain/account.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How a caller proves who it is: see docs/ARCHITECTURE.md#authentication. */
export type AuthMode = 'none' | 'apiKey' | 'bearer' | 'apiKeyOrBearer' | 'admin';

export interface RouteAccess {
  /** Single-table DynamoDB access; `read` grants GetItem/BatchGetItem/Query only. */
  table?: 'read' | 'write';
  /** The media bucket's uploads/ prefix: write = put and delete objects (and presign uploads). */
  media?: 'write';
  /** Reads the bearer-token signing secret (Secrets Manager when deployed). */
  tokenSecret?: 'read';
  /** Encrypts webhook signing secrets (KMS deployed). */
  webhookSecrets?: 'encrypt';
  /** Sends messages to this queue. */
  sendsTo?: 'webhookDeliveries';
}

export interface RouteDef {
  /** Dotted id, e.g. `accounts.create`; CDK construct ids derive from it. */
  id: string;
  method: HttpMethod;
  /** API Gateway syntax, e.g. `/accounts/{accountId}`. */
  path: `/${string}`;
  /** Handler module below `functions/`, without extension. */
  entry: string;
  auth: AuthMode;
  /** Account feature flag the route requires (403 naming it when absent). */
  feature?: string;
  /** Capability an administrator can switch off for an account (403 when switched off). */
  capability?: Capability;
  access: RouteAccess;
  /** Success status, from the spec. */
  status: 200 | 201 | 204;
}

export const API_BASE_PATH = '/v1';

export const routes = [
  // System
  {
    id: 'health.get',
    method: 'GET',
    path: '/health',
    entry: 'system/get-health',
    auth: 'none',
    access: { table: 'read' },
    status: 200,
  },

  // Authentication and account administration
  {
    id: 'auth.token',
    method: 'POST',
    path: '/auth/token',
    entry: 'auth/create-token',
    auth: 'apiKey',
    access: { table: 'read', tokenSecret: 'read' },
    status: 200,
  },
  {
    id: 'accounts.create',
    method: 'POST',
    path: '/accounts',
    entry: 'accounts/create-account',
    auth: 'admin',
    access: { table: 'write' },
    status: 201,
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
    access: { table: 'read' },
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
    id: 'accounts.overview',
    method: 'GET',
    path: '/accounts/{accountId}/overview',
    entry: 'accounts/get-account-overview',
    auth: 'admin',
    access: { table: 'read' },
    status: 200,
  },

  // Facts (offset-style lists)
  {
    id: 'facts.list',
    method: 'GET',
    path: '/facts',
    entry: 'facts/list-facts',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'facts.random',
    method: 'GET',
    path: '/facts/random',
    entry: 'facts/get-random-fact',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'facts.list-by-breed',
    method: 'GET',
    path: '/facts/breed/{breedId}',
    entry: 'facts/list-breed-facts',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'facts.random-by-breed',
    method: 'GET',
    path: '/facts/breed/{breedId}/random',
    entry: 'facts/get-random-breed-fact',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'facts.random-by-species',
    method: 'GET',
    path: '/facts/species/{speciesId}/random',
    entry: 'facts/get-random-species-fact',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'facts.get',
    method: 'GET',
    path: '/facts/{id}',
    entry: 'facts/get-fact',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },

  // Health tips
  {
    id: 'health-tips.list',
    method: 'GET',
    path: '/health-tips',
    entry: 'health-tips/list-health-tips',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'health-tips.list-by-breed',
    method: 'GET',
    path: '/health-tips/breed/{breedId}',
    entry: 'health-tips/list-breed-health-tips',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'health-tips.get',
    method: 'GET',
    path: '/health-tips/{id}',
    entry: 'health-tips/get-health-tip',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },

  // Categories
  {
    id: 'categories.list',
    method: 'GET',
    path: '/categories',
    entry: 'categories/list-categories',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'categories.get',
    method: 'GET',
    path: '/categories/{id}',
    entry: 'categories/get-category',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },

  // Breeds (literal paths before /breeds/{id} is the matcher's job, not the table's)
  {
    id: 'breeds.list',
    method: 'GET',
    path: '/breeds',
    entry: 'breeds/list-breeds',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'breeds.search',
    method: 'GET',
    path: '/breeds/search',
    entry: 'breeds/search-breeds',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'breeds.groups',
    method: 'GET',
    path: '/breeds/breed-groups',
    entry: 'breeds/list-breed-groups',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'breeds.get',
    method: 'GET',
    path: '/breeds/{id}',
    entry: 'breeds/get-breed',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'breeds.colours',
    method: 'GET',
    path: '/breeds/{id}/colours',
    entry: 'breeds/list-breed-colours',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },

  // Breed bans and legislation
  {
    id: 'bans.countries',
    method: 'GET',
    path: '/breeds/bans/countries',
    entry: 'bans/list-ban-countries',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'bans.country',
    method: 'GET',
    path: '/breeds/bans/country',
    entry: 'bans/list-country-bans',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'bans.breed',
    method: 'GET',
    path: '/breeds/bans/breed/{breedId}',
    entry: 'bans/list-breed-bans',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },

  // Images
  {
    id: 'images.search',
    method: 'GET',
    path: '/images/search',
    entry: 'images/search-images',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'images.upload',
    method: 'POST',
    path: '/images/upload',
    entry: 'images/upload-image',
    auth: 'apiKey',
    capability: 'image_uploads',
    access: { table: 'write', media: 'write' },
    status: 201,
  },
  {
    id: 'images.create-upload',
    method: 'POST',
    path: '/images/uploads',
    entry: 'images/create-upload',
    auth: 'apiKey',
    capability: 'image_uploads',
    access: { table: 'write', media: 'write' },
    status: 201,
  },
  {
    id: 'images.list',
    method: 'GET',
    path: '/images',
    entry: 'images/list-images',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'images.get',
    method: 'GET',
    path: '/images/{id}',
    entry: 'images/get-image',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'images.delete',
    method: 'DELETE',
    path: '/images/{id}',
    entry: 'images/delete-image',
    auth: 'apiKey',
    access: { table: 'write', media: 'write' },
    status: 200,
  },

  // Votes (spec: list and lookup take a bearer token, create an API key)
  {
    id: 'votes.list',
    method: 'GET',
    path: '/votes',
    entry: 'votes/list-votes',
    auth: 'bearer',
    access: { table: 'read', tokenSecret: 'read' },
    status: 200,
  },
  {
    id: 'votes.create',
    method: 'POST',
    path: '/votes',
    entry: 'votes/create-vote',
    auth: 'apiKey',
    capability: 'votes',
    access: { table: 'write' },
    status: 200,
  },
  {
    id: 'votes.get',
    method: 'GET',
    path: '/votes/{vote_id}',
    entry: 'votes/get-vote',
    auth: 'bearer',
    access: { table: 'read', tokenSecret: 'read' },
    status: 200,
  },
  {
    id: 'votes.delete',
    method: 'DELETE',
    path: '/votes/{vote_id}',
    entry: 'votes/delete-vote',
    auth: 'apiKeyOrBearer',
    capability: 'votes',
    access: { table: 'write', tokenSecret: 'read' },
    status: 200,
  },

  // Favourites (API key or bearer)
  {
    id: 'favourites.list',
    method: 'GET',
    path: '/favourites',
    entry: 'favourites/list-favourites',
    auth: 'apiKeyOrBearer',
    access: { table: 'read', tokenSecret: 'read' },
    status: 200,
  },
  {
    id: 'favourites.create',
    method: 'POST',
    path: '/favourites',
    entry: 'favourites/create-favourite',
    auth: 'apiKeyOrBearer',
    capability: 'favourites',
    access: { table: 'write', tokenSecret: 'read' },
    status: 200,
  },
  {
    id: 'favourites.get',
    method: 'GET',
    path: '/favourites/{id}',
    entry: 'favourites/get-favourite',
    auth: 'apiKeyOrBearer',
    access: { table: 'read', tokenSecret: 'read' },
    status: 200,
  },
  {
    id: 'favourites.delete',
    method: 'DELETE',
    path: '/favourites/{id}',
    entry: 'favourites/delete-favourite',
    auth: 'apiKeyOrBearer',
    capability: 'favourites',
    access: { table: 'write', tokenSecret: 'read' },
    status: 200,
  },

  // Calculators (account feature `calculators`)
  {
    id: 'calculators.energy-requirement',
    method: 'POST',
    path: '/calculators/energy-requirement',
    entry: 'calculators/calculate-energy-requirement',
    auth: 'apiKey',
    feature: 'calculators',
    access: { table: 'read' },
    status: 200,
  },

  // Webhooks (API key; capability `webhooks` on every route that changes or sends)
  {
    id: 'webhooks.topics',
    method: 'GET',
    path: '/webhooks/topics',
    entry: 'webhooks/list-topics',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'webhooks.create',
    method: 'POST',
    path: '/webhooks',
    entry: 'webhooks/create-webhook',
    auth: 'apiKey',
    capability: 'webhooks',
    access: { table: 'write', webhookSecrets: 'encrypt' },
    status: 200,
  },
  {
    id: 'webhooks.list',
    method: 'GET',
    path: '/webhooks',
    entry: 'webhooks/list-webhooks',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'webhooks.get',
    method: 'GET',
    path: '/webhooks/{id}',
    entry: 'webhooks/get-webhook',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'webhooks.delete',
    method: 'DELETE',
    path: '/webhooks/{id}',
    entry: 'webhooks/delete-webhook',
    auth: 'apiKey',
    capability: 'webhooks',
    access: { table: 'write' },
    status: 200,
  },
  {
    id: 'webhooks.rotate-secret',
    method: 'POST',
    path: '/webhooks/{id}/rotate-secret',
    entry: 'webhooks/rotate-webhook-secret',
    auth: 'apiKey',
    capability: 'webhooks',
    access: { table: 'write', webhookSecrets: 'encrypt' },
    status: 200,
  },
  {
    id: 'webhooks.deliveries',
    method: 'GET',
    path: '/webhooks/{id}/deliveries',
    entry: 'webhooks/list-webhook-deliveries',
    auth: 'apiKey',
    access: { table: 'read' },
    status: 200,
  },
  {
    id: 'webhooks.test',
    method: 'POST',
    path: '/webhooks/{id}/test',
    entry: 'webhooks/send-test-event',
    auth: 'apiKey',
    capability: 'webhooks',
    access: { table: 'write', sendsTo: 'webhookDeliveries' },
    status: 200,
  },
  {
    id: 'webhooks.redeliver',
    method: 'POST',
    path: '/webhooks/{id}/deliveries/{eventId}/redeliver',
    entry: 'webhooks/redeliver-event',
    auth: 'apiKey',
    capability: 'webhooks',
    access: { table: 'read', sendsTo: 'webhookDeliveries' },
    status: 200,
  },
] as const satisfies readonly RouteDef[];

export type RouteId = (typeof routes)[number]['id'];

/**
 * Answers every request no route matches (API Gateway's `$default` route, and the local gateway's fallback):
 * 404, or 405 when the path exists under another method.
 */
export const fallbackRoute = {
  id: 'system.not-found',
  method: 'GET',
  path: '/{proxy+}',
  entry: 'system/not-found',
  auth: 'none',
  access: {},
  status: 200,
} as const satisfies RouteDef;

export function routeById(id: RouteId): RouteDef {
  const route = routes.find((r) => r.id === id);
  if (!route) throw new Error(`unknown route id ${id}`);
  return route;
}
