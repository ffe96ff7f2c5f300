import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { gunzipSync } from 'node:zlib';

export interface EventInput {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  pathParameters?: Record<string, string>;
  body?: unknown;
}

/** An HTTP API (payload 2.0) event as API Gateway would send it. */
export function httpEvent(input: EventInput): APIGatewayProxyEventV2 {
  const method = input.method ?? 'GET';
  const body =
    input.body === undefined ? undefined : typeof input.body === 'string' ? input.body : JSON.stringify(input.body);
  const headers = {
    ...(body !== undefined && typeof input.body !== 'string' && { 'content-type': 'application/json' }),
    ...input.headers,
  };
  return {
    version: '2.0',
    routeKey: `${method} ${input.path}`,
    rawPath: input.path,
    rawQueryString: new URLSearchParams(input.query ?? {}).toString(),
    headers,
    ...(input.query && { queryStringParameters: input.query }),
    ...(input.pathParameters && { pathParameters: input.pathParameters }),
    ...(body !== undefined && { body }),
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'test',
      domainName: 'test.local',
      domainPrefix: 'test',
      http: { method, path: input.path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
      requestId: 'req-1',
      routeKey: `${method} ${input.path}`,
      stage: '$default',
      time: '22/Nov/2026:12:00:00 +0000',
      timeEpoch: 1795348800000,
    },
  };
}

export const lambdaContext = { awsRequestId: 'req-1', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

/** The decoded JSON body of a handler result (gunzipped when compressed). */
export function jsonBody(result: unknown): any {
  const r = result as APIGatewayProxyStructuredResultV2;
  const raw = r.isBase64Encoded ? gunzipSync(Buffer.from(r.body ?? '', 'base64')).toString('utf8') : (r.body ?? '');
  return raw === '' ? undefined : JSON.parse(raw);
}

/** Invokes a handler with a GET of `/v1${path}` under an API key: the shape every reference-route test calls. */
export function callWithKey(
  handler: (event: any, context: any) => Promise<any>,
  key: string,
  path: string,
  query?: Record<string, string>,
  pathParameters?: Record<string, string>,
): Promise<any> {
  return handler(
    httpEvent({
      path: `/v1${path}`,
      headers: { 'x-api-key': key },
      ...(query && { query }),
      ...(pathParameters && { pathParameters }),
    }),
    lambdaContext,
  );
}

/** Invokes a handler with a JSON POST to `/v1${path}` under an API key. */
export function postWithKey(
  handler: (event: any, context: any) => Promise<any>,
  key: string,
  path: string,
  body: unknown,
  pathParameters?: Record<string, string>,
): Promise<any> {
  return handler(
    httpEvent({
      method: 'POST',
      path: `/v1${path}`,
      headers: { 'x-api-key': key },
      body,
      ...(pathParameters && { pathParameters }),
    }),
    lambdaContext,
  );
}
