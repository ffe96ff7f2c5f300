// What the delivery log keeps of a receiver's reply: a few headers and the start of the body, bounded before storing.

/** The body's first bytes kept per attempt. */
export const EXCERPT_BYTES = 4096;
/** Headers that explain a failure (a redirect's target, a throttle's wait, what the body is, the receiver's trace id). */
const KEPT_HEADERS = ['content-type', 'content-length', 'location', 'retry-after', 'x-request-id'] as const;
const MAX_HEADER_CHARS = 256;

export interface ResponseExcerpt {
  headers: Record<string, string>;
  /** The body's start as UTF-8 text, or null when it is not UTF-8 text (`body_binary`) or empty. */
  body: string | null;
  body_binary: boolean;
  /** More bytes arrived than `body` shows. */
  body_truncated: boolean;
}

/** Keeps the first EXCERPT_BYTES of a body as it streams in; the rest is only counted. */
export class BodyPrefix {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private received = 0;

  add(chunk: Buffer): void {
    this.received += chunk.length;
    if (this.kept >= EXCERPT_BYTES) return;
    const part = chunk.subarray(0, EXCERPT_BYTES - this.kept);
    this.chunks.push(part);
    this.kept += part.length;
  }

  excerpt(rawHeaders: Record<string, string | string[] | undefined>): ResponseExcerpt {
    const bytes = Buffer.concat(this.chunks);
    const text = utf8Prefix(bytes);
    return {
      headers: keptHeaders(rawHeaders),
      body: text === undefined || text === '' ? null : text,
      body_binary: text === undefined,
      body_truncated: this.received > bytes.length || (text !== undefined && Buffer.byteLength(text) < bytes.length),
    };
  }
}

/**
 * The bytes as text, cut before a character the cut split (the streaming decoder holds an incomplete last sequence
 * back), or undefined when they are not UTF-8 or hold control characters other than tab and line breaks.
 */
function utf8Prefix(bytes: Buffer): string | undefined {
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes, { stream: true });
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what marks a binary body
    return /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(text) ? undefined : text;
  } catch {
    return undefined;
  }
}

function keptHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = raw[name];
    if (value !== undefined) kept[name] = (Array.isArray(value) ? value.join(', ') : value).slice(0, MAX_HEADER_CHARS);
  }
  return kept;
}
