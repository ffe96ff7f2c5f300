// multipart/form-data bodies (RFC 7578) parsed by busboy into text fields and in-memory files. API Gateway hands the
// function the whole body, already base64-decoded. busboy reads part headers, Content-Disposition parameters
// (quoted, RFC 8187 `filename*`), file names and field charsets; a thin framing pass in front of it refuses what
// busboy skips silently (text after a boundary, a part's headers without their end) and hands it each part on its
// own, so a part busboy drops or leaves nameless is refused by number. Every problem becomes an AppError the pipeline
// can answer with. A broken body wins over policy failures (counts, sizes, names), because what is measured on it
// cannot be trusted; of the policy failures the first is reported. Why busboy and this pass: docs/decisions.md
// ("multipart/form-data on busboy").

import busboy from 'busboy';
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
/**
 * The header block of one part, blank line included. busboy's own bound (16 KiB) counts two bytes more for every
 * header line, so it falls between 12 and 16 KiB by the line count; at 8 KiB (at most 2,048 lines) this one always
 * binds first, exactly, with its own message.
 */
export const MAX_PART_HEADER_BYTES = 8 * 1024;
export const MAX_FILENAME_LENGTH = 255;

/** RFC 2046: 1 to 70 of these characters, the last not a space. */
const BOUNDARY = /^[\w'()+,./:=? -]{0,69}[\w'()+,./:=?-]$/;
/** One `; name=value` parameter (RFC 9110: a token or a quoted-string), from `lastIndex` on. */
const PARAMETER =
  /[ \t]*;[ \t]*([!#$%&'*+.^_`|~\w-]+)=(?:"((?:[\t !#-[\]-~\x80-\xff]|\\[\t\x20-\x7e\x80-\xff])*)"|([!#$%&'*+.^_`|~\w-]+))/y;

const invalidMultipart = (message: string) => badRequest(message, { code: 'invalid_multipart' });
const malformedPart = (part: number, problem: string) =>
  invalidMultipart(`malformed multipart body: part ${part} ${problem}`);

export async function parseMultipart(
  body: Buffer,
  contentType: string,
  limits: MultipartLimits,
): Promise<MultipartForm> {
  const { mediaType, boundary } = checkContentType(contentType);
  const parser = busboy({
    headers: { 'content-type': mediaType },
    // Browsers send raw UTF-8 in name="…" and filename="…"; busboy's latin1 default would garble them.
    defParamCharset: 'utf8',
    // Busboy flags a value once it *reaches* the size, so one byte more accepts a value of exactly the maximum.
    limits: { fieldSize: MAX_FIELD_VALUE_BYTES + 1 },
    // A file stream never fills up, so busboy never waits for its reader: each write is parsed before it returns.
    fileHwm: body.length + 1,
  });
  const form = new FormCollector(limits);
  form.listenTo(parser);
  const delimiter = `\r\n--${boundary}`;
  try {
    parser.write(delimiter);
    for (const { part, content } of frameParts(body, boundary)) {
      form.startPart(content);
      parser.write(part);
      parser.write(delimiter);
      form.endPart();
    }
    parser.write('--');
  } finally {
    parser.destroy();
  }
  return form.result();
}

const NO_NAME = 'has no valid Content-Disposition: form-data header with a name';

/** A multipart/form-data Content-Type, trimmed, and its boundary, checked against RFC 2046 (busboy takes any). */
function checkContentType(contentType: string): { mediaType: string; boundary: string } {
  const mediaType = /^multipart\/form-data(?=\s*(;|$))/i.exec(contentType.trim());
  if (!mediaType) throw invalidMultipart(`Content-Type must be multipart/form-data, got '${echo(contentType)}'`);
  let boundary: string | undefined;
  let at = mediaType[0].length;
  PARAMETER.lastIndex = at;
  for (let param = PARAMETER.exec(mediaType.input); param; param = PARAMETER.exec(mediaType.input)) {
    const [, name, quoted, token] = param;
    if (name!.toLowerCase() === 'boundary') boundary ??= quoted?.replace(/\\(.)/g, '$1') ?? token;
    at = PARAMETER.lastIndex;
  }
  const wellFormed = /^[ \t]*$/.test(mediaType.input.slice(at));
  if (!wellFormed || !boundary || !BOUNDARY.test(boundary)) {
    throw invalidMultipart('multipart/form-data Content-Type has no valid boundary parameter');
  }
  return { mediaType: mediaType.input, boundary };
}

/**
 * The parts of a body in order, each without its boundary line (headers and content) and its content alone, as
 * views into the body; an AppError for a framing problem. busboy skips text after a boundary to the next boundary
 * (cutting a file short unnoticed) and drops a part after transport padding, so this pass checks each boundary line
 * (RFC 2046: the delimiter, spaces or tabs, CRLF) and hands busboy the parts without it. Each search starts where the
 * last one ended: one pass over the body, plus at most MAX_PART_HEADER_BYTES of each part for its blank line.
 */
function* frameParts(body: Buffer, boundary: string): Generator<{ part: Buffer; content: Buffer }> {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
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
    const framed = body.subarray(at + 2, delimiterAt);
    const headerEnd = framed.subarray(0, MAX_PART_HEADER_BYTES).indexOf('\r\n\r\n');
    if (headerEnd === -1)
      throw malformedPart(part, `has no blank line ending its headers within ${MAX_PART_HEADER_BYTES} bytes`);
    // From the CRLF that ends the boundary line: busboy needs it, and gets no transport padding before it.
    yield { part: body.subarray(at, delimiterAt), content: framed.subarray(headerEnd + 4) };
  }
}

/**
 * What busboy reports, part by part, under the route's limits: the kept fields and files, the first structural
 * problem and the first policy failure. busboy parses each write before it returns, reporting a file once its headers
 * are read and a field at the delimiter that ends it; a part it drops (no form-data Content-Disposition, or one it
 * cannot read) reports nothing.
 */
class FormCollector {
  // A Map, so a field named "__proto__" is stored like any other instead of hitting the prototype setter.
  private readonly fields = new Map<string, string>();
  private readonly files: UploadedFile[] = [];
  private fileCount = 0;
  private fieldCount = 0;
  private failure: AppError | undefined;
  private broken: AppError | undefined;
  /** The part being written, its content (a view into the body), and the last part busboy reported. */
  private part = 0;
  private content: Buffer = Buffer.alloc(0);
  private reported = 0;

  constructor(private readonly limits: MultipartLimits) {}

  listenTo(parser: busboy.Busboy): void {
    parser.on('field', (name, value, info) => this.judge(name, () => this.keepField(name, value, info.valueTruncated)));
    parser.on('file', (name, stream, info) => {
      stream.on('error', () => undefined).resume();
      this.judge(name, () => this.keepFile(name, info.filename, info.mimeType, this.content));
    });
    parser.on('error', () => this.breakPart('has a malformed header line'));
  }

  startPart(content: Buffer): void {
    this.part++;
    this.content = content;
  }

  /** Throws the first structural problem so far, a part busboy dropped included. */
  endPart(): void {
    if (this.reported !== this.part) this.breakPart(NO_NAME);
    if (this.broken) throw this.broken;
  }

  private breakPart(problem: string): void {
    this.broken ??= malformedPart(this.part, problem);
  }

  /** Keeps a part by `keep` until the first policy failure; later parts are not judged. */
  private judge(name: string | undefined, keep: () => AppError | undefined): void {
    this.reported = this.part;
    if (name === undefined) this.breakPart(NO_NAME);
    else this.failure ??= keep();
  }

  /** A file part, or why not. A part over a count limit is not counted. */
  private keepFile(
    name: string,
    filename: string | undefined,
    declaredType: string,
    bytes: Buffer,
  ): AppError | undefined {
    const { maxFiles, allowedFileFields, maxFileBytes } = this.limits;
    if (this.fileCount === maxFiles) {
      return badRequest(`too many files; at most ${maxFiles} allowed`, { code: 'too_many_files' });
    }
    this.fileCount++;
    if (!allowedFileFields.includes(name)) {
      const allowed = allowedFileFields.map((field) => `'${field}'`).join(', ');
      return badRequest(`unexpected file field '${echo(name)}'; files are accepted only in: ${allowed}`, {
        code: 'unexpected_file_field',
      });
    }
    if (bytes.length > maxFileBytes) return fileTooLarge(filename, maxFileBytes);
    this.files.push({ field: name, filename: storableFilename(filename), declaredType, bytes, truncated: false });
    return undefined;
  }

  /** A text field, or why not; busboy gives no value for a charset it cannot decode. */
  private keepField(name: string, value: string | undefined, truncated: boolean): AppError | undefined {
    if (this.fieldCount === this.limits.maxFields) {
      return badRequest(`too many fields; at most ${this.limits.maxFields} allowed`, { code: 'too_many_fields' });
    }
    this.fieldCount++;
    const problem = truncated
      ? `is longer than ${MAX_FIELD_VALUE_BYTES} bytes`
      : this.fields.has(name)
        ? 'appears more than once'
        : value === undefined
          ? 'is in a charset this API cannot read (send UTF-8)'
          : undefined;
    if (problem) return badRequest(`field '${echo(name)}' ${problem}`);
    this.fields.set(name, value!);
    return undefined;
  }

  result(): MultipartForm {
    if (this.failure) throw this.failure;
    return { fields: Object.fromEntries(this.fields), files: this.files };
  }
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
