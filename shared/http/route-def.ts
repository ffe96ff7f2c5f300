// What a route declares: the types the route table (functions/routes.ts) is written in. They live below the entry
// points so the pipeline, authentication and matching read routes without importing functions/.
import type { Capability } from '../domain/accounts/account.ts';
import type { Schema } from './validation.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How a caller proves who it is: see docs/ARCHITECTURE.md#authentication. */
export type AuthMode = 'none' | 'apiKey' | 'bearer' | 'apiKeyOrBearer' | 'admin' | 'vet';

export interface RouteAccess {
  /** Single-table DynamoDB access; `read` grants GetItem/BatchGetItem/Query only. */
  table?: 'read' | 'write';
  /** The media bucket's uploads/ prefix: write = put and delete objects (and presign uploads). */
  media?: 'write';
  /** Reads the bearer-token signing secret (Secrets Manager when deployed). */
  tokenSecret?: 'read';
  /** Encrypts webhook signing secrets (KMS deployed). */
  webhookSecrets?: 'encrypt';
  /** Pet media under the bucket's pets/ prefix: read = sign GET URLs; write = also put, list and delete objects. */
  petMedia?: 'read' | 'write';
  /** Sends messages to this queue. */
  sendsTo?: 'webhookDeliveries' | 'portraits';
  /** Asks the stage's vision model (Bedrock InvokeModel on that one model deployed). */
  visionModel?: 'invoke';
  /**
   * The requests table (idempotency records, rate-limit windows): read = the caller's rate windows. Write is never
   * declared: the pipeline's guards imply it (shared/http/guards.ts `accessWithGuards`).
   */
  requests?: 'read' | 'write';
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

/**
 * What each route of a table answers, by route id: the zod schema of its success body (functions/<area>/responses.ts).
 * Only the OpenAPI generator reads these schemas; handlers know them as types (`routesById`), so none is bundled.
 */
export type ResponseSchemas<Table extends readonly RouteDef[]> = Record<Table[number]['id'], Schema>;

/** Types a route entry with the schema of its success body; there is no such property at run time. */
declare const responseSchema: unique symbol;
export type AnsweredWith<Response extends Schema> = { readonly [responseSchema]?: Response };

/**
 * Looks up a route of `table` by id, typed as declared there and with its success body's schema from `Responses` (a
 * type only: handlers pass the entry to `httpRoute`, which types their answer by it).
 */
export function routesById<
  const Table extends readonly RouteDef[],
  Responses extends Partial<ResponseSchemas<Table>> = Partial<ResponseSchemas<Table>>,
>(table: Table) {
  type Entry<Id extends Table[number]['id']> = Extract<Table[number], { id: Id }> &
    (Responses[Id] extends Schema ? AnsweredWith<Responses[Id]> : unknown);
  return <Id extends Table[number]['id']>(id: Id): Entry<Id> => {
    const found = table.find((r) => r.id === id);
    if (!found) throw new Error(`unknown route id ${id}`);
    return found as Entry<Id>;
  };
}
