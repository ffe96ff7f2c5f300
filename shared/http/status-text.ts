// Reason phrases of the statuses the API answers with (the `error` field of the spec's error JSON).

export const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** Error statuses a route may declare beyond those its table entry implies (scripts/openapi/errors.ts). */
export type ErrorStatus = 409 | 413 | 415 | 422 | 429 | 503;
