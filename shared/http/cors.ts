// One CORS policy for the deployed HTTP API (corsPreflight) and the local gateway.
const allowMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
// Every header the OpenAPI document takes or answers (tests/unit/http/cors.test.ts), so a browser client can send
// Idempotency-Key and read the retry and rate-limit headers; apigw-requestid is API Gateway's own, for error reports.
const allowHeaders = ['content-type', 'x-api-key', 'authorization', 'idempotency-key', 'if-none-match'];
const exposeHeaders = [
  'pagination-count',
  'next-cursor',
  'content-language',
  'allow',
  'etag',
  'retry-after',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'ratelimit-policy',
  'idempotent-replayed',
  'apigw-requestid',
];
const maxAgeSeconds = 600;

export const CORS = {
  allowMethods,
  allowHeaders: allowHeaders.join(','),
  allowHeaderList: allowHeaders,
  exposeHeaderList: exposeHeaders,
  maxAgeSeconds,
  preflightHeaders: {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': allowMethods.join(','),
    'access-control-max-age': String(maxAgeSeconds),
  },
  responseHeaders: {
    'access-control-allow-origin': '*',
    'access-control-expose-headers': exposeHeaders.join(','),
  },
} as const;
