// One CORS policy for the deployed HTTP API (corsPreflight) and the local gateway.
const allowMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const allowHeaders = ['content-type', 'x-api-key', 'authorization'];
const exposeHeaders = ['pagination-count', 'content-language', 'allow'];
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
