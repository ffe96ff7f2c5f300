// multipart/form-data bodies (as API Gateway hands them over, already base64-decoded) parsed into
// text fields and in-memory files. Every problem becomes an AppError the pipeline can answer with;
// the promise always settles because the whole body is written at once and every file stream is drained.

import busboy from 'busboy';
import type { Readable } from 'node:stream';
import { badRequest, AppError } from '../errors.ts';
import { replaceForbiddenCharacters } from '../http/params.ts';
import { echo } from '../http/validation.ts';

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
  /** Client-supplied and untrusted: detect the real format from the bytes. */
  declaredType: string;
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

const invalidMultipart = (message: string) => badRequest(message, { code: 'invalid_multipart' });

export async function parseMultipart(
  body: Buffer,
  contentType: string,
  limits: MultipartLimits,
): Promise<MultipartForm> {
  if (!/^multipart\/form-data\s*(;|$)/i.test(contentType.trim())) {
    throw invalidMultipart(`Content-Type must be multipart/form-data, got '${echo(contentType)}'`);
  }
  return collectForm(createParser(contentType, limits), body, limits);
}

function createParser(contentType: string, limits: MultipartLimits): busboy.Busboy {
  try {
    return busboy({
      headers: { 'content-type': contentType },
      // Browsers send raw UTF-8 in filename="…"; busboy's latin1 default would garble non-ASCII names.
      defParamCharset: 'utf8',
      // Busboy flags a part as over the limit once it *reaches* the size, so allow one byte more
      // to accept parts of exactly the maximum.
      limits: {
        fileSize: limits.maxFileBytes + 1,
        files: limits.maxFiles,
        fields: limits.maxFields,
        fieldSize: MAX_FIELD_VALUE_BYTES + 1,
      },
    });
  } catch {
    // Past the media-type check above, busboy throws only for a missing, empty or unparsable boundary.
    throw invalidMultipart('multipart/form-data Content-Type has no valid boundary parameter');
  }
}

function collectForm(parser: busboy.Busboy, body: Buffer, limits: MultipartLimits): Promise<MultipartForm> {
  return new Promise((resolve, reject) => {
    // A Map, so a field named "__proto__" is stored like any other instead of hitting the prototype setter.
    const fields = new Map<string, string>();
    const files: UploadedFile[] = [];
    // Busboy keeps emitting after the first problem; only the first one is reported.
    let failure: AppError | undefined;
    const fail = (error: AppError) => {
      failure ??= error;
    };

    parser.on('field', (name, value, info) => {
      if (info.valueTruncated)
        return fail(badRequest(`field '${echo(name)}' is longer than ${MAX_FIELD_VALUE_BYTES} bytes`));
      if (fields.has(name)) return fail(badRequest(`field '${echo(name)}' appears more than once`));
      fields.set(name, value);
    });

    parser.on('file', (field, stream, info) => {
      // A part cut short by a broken body errors here and again on the parser, which reports it.
      stream.on('error', () => undefined);
      if (!limits.allowedFileFields.includes(field)) {
        stream.resume();
        const allowed = limits.allowedFileFields.map((name) => `'${name}'`).join(', ');
        return fail(
          badRequest(`unexpected file field '${echo(field)}'; files are accepted only in: ${allowed}`, {
            code: 'unexpected_file_field',
          }),
        );
      }
      stream.on('limit', () => fail(fileTooLarge(info.filename, limits.maxFileBytes)));
      readFile(stream, (bytes, truncated) => {
        files.push({ field, filename: storableFilename(info.filename), declaredType: info.mimeType, bytes, truncated });
      });
    });

    parser.on('filesLimit', () =>
      fail(badRequest(`too many files; at most ${limits.maxFiles} allowed`, { code: 'too_many_files' })),
    );
    parser.on('fieldsLimit', () =>
      fail(badRequest(`too many fields; at most ${limits.maxFields} allowed`, { code: 'too_many_fields' })),
    );

    // A broken body wins over policy failures: sizes and counts measured on it are not trustworthy.
    parser.on('error', (error: unknown) => reject(describeParserError(error)));
    parser.on('close', () => (failure ? reject(failure) : resolve({ fields: Object.fromEntries(fields), files })));

    parser.end(body);
  });
}

/** Drains a file part completely (an undrained stream would stall the parser) and hands over its bytes. */
function readFile(
  stream: Readable & { truncated?: boolean },
  onComplete: (bytes: Buffer, truncated: boolean) => void,
): void {
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => onComplete(Buffer.concat(chunks), stream.truncated === true));
}

function describeParserError(error: unknown): AppError {
  const reason = error instanceof Error ? error.message : String(error);
  // Also what a body written with a different boundary than the header's looks like.
  if (reason === 'Unexpected end of form') {
    return invalidMultipart('multipart body ends without the closing boundary declared in Content-Type');
  }
  return invalidMultipart(`malformed multipart body: ${reason}`);
}

/** Longer client file names are cut: they are kept for display only. */
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

export const MAX_FILENAME_LENGTH = 255;

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
