import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../../functions/routes.ts';
import { EVENT_NAMES } from '../../../shared/events/catalogue.ts';
import {
  buildDocument,
  CLIENT_IDEMPOTENT_PATH,
  CLIENT_TYPES_PATH,
  clientIdempotentOperations,
  clientTypes,
  DOCUMENT_PATH,
  loadContracts,
  readExamples,
  tagOf,
} from '../../../scripts/openapi/document.ts';

type Operation = { operationId: string; summary: string; tags: string[]; responses: Record<string, unknown> };

const committed = JSON.parse(readFileSync(DOCUMENT_PATH, 'utf8'));
let generated: Record<string, any>;

// Imports every handler module (93 of them), which takes more than the default 10 s on a loaded machine.
beforeAll(async () => {
  generated = buildDocument(await loadContracts(), readExamples());
}, 60_000);

const operations = (document: Record<string, any>) =>
  Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
  );

describe('docs/openapi.json', () => {
  it('is what `npm run openapi` generates from the route table and the handlers’ contracts', () => {
    const fresh = JSON.stringify(generated, null, 2);
    expect(
      JSON.stringify(committed, null, 2) === fresh,
      'docs/openapi.json is out of date: run `npm run openapi` and commit docs/openapi.json',
    ).toBe(true);
  });

  it('has the typed client generated from it (clients/ts/src/schema.ts)', async () => {
    expect(
      readFileSync(CLIENT_TYPES_PATH, 'utf8') === (await clientTypes(committed)),
      'clients/ts/src/schema.ts is out of date: run `npm run openapi` and commit it',
    ).toBe(true);
  });

  it('has the client’s list of idempotent operations generated from it (clients/ts/src/idempotent-operations.ts)', () => {
    expect(
      readFileSync(CLIENT_IDEMPOTENT_PATH, 'utf8') === clientIdempotentOperations(committed),
      'clients/ts/src/idempotent-operations.ts is out of date: run `npm run openapi` and commit it',
    ).toBe(true);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(structuredClone(generated));
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(generated.openapi).toMatch(/^3\.1\./);
  });

  it('holds every route of the table, by method, path and operationId = route id, and nothing else', () => {
    const documented = operations(generated).map((o) => `${o.method} ${o.path} ${o.operation.operationId}`);
    const table = routes.map((r) => `${r.method} ${r.path} ${r.id}`);
    expect(documented.sort()).toEqual(table.sort());
  });

  it('gives every operation a summary, its route group, its success status and the error record', () => {
    for (const route of routes) {
      const operation = generated.paths[route.path][route.method.toLowerCase()] as Operation;
      expect(operation.summary, route.id).toMatch(/\S/);
      expect(operation.tags, route.id).toEqual([tagOf(route)]);
      expect(Object.keys(operation.responses), route.id).toContain(String(route.status));
      expect(operation.responses.default, route.id).toMatchObject({
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      });
    }
    const tagNames = (generated.tags as { name: string }[]).map((t) => t.name);
    expect(new Set(routes.map(tagOf))).toEqual(new Set(tagNames));
  });

  it('describes every event of the catalogue as a webhook with the signature header', () => {
    expect(Object.keys(generated.webhooks).sort()).toEqual([...EVENT_NAMES].sort());
    for (const name of EVENT_NAMES) {
      const headers = generated.webhooks[name].post.parameters.map((p: { name: string }) => p.name);
      expect(headers).toContain('X-Webhook-Signature');
    }
  });

  it('documents query rules as the API applies them: integer bounds, defaults, enums and lists', () => {
    const parameter = (path: string, name: string) =>
      generated.paths[path].get.parameters.find((p: { name: string }) => p.name === name);
    expect(parameter('/facts', 'limit').schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 10 });
    expect(parameter('/breeds', 'order').schema.enum).toEqual(['ASC', 'DESC', 'RANDOM']);
    expect(parameter('/images/search', 'breed_ids')).toMatchObject({ style: 'form', explode: false });
    expect(parameter('/breeds/search', 'q')).toMatchObject({ required: true });
  });
});
