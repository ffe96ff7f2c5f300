// The core's one error type. Services throw it; the HTTP pipeline turns it into the spec's error JSON (status,
// code, message) and the consumer wrapper decides from `retryable` whether a message is handed back to its queue
// or dropped as permanently failed. Anything else thrown is unexpected: a 500 over HTTP, a retry in a consumer.

export interface AppErrorOptions {
  /** Stable machine-readable code; clients branch on status and code, never on message. */
  code?: string;
  /** Extra top-level fields of the error body (e.g. the upload-rate details of a 429). */
  details?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Whether trying the same work again later can succeed; defaults to true for 5xx and 429 only. */
  retryable?: boolean;
}

export class AppError extends Error {
  readonly status: number;
  readonly messages: string | string[];
  readonly code: string | undefined;
  readonly retryable: boolean;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(status: number, message: string | string[], options: AppErrorOptions = {}) {
    super(Array.isArray(message) ? message.join('; ') : message);
    this.name = 'AppError';
    this.status = status;
    this.messages = message;
    this.code = options.code;
    this.retryable = options.retryable ?? (status >= 500 || status === 429);
    this.details = options.details;
    this.headers = options.headers;
  }
}

export const badRequest = (message: string | string[], options?: AppErrorOptions) =>
  new AppError(400, message, options);
export const unauthorized = (message: string, options?: AppErrorOptions) => new AppError(401, message, options);
export const forbidden = (message: string, options?: AppErrorOptions) => new AppError(403, message, options);
export const notFound = (message: string, options?: AppErrorOptions) => new AppError(404, message, options);
export const conflict = (message: string, options?: AppErrorOptions) => new AppError(409, message, options);
export const serviceUnavailable = (message: string, options?: AppErrorOptions) => new AppError(503, message, options);

/** A 429 with `Retry-After` (whole seconds), for every rate rule: per pet photo slots, per account request windows. */
export const tooManyRequests = (
  message: string,
  options: AppErrorOptions & { retryAfterSeconds?: number | undefined },
) => {
  const { retryAfterSeconds, ...rest } = options;
  return new AppError(429, message, {
    ...rest,
    ...(retryAfterSeconds !== undefined && {
      headers: { ...rest.headers, 'retry-after': String(retryAfterSeconds) },
    }),
  });
};
