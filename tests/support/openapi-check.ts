// Every response the integration tests receive is checked against docs/openapi.json: the route's schema for that
// status (or the default error record), its documented success headers, and nothing undocumented in between.
// api-client.ts calls this once per response, so no test has to. With RECORD_OPENAPI_EXAMPLES=<dir> it also keeps
// the first response of each route and status as an example (`npm run openapi:examples` collects them).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { routes } from '../../functions/routes.ts';
import { DOCUMENT_PATH } from '../../scripts/openapi/document.ts';
import { createRouteMatcher } from '../../shared/routing/match.ts';

type Json = Record<string, any>;

const DOCUMENT_ID = 'https://pet-api.local/openapi.json';
const document = JSON.parse(readFileSync(DOCUMENT_PATH, 'utf8')) as Json;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addFormat('binary', true);
ajv.addSchema({ ...document, $id: DOCUMENT_ID });
const match = createRouteMatcher(routes);
const validators = new Map<string, ReturnType<typeof ajv.compile>>();

const pointer = (...segments: string[]) => segments.map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

function validatorAt(...segments: string[]) {
  const ref = `${DOCUMENT_ID}#/${pointer(...segments)}`;
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    validators.set(ref, validate);
  }
  return validate;
}

export interface ReceivedResponse {
  method: string;
  /** The request path below the base path, with or without its query string. */
  path: string;
  status: number;
  headers: Headers;
  text: string;
}

/** Throws when the response does not match the document; returns the route id it matched (if any). */
export function assertMatchesDocument(res: ReceivedResponse, options: { record?: boolean } = {}): string | undefined {
  const where = `${res.method} ${res.path} → ${res.status}`;
  const routePath = res.path.split('?')[0]!;
  const found = match(res.method, routePath);
  if (found.kind !== 'route') {
    // No route (404, 405): the fallback answers with the error record.
    check(where, validatorAt('components', 'schemas', 'Error'), parse(where, res.text));
    return undefined;
  }
  const { route } = found;
  const operation = document.paths[route.path]?.[route.method.toLowerCase()] as Json | undefined;
  if (!operation) throw new Error(`${where}: route ${route.id} is not in docs/openapi.json (run npm run openapi)`);
  const status = String(res.status);
  const documented = operation.responses[status] ? status : 'default';
  if (documented === 'default' && res.status < 400) {
    throw new Error(`${where}: ${route.id} documents no ${status} response`);
  }
  const response = operation.responses[documented] as Json;
  const contentType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (!response.content) {
    if (res.text !== '') throw new Error(`${where}: documented without a body, got ${res.text.slice(0, 200)}`);
  } else if (contentType === 'application/json') {
    const body = parse(where, res.text);
    check(
      where,
      validatorAt(
        'paths',
        route.path,
        route.method.toLowerCase(),
        'responses',
        documented,
        'content',
        'application/json',
        'schema',
      ),
      body,
    );
    if (options.record !== false) record(route.id, status, body);
  } else if (!response.content[contentType]) {
    throw new Error(`${where}: content-type ${contentType} is not documented for ${route.id}`);
  }
  if (res.status < 400) {
    for (const [header, spec] of Object.entries((response.headers ?? {}) as Record<string, { required?: boolean }>)) {
      if (spec.required && !res.headers.has(header))
        throw new Error(`${where}: documented header ${header} is missing`);
    }
  }
  return route.id;
}

function parse(where: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${where}: the body is not JSON: ${text.slice(0, 200)}`);
  }
}

function check(where: string, validate: ReturnType<typeof ajv.compile>, body: unknown): void {
  if (validate(body)) return;
  const problems = (validate.errors ?? []).slice(0, 10).map((e) => `${e.instancePath || '/'} ${e.message}`);
  throw new Error(
    `${where}: the response does not match docs/openapi.json:\n  ${problems.join('\n  ')}\n  body: ${JSON.stringify(body).slice(0, 500)}`,
  );
}

const recordTo = process.env.RECORD_OPENAPI_EXAMPLES;

/** Keeps the first response of each route and status (files are written exclusively, so parallel workers agree). */
function record(routeId: string, status: string, body: unknown): void {
  if (!recordTo) return;
  mkdirSync(recordTo, { recursive: true });
  try {
    writeFileSync(join(recordTo, `${routeId} ${status}.json`), JSON.stringify(body), { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}
