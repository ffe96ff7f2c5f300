// Typed HTTP errors: domain code throws these; the pipeline turns them into the spec's error JSON.

export const STATUS_TEXT: Record<number, string> = {
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

export interface HttpErrorOptions {
  /** Stable machine-readable code; clients branch on statusCode and code, never on message. */
  code?: string;
  /** Extra top-level fields of the error body (e.g. the upload-rate details of a 429). */
  details?: Record<string, unknown>;
  headers?: Record<string, string>;
}

export class HttpError extends Error {
  readonly statusCode: number;
  readonly messages: string | string[];
  readonly code: string | undefined;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(statusCode: number, message: string | string[], options: HttpErrorOptions = {}) {
    super(Array.isArray(message) ? message.join('; ') : message);
    this.name = 'HttpError';
    this.statusCode = statusCode;
    this.messages = message;
    this.code = options.code;
    this.details = options.details;
    this.headers = options.headers;
  }
}

export const badRequest = (message: string | string[], options?: HttpErrorOptions) =>
  new HttpError(400, message, options);
export const unauthorized = (message: string, options?: HttpErrorOptions) => new HttpError(401, message, options);
export const forbidden = (message: string, options?: HttpErrorOptions) => new HttpError(403, message, options);
export const notFound = (message: string, options?: HttpErrorOptions) => new HttpError(404, message, options);
export const conflict = (message: string, options?: HttpErrorOptions) => new HttpError(409, message, options);
export const serviceUnavailable = (message: string, options?: HttpErrorOptions) => new HttpError(503, message, options);
