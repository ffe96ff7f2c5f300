import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import * as z from 'zod/mini';
import { authenticate } from '../auth/authenticate.ts';
import { getDeps, type Deps } from '../deps.ts';
import type { Logger } from '../log.ts';
import type { Account } from '../domain/accounts/account.ts';
import type { RouteDef } from './route-def.ts';
import { badRequest, AppError } from '../errors.ts';
import { MAX_JSON_BODY_BYTES } from './limits.ts';
import { observeRequests } from './observe.ts';
import { refuseDirectRequests } from './origin-check.ts';
import {
  compressIfAccepted,
  errorResponse,
  jsonResponse,
  PreparedReply,
  RawReply,
  Reply,
  type HttpResult,
} from './responses.ts';
import { type RequestPart, type Schema, validateRequest } from './validation.ts';
import { rateLimitHeaders, takeRequest } from '../domain/accounts/rate-limits.ts';
import { isIdempotent, rateClassOf } from './guards.ts';
import { idempotencyKeyOf, idempotentResponse } from './idempotency.ts';
import type { parseMultipart, MultipartLimits, UploadedFile } from '../media/multipart.ts';
import type { ErrorStatus } from './status-text.ts';
import type { ResponseHeaderName } from './response-headers.ts';

/**
 * What a route declares beside its table entry: the request schemas the pipeline validates with, the schema of its
 * success body (which types the handler's answer), and what the reference says of it. The OpenAPI document
 * (scripts/openapi) is generated from these, so a route without a `summary` or a response schema is a type error, and
 * every field documented here is the one the code runs on. What the pipeline guards (authentication, bearer tokens,
 * `Idempotency-Key`, rate limits) follows from the table entry alone.
 */
export interface RouteContract {
  /** One line for the reference (OpenAPI `summary`). */
  summary: string;
  /** Longer prose: rules, limits, what the spec leaves open (OpenAPI `description`, Markdown). */
  description?: string;
  params?: Schema;
  query?: Schema;
  body?: Schema;
  /** The success body (JSON, or what `contentTypes` names). */
  response: Schema;
  /**
   * multipart/form-data routes: the parser (passed in, so it enters only the bundles of upload routes),
   * its limits and a schema for the text fields.
   */
  form?: { parse: typeof parseMultipart; limits: MultipartLimits; fields: Schema };
  /** Media types of the success body when it is not JSON (the handler returns a `RawReply`). */
  contentTypes?: readonly string[];
  /** Headers the success response carries besides content-type (described in shared/http/response-headers.ts). */
  headers?: readonly ResponseHeaderName[];
  /** Error statuses beyond those the route table implies (see scripts/openapi/errors.ts). */
  errors?: readonly ErrorStatus[];
}

type Out<S, K extends keyof RouteContract> =
  S extends Record<K, infer T extends Schema> ? z.output<T> : Record<string, never>;
type CallerOf<R extends RouteDef> = R['auth'] extends 'none' ? null : Account;

type FormOut<S> = S extends { form: { fields: infer T extends Schema } }
  ? { fields: z.output<T>; files: UploadedFile[] }
  : undefined;

export interface HttpRequest<S extends RouteContract, Caller> {
  params: Out<S, 'params'>;
  query: Out<S, 'query'>;
  body: Out<S, 'body'>;
  form: FormOut<S>;
  account: Caller;
  /** Lower-cased request headers. */
  headers: Record<string, string | undefined>;
  path: string;
  requestId: string;
  /** Milliseconds this invocation may still run (the Lambda's remaining time): the budget of any waiting it does. */
  timeLeftMs: () => number;
}

/** The body the route's response schema describes, as the handler builds it (serialised as JSON). */
type ResponseBody<S extends RouteContract> = z.input<S['response']>;

type Handler<R extends RouteDef, S extends RouteContract> = (
  request: HttpRequest<S, CallerOf<R>>,
  deps: Deps,
) => Promise<ResponseBody<S> | Reply<ResponseBody<S>>>;

/** Routes without a query schema accept no query parameters at all. */
const NO_QUERY = z.strictObject({});
const ANY_PARAMS = z.record(z.string(), z.string());

type Event = APIGatewayProxyEventV2;

interface RequestState {
  account: Account | null;
  idempotencyKey: string | undefined;
  /** `RateLimit-*` of the account's window on limited routes, on every answer. */
  rateHeaders: Record<string, string>;
}

/**
 * The one HTTP pipeline: header normalisation, authentication (per the route table), JSON body parsing,
 * validation of path, query and body, serialisation with compression, and the spec's error JSON for
 * every failure. Handlers get typed input and return the response body (or a `Reply` with headers).
 */
export function httpRoute<R extends RouteDef, S extends RouteContract>(
  route: R,
  schemas: S,
  handle: Handler<R, S>,
): HttpHandler {
  const state = new WeakMap<Event, RequestState>();
  const rateClass = rateClassOf(route);
  const idempotent = isIdempotent(route);
  const observed = observeRequests(route, (event) => state.get(event)?.account?.id);

  const pipeline = middy<Event, HttpResult>({ timeoutEarlyInMillis: 0 })
    .use(observed.middleware)
    .use({
      before: async (request) => {
        normaliseEvent(request.event);
        const deps = getDeps();
        await refuseDirectRequests(deps, request.event.headers);
        const account = await authenticate(deps, route, request.event.headers);
        const idempotencyKey = idempotent ? idempotencyKeyOf(request.event.headers) : undefined;
        // Every request to a limited route counts, replays included: the window is taken before anything else runs.
        const window = account && rateClass ? await takeRequest(deps, account, rateClass) : undefined;
        state.set(request.event, { account, idempotencyKey, rateHeaders: window ? rateLimitHeaders(window) : {} });
      },
    });
  // Authentication runs before body parsing, so an anonymous caller learns nothing about the body rules.
  if (schemas.body) pipeline.use({ before: (request) => refuseOversizedBody(request.event) }).use(httpJsonBodyParser());
  pipeline.use({
    onError: async (request) => {
      const response = toErrorResponse(request.error, request.event, observed.logFor(request.event, request.context));
      const rateHeaders = state.get(request.event)?.rateHeaders;
      request.response = rateHeaders ? { ...response, headers: { ...response.headers, ...rateHeaders } } : response;
    },
  });

  const handler = pipeline.handler(async (event, context) => {
    const deps = { ...getDeps(), log: observed.logFor(event, context) };
    const { account, idempotencyKey, rateHeaders } = state.get(event)!;
    if (!schemas.body && !schemas.form && hasBody(event)) throw badRequest('This route takes no request body');
    const form = schemas.form ? await parseForm(event, schemas.form) : undefined;
    const parts: RequestPart[] = [
      { location: 'params', schema: schemas.params ?? ANY_PARAMS, input: event.pathParameters ?? {} },
      { location: 'query', schema: schemas.query ?? NO_QUERY, input: event.queryStringParameters ?? {} },
      ...(schemas.body ? [{ location: 'body' as const, schema: schemas.body, input: event.body }] : []),
      ...(form ? [{ location: 'body' as const, schema: schemas.form!.fields, input: form.fields }] : []),
    ];
    const [params, query, content] = await validateRequest(parts, deps);
    const request = {
      params,
      query,
      body: schemas.body ? content : {},
      form: form && { fields: content, files: form.files },
      account,
      headers: event.headers as Record<string, string | undefined>,
      path: event.rawPath,
      requestId: context.awsRequestId,
      timeLeftMs: () => context.getRemainingTimeInMillis(),
    } as HttpRequest<S, CallerOf<R>>;
    const respond = async () => {
      const result = await handle(request, deps);
      if (result instanceof PreparedReply) return result.result;
      if (result instanceof RawReply) return { statusCode: route.status, headers: result.headers, body: result.body };
      return result instanceof Reply
        ? jsonResponse(route.status, result.body, result.headers)
        : jsonResponse(route.status, result);
    };
    const response =
      idempotencyKey && account
        ? await idempotentResponse(
            deps,
            route,
            { accountId: account.id, key: idempotencyKey, request },
            context,
            respond,
            (refusal) => errorResponse(refusal, event.rawPath ?? '', deps.now()),
          )
        : await respond();
    return compressIfAccepted(
      { ...response, headers: { ...response.headers, ...rateHeaders } },
      event.headers['accept-encoding'],
    );
  });
  return Object.assign(handler, { contract: { route, ...schemas } });
}

/** A route's Lambda handler, carrying its table entry and contract for the OpenAPI generator. */
export type HttpHandler = ((event: Event, context: Context) => Promise<HttpResult>) & {
  contract: RouteContract & { route: RouteDef };
};

/** API Gateway v2 already lower-cases header names; the local gateway and hand-built test events may not. */
function normaliseEvent(event: Event): void {
  const headers: Event['headers'] = {};
  for (const name in event.headers) headers[name.toLowerCase()] = event.headers[name];
  event.headers = headers;
  event.queryStringParameters ??= {};
  event.pathParameters ??= {};
}

/** The form's parts as sent; its text fields are validated with the rest of the request. */
async function parseForm(event: Event, form: NonNullable<RouteContract['form']>) {
  const contentType = event.headers['content-type'] ?? '';
  if (!event.body) throw badRequest('A multipart/form-data body is required', { code: 'invalid_multipart' });
  const raw = Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
  return form.parse(raw, contentType, form.limits);
}

/** JSON bodies are capped before parsing, so no request can make the parser or the validator work on megabytes. */
function refuseOversizedBody(event: Event): void {
  if (!hasBody(event)) return;
  const bytes = Buffer.byteLength(event.body!, event.isBase64Encoded ? 'base64' : 'utf8');
  if (bytes > MAX_JSON_BODY_BYTES) {
    throw new AppError(413, `The JSON body must be at most ${MAX_JSON_BODY_BYTES} bytes (got ${bytes})`, {
      code: 'body_too_large',
      details: { limit_bytes: MAX_JSON_BODY_BYTES },
    });
  }
}

function hasBody(event: Event): boolean {
  return typeof event.body === 'string' && event.body.length > 0;
}

const BODY_PARSER = '@middy/http-json-body-parser';

function toErrorResponse(error: unknown, event: Event, log: Logger): HttpResult {
  const deps = getDeps();
  const path = event.rawPath ?? '';
  if (error instanceof AppError) return errorResponse(error, path, deps.now());
  if (isBodyParserError(error)) {
    const message =
      error.message === 'Unsupported Media Type'
        ? 'Content-Type must be application/json'
        : 'Request body is not valid JSON';
    return errorResponse(badRequest(message, { code: 'invalid_body' }), path, deps.now());
  }
  log.error('unhandled error', { path, method: event.requestContext?.http?.method, error });
  return errorResponse(new AppError(500, 'Internal server error'), path, deps.now());
}

function isBodyParserError(error: unknown): error is Error {
  const cause = (error as { cause?: { package?: string } } | undefined)?.cause;
  return error instanceof Error && cause?.package === BODY_PARSER;
}
