// Failed calls as one typed error: the spec's error record (statusCode, code, message) plus the request id to quote
// when asking about a request.

/** Headers that carry the id of a request: API Gateway's, then the usual fallbacks of proxies. */
const REQUEST_ID_HEADERS = ['apigw-requestid', 'x-amzn-requestid', 'x-request-id'];

export class PetApiError extends Error {
  override readonly name = 'PetApiError';
  /** The HTTP status. */
  readonly statusCode: number;
  /** The machine-readable code when the API sent one (e.g. `favourite_exists`); branch on it and on statusCode. */
  readonly code: string | undefined;
  /** Every problem of a validation error (`message` joins them), or the one message. */
  readonly messages: readonly string[];
  readonly requestId: string | undefined;
  /** The parsed error body as received (it may hold more fields, e.g. `limit` of `pet_upload_rate_exceeded`). */
  readonly body: unknown;

  constructor(response: Response, body: unknown) {
    const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const messages = messagesOf(record.message, response);
    super(messages.join('; '));
    this.statusCode = response.status;
    this.code = typeof record.code === 'string' ? record.code : undefined;
    this.messages = messages;
    this.requestId = REQUEST_ID_HEADERS.map((h) => response.headers.get(h)).find((id) => id !== null) ?? undefined;
    this.body = body;
  }
}

function messagesOf(message: unknown, response: Response): string[] {
  if (typeof message === 'string') return [message];
  if (Array.isArray(message) && message.every((m) => typeof m === 'string') && message.length > 0) return message;
  return [`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`];
}

/** What every call of the typed client answers (openapi-fetch's result). */
export interface CallResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a successful call; a failed one throws PetApiError. `await unwrap(api.GET('/pets/{petId}', …))`. */
export async function unwrap<T>(call: Promise<CallResult<T>> | CallResult<T>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw new PetApiError(response, error);
  return data as T;
}
