// The OpenAPI 3.1 document, generated from the route table (functions/routes.ts), each handler's contract (the zod
// schemas the pipeline validates with and the response it declares) and the event catalogue. Never edited by hand:
// `npm run openapi` writes docs/openapi.json, and a unit test fails when the committed file is stale.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod/mini';
import { routes } from '../../functions/routes.ts';
import { EVENT_CATALOGUE } from '../../shared/events/catalogue.ts';
import { apiDocs, emptyBody } from '../../shared/http/api-docs.ts';
import { errorBody, uploadRateExceededBody } from '../../shared/http/error-body.ts';
import { wireFormats } from '../../shared/http/params.ts';
import type { HttpHandler, RouteContract } from '../../shared/http/pipeline.ts';
import { RESPONSE_HEADERS } from '../../shared/http/response-headers.ts';
import { API_BASE_PATH, type RouteDef } from '../../shared/http/route-def.ts';
import { STATUS_TEXT } from '../../shared/http/status-text.ts';
import { webhookDelivery, WEBHOOK_DELIVERY_HEADERS } from './webhooks.ts';
import { API_DESCRIPTION, TAGS } from './prose.ts';

export const ROOT = join(import.meta.dirname, '..', '..');
export const DOCUMENT_PATH = join(ROOT, 'docs', 'openapi.json');
export const EXAMPLES_PATH = join(ROOT, 'docs', 'openapi-examples.json');

type Json = Record<string, unknown>;
export type Contract = RouteContract & { route: RouteDef };
/** Recorded responses, keyed `<route id> <status>` (docs/openapi-examples.json, written by `npm run openapi:examples`). */
export type ExampleSet = Record<string, unknown>;

/** Each route's contract, read from the handler module the route table names. */
export async function loadContracts(): Promise<Contract[]> {
  return Promise.all(
    routes.map(async (route) => {
      const module = (await import(join(ROOT, 'functions', `${route.entry}.ts`))) as { handler?: HttpHandler };
      const contract = module.handler?.contract;
      if (!contract) throw new Error(`functions/${route.entry}.ts exports no httpRoute(...) handler`);
      if (contract.route.id !== route.id) {
        throw new Error(`functions/${route.entry}.ts serves ${contract.route.id}, but the table says ${route.id}`);
      }
      return contract;
    }),
  );
}

export function readExamples(): ExampleSet {
  return JSON.parse(readFileSync(EXAMPLES_PATH, 'utf8')) as ExampleSet;
}

const COMPONENT_REF = '#/components/schemas/';
/** Prefix of schemas registered only for the duration of one generation and inlined afterwards. */
const INLINE_PREFIX = 'inline:';

export function buildDocument(contracts: readonly Contract[], examples: ExampleSet): Json {
  const schemas = new SchemaSet();
  const deliveries = Object.entries(EVENT_CATALOGUE).map(([name, event]) => ({
    name,
    event,
    body: webhookDelivery(name, event.resource),
  }));
  for (const contract of contracts) for (const schema of schemasOf(contract)) schemas.register(schema);
  for (const { name, body } of deliveries) schemas.register(body, `${pascalCase(name)}Event`);
  schemas.register(errorBody);
  schemas.register(uploadRateExceededBody);
  schemas.resolve();

  const paths: Record<string, Record<string, Json>> = {};
  for (const contract of contracts) {
    const path = contract.route.path;
    paths[path] ??= {};
    paths[path][contract.route.method.toLowerCase()] = operation(contract, schemas, examples);
  }
  const webhooks = Object.fromEntries(
    deliveries.map(({ name, event, body }) => [
      name,
      {
        post: {
          operationId: `webhook.${name}`,
          summary: `${name}: ${event.description}`,
          description:
            'POSTed to every enabled endpoint subscribed to this event. Verify `X-Webhook-Signature` over the raw body before parsing (see the typed client `verifyWebhook`), deduplicate by `X-Webhook-Id`, answer 2xx within 5 seconds.',
          parameters: WEBHOOK_DELIVERY_HEADERS,
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: schemas.output(body) },
            },
          },
          responses: {
            '2XX': { description: 'Received. Anything else (or no answer within 5 s) counts as a failed attempt.' },
          },
        },
      },
    ]),
  );
  return {
    openapi: '3.1.1',
    info: {
      title: 'Pet API',
      version: packageVersion(),
      description: API_DESCRIPTION,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: API_BASE_PATH, description: 'This service (the document is served from the same base path)' }],
    tags: usedTags(contracts),
    security: [{ ApiKey: [] }],
    paths,
    webhooks,
    components: { schemas: schemas.components(), securitySchemes: SECURITY_SCHEMES },
  };
}

/** Every zod schema a contract holds, each read in the direction it travels. */
function schemasOf(contract: Contract): z.ZodMiniType[] {
  const { params, query, body, form, response } = contract;
  return [params, query, body, form?.fields, response === emptyBody ? undefined : response].filter(
    (schema): schema is z.ZodMiniType => schema !== undefined,
  );
}

const pascalCase = (name: string) =>
  name
    .split(/[^a-zA-Z0-9]+/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');

const SECURITY_SCHEMES = {
  ApiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description:
      "The account's API key (`live_…`), shown once when the account is created or its key rotated. A missing or unknown key answers 403 (`missing_credentials`, `invalid_api_key`); an inactive account 401 (`account_inactive`).",
  },
  VetApiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description:
      'The API key of an account with the role `vet` (or `admin`); any other valid key answers 403 `vet_only`. Same header as `ApiKey`.',
  },
  AdminApiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description:
      'The API key of an account with the role `admin`; any other valid key answers 403 `admin_only`. Same header as `ApiKey`.',
  },
  BearerToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'A token from `POST /auth/token` (HS256, expires after `expires_in` seconds). An invalid or expired token answers 403 `invalid_token`.',
  },
};

const SECURITY: Record<RouteDef['auth'], Json[]> = {
  none: [],
  apiKey: [{ ApiKey: [] }],
  admin: [{ AdminApiKey: [] }],
  vet: [{ VetApiKey: [] }],
  bearer: [{ BearerToken: [] }],
  apiKeyOrBearer: [{ ApiKey: [] }, { BearerToken: [] }],
};

function operation(contract: Contract, schemas: SchemaSet, examples: ExampleSet): Json {
  const { route } = contract;
  return {
    operationId: route.id,
    summary: contract.summary,
    description: operationDescription(contract),
    tags: [tagOf(route)],
    security: SECURITY[route.auth],
    ...(route.feature && { 'x-required-feature': route.feature }),
    ...(route.capability && { 'x-capability': route.capability }),
    parameters: [...parameters(contract.params, 'path', schemas), ...parameters(contract.query, 'query', schemas)],
    ...requestBody(contract, schemas),
    responses: responses(contract, schemas, examples),
  };
}

function operationDescription({ route, description }: Contract): string {
  const notes = [
    route.feature && `Needs the account feature \`${route.feature}\` (403 \`feature_not_enabled\` without it).`,
    route.capability &&
      `Uses the capability \`${route.capability}\`, which an administrator can switch off per account (403 \`capability_disabled\`).`,
  ].filter(Boolean);
  return [description, ...notes].filter(Boolean).join('\n\n');
}

export function tagOf(route: RouteDef): string {
  const area = route.entry.split('/')[0]!;
  return TAGS[area]?.name ?? area;
}

function usedTags(contracts: readonly Contract[]): Json[] {
  const used = new Set(contracts.map((c) => c.route.entry.split('/')[0]!));
  return [...used].map((area) => ({ name: TAGS[area]?.name ?? area, description: TAGS[area]?.description ?? '' }));
}

function parameters(schema: z.ZodMiniType | undefined, location: 'path' | 'query', schemas: SchemaSet): Json[] {
  if (!schema) return [];
  const object = schemas.input(schema);
  const properties = (object.properties ?? {}) as Record<string, Json>;
  const required = new Set((object.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: location,
      required: location === 'path' || required.has(name),
      ...(description !== undefined && { description }),
      schema: rest,
      ...(rest.type === 'array' && { style: 'form', explode: false }),
    };
  });
}

function requestBody(contract: Contract, schemas: SchemaSet): Json {
  if (contract.body) {
    return {
      requestBody: { required: true, content: { 'application/json': { schema: schemas.input(contract.body) } } },
    };
  }
  if (!contract.form) return {};
  const { fields, limits } = contract.form;
  const form = schemas.input(fields);
  const properties = { ...((form.properties ?? {}) as Record<string, Json>) };
  const required = [...((form.required ?? []) as string[])];
  const megabytes = Math.round(limits.maxFileBytes / 1024 / 1024);
  for (const field of limits.allowedFileFields) {
    const file = { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' };
    properties[field] =
      limits.maxFiles > 1
        ? {
            type: 'array',
            items: file,
            maxItems: limits.maxFiles,
            description: `Up to ${limits.maxFiles} files of at most ${megabytes} MB each (repeat the field).`,
          }
        : { ...file, description: `One file of at most ${megabytes} MB.` };
  }
  return {
    requestBody: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: { ...form, properties, ...(required.length > 0 && { required }) },
        },
      },
    },
  };
}

function responses(contract: Contract, schemas: SchemaSet, examples: ExampleSet): Json {
  const { route } = contract;
  const status = String(route.status);
  const example = examples[`${route.id} ${status}`];
  const headers = Object.fromEntries(
    (contract.headers ?? []).map((name) => {
      const { name: spelled, ...header } = RESPONSE_HEADERS[name];
      return [spelled, header];
    }),
  );
  const success: Json = {
    description: STATUS_TEXT[route.status] ?? 'Success',
    ...(Object.keys(headers).length > 0 && { headers }),
  };
  if (contract.response !== emptyBody) {
    const schema = schemas.output(contract.response);
    success.content = Object.fromEntries(
      (contract.contentTypes ?? ['application/json']).map((type) => [
        type,
        { schema, ...(example !== undefined && { example }) },
      ]),
    );
  }
  const result: Json = { [status]: success };
  for (const [code, description] of errorStatuses(contract)) {
    const errorExample = examples[`${route.id} ${code}`];
    const schema =
      code === 429
        ? { anyOf: [schemas.output(uploadRateExceededBody), schemas.output(errorBody)] }
        : schemas.output(errorBody);
    result[String(code)] = {
      description,
      ...((code === 429 || code === 503) && {
        headers: {
          'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } },
        },
      }),
      content: { 'application/json': { schema, ...(errorExample !== undefined && { example: errorExample }) } },
    };
  }
  result.default = {
    description: 'Any other error (500 for an unexpected failure), in the same error record.',
    content: { 'application/json': { schema: schemas.output(errorBody) } },
  };
  return result;
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input: one message per problem; unknown query parameters and body fields are named.',
  401: 'The account is inactive (`account_inactive`).',
  403: 'Missing or invalid credentials, or not allowed: `missing_credentials`, `invalid_api_key`, `invalid_token`, `admin_only`, `feature_not_enabled`, `capability_disabled`, or another account’s resource.',
  404: 'Not found.',
  409: 'Conflict with the current state (e.g. a duplicate).',
  413: 'The body is too large (`body_too_large`, `file_too_large`).',
  415: 'The file type is not accepted (`unsupported_format`; `accepted` lists the types).',
  422: 'Well-formed but unusable input (e.g. an image that cannot be analysed).',
  429: 'Too many requests: `pet_upload_rate_exceeded` (100 new photos per pet per 24 hours) or another limit; see `Retry-After`.',
  503: 'A dependency is unavailable (e.g. `analysis_unavailable`); see `Retry-After`.',
};

/** The statuses the table entry implies, plus the ones the contract declares. */
export function errorStatuses(contract: Contract): [number, string][] {
  const { route } = contract;
  const statuses = new Set<number>([400]);
  if (route.auth !== 'none') {
    statuses.add(401);
    statuses.add(403);
  }
  if (route.path.includes('{')) statuses.add(404);
  if (contract.body || contract.form) statuses.add(413);
  for (const status of contract.errors ?? []) statuses.add(status);
  return [...statuses].sort((a, b) => a - b).map((s) => [s, ERROR_DESCRIPTIONS[s] ?? STATUS_TEXT[s] ?? 'Error']);
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * zod schemas → JSON Schema 2020-12 (zod's own converter). Named schemas (apiDocs ids) become components and are
 * referenced; the rest is inlined. Requests convert as their input, responses as their output. Every schema is
 * registered first and converted in one pass per direction, so each named schema becomes one component.
 */
class SchemaSet {
  private readonly unnamed = new Map<z.ZodMiniType, string>();
  private resolved: { input: Record<string, Json>; output: Record<string, Json> } | undefined;

  register(schema: z.ZodMiniType, name?: string): void {
    if (apiDocs.get(schema)?.id || this.unnamed.has(schema)) return;
    const id = name ?? `${INLINE_PREFIX}${this.unnamed.size}`;
    apiDocs.add(schema, { ...apiDocs.get(schema), id });
    this.unnamed.set(schema, id);
  }

  resolve(): void {
    try {
      this.resolved = { output: convert('output'), input: convert('input') };
    } finally {
      // Temporary ids must not outlive one generation (the registry is process-wide).
      for (const [schema, id] of this.unnamed) if (apiDocs.get(schema)?.id === id) apiDocs.remove(schema);
    }
  }

  input(schema: z.ZodMiniType): Json {
    return this.inline(this.resolved!.input[this.idOf(schema)]!);
  }

  output(schema: z.ZodMiniType): Json {
    const id = this.idOf(schema);
    return id.startsWith(INLINE_PREFIX) ? this.inline(this.resolved!.output[id]!) : { $ref: `${COMPONENT_REF}${id}` };
  }

  components(): Record<string, Json> {
    const entries = Object.entries(this.resolved!.output).filter(([id]) => !id.startsWith(INLINE_PREFIX));
    return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)).map(([id, s]) => [id, this.inline(s)]));
  }

  private idOf(schema: z.ZodMiniType): string {
    const id = this.unnamed.get(schema) ?? apiDocs.get(schema)?.id;
    if (!id) throw new Error('schema used in the document but never registered');
    return id;
  }

  /** Copies a converted schema, replacing references to temporary ids by the schema itself. */
  private inline(schema: Json): Json {
    return JSON.parse(JSON.stringify(schema), (_key, value) => {
      if (value && typeof value === 'object' && typeof value.$ref === 'string') {
        const id = (value.$ref as string).slice(COMPONENT_REF.length);
        if (id.startsWith(INLINE_PREFIX)) return this.inline(this.resolved!.output[id]!);
      }
      return value;
    }) as Json;
  }
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

function convert(io: 'input' | 'output'): Record<string, Json> {
  const { schemas } = z.toJSONSchema(apiDocs, {
    target: 'draft-2020-12',
    io,
    metadata: apiDocs,
    unrepresentable: 'any',
    uri: (id) => `${COMPONENT_REF}${id}`,
    override: ({ zodSchema, jsonSchema }) => {
      const schema = jsonSchema as Json;
      const wire = wireFormats.get(zodSchema);
      if (wire) {
        for (const key of Object.keys(schema)) delete schema[key];
        for (const [key, value] of Object.entries(wire)) if (value !== undefined) schema[key] = value;
      }
      const def = zodSchema._zod.def as unknown as { type: string; defaultValue?: unknown };
      if (def.type === 'default' && schema.default === undefined) schema.default = def.defaultValue;
      if (schema.minimum === -MAX_SAFE) delete schema.minimum;
      if (schema.maximum === MAX_SAFE) delete schema.maximum;
    },
  }) as unknown as { schemas: Record<string, Json> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return schemas;
}
