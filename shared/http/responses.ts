import { gzipSync } from 'node:zlib';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { AppError } from '../errors.ts';
import { echo } from '../schema/echo.ts';
import { MAX_ERROR_MESSAGE_CHARS, MAX_ERROR_MESSAGES_BYTES } from './limits.ts';
import { STATUS_TEXT } from './status-text.ts';

/** A handler result that needs headers besides the JSON body (e.g. `Pagination-Count`). */
export class Reply<T = unknown> {
  constructor(
    readonly body: T,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** The spec's answer to deletes of votes, favourites and uploads (its schema: `successMessage`, for the document). */
export const SUCCESS = { message: 'SUCCESS' } as const;

export const withHeaders = <T>(body: T, headers: Record<string, string>) => new Reply(body, headers);

/** What a translated answer knows of its languages (the core's `Translator`). */
interface ServedLanguages {
  contentLanguage: string;
}

/** The body with a `Content-Language` header naming every language the records were served in. */
export const translatedReply = <T>(body: T, { translator }: { translator: ServedLanguages }) =>
  withHeaders(body, { 'content-language': translator.contentLanguage });

/** A page-style list: `Pagination-Count` carries every match, `Content-Language` the languages served. */
export const listReply = <T>(body: T[], total: number, translator: ServedLanguages) =>
  withHeaders(body, { 'pagination-count': String(total), 'content-language': translator.contentLanguage });

/** A handler result sent as it is, not as JSON: the API reference page and its assets. */
export class RawReply extends Reply<string> {
  constructor(body: string, contentType: string, headers: Record<string, string> = {}) {
    super(body, { ...headers, 'content-type': contentType });
  }
}

export type HttpResult = APIGatewayProxyStructuredResultV2 & { headers: Record<string, string> };

/** A handler result sent exactly as built (status, headers, encoded body): a precompressed document, a 304. */
export class PreparedReply extends Reply<never> {
  constructor(readonly result: HttpResult) {
    super(undefined as never);
  }
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const JSON_HEADERS = { 'content-type': JSON_CONTENT_TYPE };
/** Bodies smaller than this are not worth a gzip frame. */
const COMPRESSION_THRESHOLD_BYTES = 1024;

export function jsonResponse(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return {
    statusCode,
    headers: { ...JSON_HEADERS, ...headers },
    body: statusCode === 204 || body === undefined ? '' : JSON.stringify(body),
  };
}

/**
 * The spec's error JSON: `{statusCode, timestamp, path, message, error, code?}`. The path and every message are cut
 * here, whatever the route put in them, so no error body echoes unbounded input (MAX_ERROR_BODY_BYTES).
 */
export function errorResponse(error: AppError, path: string, now: Date): HttpResult {
  const body = {
    statusCode: error.status,
    timestamp: now.toISOString(),
    path: echo(path),
    message: boundedMessages(error.messages),
    error: STATUS_TEXT[error.status] ?? 'Error',
    ...(error.code !== undefined && { code: error.code }),
    ...error.details,
  };
  return jsonResponse(error.status, body, error.headers);
}

/** Each message cut to MAX_ERROR_MESSAGE_CHARS; a list keeps the messages that fit MAX_ERROR_MESSAGES_BYTES. */
function boundedMessages(messages: string | string[]): string | string[] {
  if (!Array.isArray(messages)) return echo(messages, MAX_ERROR_MESSAGE_CHARS);
  const kept: string[] = [];
  let bytes = 0;
  for (const message of messages) {
    const cut = echo(message, MAX_ERROR_MESSAGE_CHARS);
    bytes += Buffer.byteLength(JSON.stringify(cut));
    if (bytes > MAX_ERROR_MESSAGES_BYTES) {
      kept.push(`…and ${messages.length - kept.length} more messages, cut to keep the error small`);
      break;
    }
    kept.push(cut);
  }
  return kept;
}

/** Gzips large bodies for clients that accept it (the 1,000-breed list is ~0.5 MB of JSON). */
export function compressIfAccepted(result: HttpResult, acceptEncoding: string | undefined): HttpResult {
  const body = result.body ?? '';
  if (result.isBase64Encoded || result.headers['content-encoding']) return result; // already encoded by its handler
  if (!acceptEncoding || Buffer.byteLength(body) < COMPRESSION_THRESHOLD_BYTES || !acceptsGzip(acceptEncoding)) {
    return result;
  }
  return {
    ...result,
    headers: {
      ...result.headers,
      'content-encoding': 'gzip',
      vary: result.headers.vary ? `${result.headers.vary}, accept-encoding` : 'accept-encoding',
    },
    body: gzipSync(body).toString('base64'),
    isBase64Encoded: true,
  };
}

export function acceptsGzip(acceptEncoding: string): boolean {
  return acceptEncoding.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return (coding === 'gzip' || coding === '*') && (q === undefined || Number(q.slice(2)) > 0);
  });
}
