// What a route declares: the types the route table (functions/routes.ts) is written in. They live below the entry
// points so the pipeline, authentication and matching read routes without importing functions/.
import type { Access } from '../access.ts';
import type { Capability } from '../domain/accounts/account.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How a caller proves who it is: see docs/ARCHITECTURE.md#authentication. */
export type AuthMode = 'none' | 'apiKey' | 'bearer' | 'apiKeyOrBearer' | 'admin' | 'vet';

/** The queues a route may send to (their consumers are in events/consumers.ts). */
type RouteQueue = 'webhookDeliveries' | 'portraits';

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
  access: Access<RouteQueue>;
  /** Success status, from the spec. */
  status: 200 | 201 | 202 | 204;
  /**
   * The success body holds a secret shown only once (an API key, a webhook signing secret). Such a body is never
   * stored, so the route ignores `Idempotency-Key` (a stored replay would keep the secret in plain text for 24 hours).
   */
  oneTimeSecret?: true;
  /**
   * Files the handler reads at run time, by their path in the repository, copied into its Lambda package at the same
   * path: npm package files below node_modules/ (the same `require.resolve` finds them locally and deployed) and files
   * of this repository such as docs/openapi.json (found by `bundledFile`, shared/http/served-document.ts).
   */
  bundledFiles?: readonly string[];
}

export const API_BASE_PATH = '/v1';

/** Looks up a route of `table` by id, typed as declared there. */
export function routesById<const Table extends readonly RouteDef[]>(table: Table) {
  return <Id extends Table[number]['id']>(id: Id): Extract<Table[number], { id: Id }> => {
    const found = table.find((r) => r.id === id);
    if (!found) throw new Error(`unknown route id ${id}`);
    return found as Extract<Table[number], { id: Id }>;
  };
}
