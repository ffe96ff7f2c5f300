// multipart/form-data bodies (RFC 7578) parsed into text fields and in-memory files. API Gateway hands the function
// the whole body, already base64-decoded, so the parser scans that one Buffer for its delimiters (RFC 2046: CRLF,
// "--" and the boundary) instead of streaming: linear in the body's size, the headers of each part bounded, nothing
// copied. Every problem becomes an AppError the pipeline can answer with. A broken body wins over policy failures
// (counts, sizes, names), because what is measured on it cannot be trusted; of the policy failures the first is
// reported. Why our own and not a library: docs/decisions.md ("Our own multipart/form-data parser").

import { badRequest, AppError } from '../errors.ts';
import { replaceForbiddenCharacters } from '../schema/params.ts';
import { echo } from '../schema/echo.ts';

export interface MultipartLimits {
  maxFileBytes: number;
  maxFiles: number;
  maxFields: number;
  /** Form field names that may carry files; a file under any other name is rejected. */
  allowedFileFields: string[];
}

export interface UploadedFile {
  field: string;
  /** Client-supplied and untrusted: path components are stripped, use it for display only. */
  filename: string;
  /** Client-supplied and untrusted (`text/plain` when the part names none, RFC 7578): detect the format from the bytes. */
  declaredType: string;
  /** A view into the request body, not a copy. */
  bytes: Buffer;
  /** Whether the parser cut the file short; oversized files are rejected instead, so this stays false. */
  truncated: boolean;
}

export interface MultipartForm {
  fields: Record<string, string>;
  files: UploadedFile[];
}

/** Text values beyond this are refused rather than silently cut. */
export const MAX_FIELD_VALUE_BYTES = 64 * 1024;
/** The header block of one part, blank line included: what Node's HTTP parser allows a request's headers. */
export const MAX_PART_HEADER_BYTES = 16 * 1024;
export const MAX_FILENAME_LENGTH = 255;

/** RFC 2046: 1 to 70 of these characters, the last not a space. */
const BOUNDARY = /^[\w'()+,./:=? -]{0,69}[\w'()+,./:=?-]$/;
/** One `; name=value` parameter (RFC 9110: a token or a quoted-string), from `lastIndex` on. */
const PARAMETER =
  /[ \t]*;[ \t]*([!#$%&'*+.^_`|~\w-]+)=(?:"((?:[\t !#-[\]-~\x80-\xff]|\\[\t\x20-\x7e\x80-\xff])*)"|([!#$%&'*+.^_`|~\w-]+))/y;
/** RFC 8187 ext-value of a `name*` parameter: charset, language, percent-encoded bytes. */
const EXTENDED_VALUE = /^([^']+)'[^']*'((?:[^%'*]|%[\da-f]{2})*)$/i;
/** One header line (RFC 9110 field-name ":" OWS field-value), the block already unfolded. */
const HEADER_LINE = /^([!#$%&'*+.^_`|~\w-]+):[ \t]*([\t\x20-\x7e\x80-\xff]*)$/;

const invalidMultipart = (message: string) => badRequest(message, { code: 'invalid_multipart' });
const malformedPart = (part: number, problem: string) =>
  invalidMultipart(`malformed multipart body: part ${part} ${problem}`);

export async function parseMultipart(
  body: Buffer,
  contentType: string,
  limits: MultipartLimits,
): Promise<MultipartForm> {
  const mediaType = /^multipart\/form-data(?=\s*(;|$))/i.exec(contentType.trim());
  if (!mediaType) throw invalidMultipart(`Content-Type must be multipart/form-data, got '${echo(contentType)}'`);
  const boundary = parseParameters(mediaType.input, mediaType[0].length)?.get('boundary');
  if (!boundary || !BOUNDARY.test(boundary)) {
    throw invalidMultipart('multipart/form-data Content-Type has no valid boundary parameter');
  }

  // A Map, so a field named "__proto__" is stored like any other instead of hitting the prototype setter.
  const fields = new Map<string, string>();
  const files: UploadedFile[] = [];
  let fileCount = 0;
  let fieldCount = 0;
  /** Keeps a part, or answers why not. A part over a count limit is not counted. */
  const keep = ({ name, filename, declaredType, charset, bytes }: Part): AppError | undefined => {
    // A part without a file name is a file when sent as application/octet-stream (an empty file input's part).
    if (filename !== undefined || declaredType === 'application/octet-stream') {
      if (fileCount === limits.maxFiles) {
        return badRequest(`too many files; at most ${limits.maxFiles} allowed`, { code: 'too_many_files' });
      }
      fileCount++;
      if (!limits.allowedFileFields.includes(name)) {
        const allowed = limits.allowedFileFields.map((field) => `'${field}'`).join(', ');
        return badRequest(`unexpected file field '${echo(name)}'; files are accepted only in: ${allowed}`, {
          code: 'unexpected_file_field',
        });
      }
      if (bytes.length > limits.maxFileBytes) return fileTooLarge(filename, limits.maxFileBytes);
      files.push({ field: name, filename: storableFilename(filename), declaredType, bytes, truncated: false });
      return undefined;
    }
    if (fieldCount === limits.maxFields) {
      return badRequest(`too many fields; at most ${limits.maxFields} allowed`, { code: 'too_many_fields' });
    }
    fieldCount++;
    const problem =
      bytes.length > MAX_FIELD_VALUE_BYTES
        ? `is longer than ${MAX_FIELD_VALUE_BYTES} bytes`
        : fields.has(name)
          ? 'appears more than once'
          : undefined;
    const value = problem ? undefined : decodeText(bytes, charset);
    if (value === undefined)
      return badRequest(`field '${echo(name)}' ${problem ?? `is in an unknown charset '${echo(charset!)}'`}`);
    fields.set(name, value);
    return undefined;
  };

  // Only the first policy failure is reported, and only once the whole body has proved well-formed.
  let failure: AppError | undefined;
  for (const part of readParts(body, Buffer.from(`\r\n--${boundary}`))) failure ??= keep(part);
  if (failure) throw failure;
  return { fields: Object.fromEntries(fields), files };
}

interface Part {
  name: string;
  /** The last path segment of `filename*` or else `filename`; undefined when neither is given or both are empty. */
  filename: string | undefined;
  declaredType: string;
  charset: string | undefined;
  bytes: Buffer;
}

/**
 * The parts of a body, in order, each a view into it, or an AppError for the first structural problem. Each search
 * starts where the last one ended, so the whole body is scanned once (plus at most MAX_PART_HEADER_BYTES of each
 * part for its blank line).
 */
function* readParts(body: Buffer, delimiter: Buffer): Generator<Part> {
  const unclosed = () => invalidMultipart('multipart body ends without the closing boundary declared in Content-Type');
  // The first boundary opens the body or ends a preamble (ignored, RFC 2046), so it may lack the leading CRLF.
  let delimiterAt = body.subarray(0, delimiter.length - 2).equals(delimiter.subarray(2)) ? -2 : body.indexOf(delimiter);
  if (delimiterAt === -1) throw unclosed();
  for (let part = 1; ; part++) {
    let at = delimiterAt + delimiter.length;
    if (body[at] === 45 && body[at + 1] === 45) return; // "--": the close delimiter; the epilogue is ignored
    while (body[at] === 32 || body[at] === 9) at++; // transport padding
    if (body[at] !== 13 || body[at + 1] !== 10) {
      throw at + 1 < body.length ? malformedPart(part, 'has other text on its boundary line') : unclosed();
    }
    delimiterAt = body.indexOf(delimiter, at + 2);
    if (delimiterAt === -1) throw unclosed();

    const content = body.subarray(at + 2, delimiterAt);
    const headerEnd = content.subarray(0, MAX_PART_HEADER_BYTES).indexOf('\r\n\r\n');
    if (headerEnd === -1)
      throw malformedPart(part, `has no blank line ending its headers within ${MAX_PART_HEADER_BYTES} bytes`);
    const headers = parseHeaders(content.toString('latin1', 0, headerEnd));
    if (!headers) throw malformedPart(part, 'has a malformed header line');
    const disposition = headers.get('content-disposition') ?? '';
    const params = /^form-data(?=[ \t;]|$)/i.test(disposition) ? parseParameters(disposition, 9) : undefined;
    const name = params?.get('name');
    if (!name) throw malformedPart(part, 'has no valid Content-Disposition: form-data header with a name');
    const mediaType = parseMediaType(headers.get('content-type'));
    yield {
      name,
      filename: baseName(params!.get('filename*') || params!.get('filename') || undefined),
      declaredType: mediaType?.type ?? 'text/plain',
      charset: mediaType?.params.get('charset'),
      bytes: content.subarray(headerEnd + 4),
    };
  }
}

/** A part's header block by lower-cased name (the first of repeated ones), or undefined when a line is malformed. */
function parseHeaders(block: string): Map<string, string> | undefined {
  const headers = new Map<string, string>();
  // A line starting with a space or tab continues the one before (obsolete folding): the line break goes.
  for (const line of block.replace(/\r\n(?=[ \t])/g, '').split('\r\n')) {
    const header = HEADER_LINE.exec(line);
    if (!header) return undefined;
    const name = header[1]!.toLowerCase();
    if (!headers.has(name)) headers.set(name, header[2]!);
  }
  return headers;
}

/** `type/subtype` (lower-cased) and parameters of a Content-Type value, or undefined when it is malformed. */
function parseMediaType(value = '') {
  const type = /^[!#$%&'*+.^_`|~\w-]+\/[!#$%&'*+.^_`|~\w-]+/.exec(value);
  const params = type && parseParameters(value, type[0].length);
  return params && { type: type[0].toLowerCase(), params };
}

/**
 * The `; name=value` parameters from `at` to the end of `text`, by lower-cased name (the first of repeated ones), or
 * undefined when one is malformed. A quoted value loses the backslash only before `"` and `\`, so a Windows path sent
 * unescaped keeps its separators. Values are UTF-8, which browsers send raw; a `name*` value is decoded from the
 * charset it names (RFC 8187).
 */
function parseParameters(text: string, at: number): Map<string, string> | undefined {
  const params = new Map<string, string>();
  PARAMETER.lastIndex = at;
  for (let param = PARAMETER.exec(text); param; param = PARAMETER.exec(text)) {
    const [, rawName, quoted, token] = param;
    const name = rawName!.toLowerCase();
    const value = name.endsWith('*')
      ? extendedValue(token)
      : Buffer.from(quoted?.replace(/\\([\\"])/g, '$1') ?? token!, 'latin1').toString();
    if (value === undefined) return undefined;
    if (!params.has(name)) params.set(name, value);
    at = PARAMETER.lastIndex;
  }
  return /^[ \t]*$/.test(text.slice(at)) ? params : undefined;
}

function extendedValue(token: string | undefined): string | undefined {
  const value = token && EXTENDED_VALUE.exec(token);
  if (!value) return undefined;
  const bytes = value[2]!.replace(/%(..)/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return decodeText(Buffer.from(bytes, 'latin1'), value[1]);
}

/** `bytes` as text in `charset` (a WHATWG Encoding label; a byte order mark is kept), undefined for an unknown one. */
function decodeText(bytes: Uint8Array, charset = 'utf-8'): string | undefined {
  try {
    return new TextDecoder(charset, { ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The last segment of a client path (after `/` or `\`); `.` and `..` become empty. */
function baseName(path: string | undefined): string | undefined {
  const name = path?.replace(/^.*[/\\]/s, '');
  return name === '.' || name === '..' ? '' : name;
}

/**
 * `parseMultipart` for a route that has a two-step upload: a file over the direct limit is 413 `use_two_step_upload`
 * naming the way forward (`what` over N MB take the two-step upload: `wayForward`).
 */
export const parseMultipartOrTwoStep =
  (what: string, wayForward: string): typeof parseMultipart =>
  (body, contentType, limits) =>
    parseMultipart(body, contentType, limits).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'file_too_large') {
        throw new AppError(
          413,
          `${what} over ${limits.maxFileBytes / 1024 / 1024} MB take the two-step upload: ${wayForward}`,
          { code: 'use_two_step_upload' },
        );
      }
      throw error;
    });

/** The client's file name as kept: cut to MAX_FILENAME_LENGTH, forbidden characters replaced by U+FFFD. */
function storableFilename(filename: string | undefined): string {
  return replaceForbiddenCharacters([...(filename ?? '')].slice(0, MAX_FILENAME_LENGTH).join(''));
}

function fileTooLarge(filename: string | undefined, maxFileBytes: number): AppError {
  const name = filename ? `file '${echo(filename)}'` : 'a file';
  return new AppError(413, `${name} exceeds the ${formatBytes(maxFileBytes)} upload limit`, {
    code: 'file_too_large',
  });
}

function formatBytes(bytes: number): string {
  const mebibytes = bytes / (1024 * 1024);
  return Number.isInteger(mebibytes) ? `${mebibytes} MB` : `${bytes}-byte`;
}
