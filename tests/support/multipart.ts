// multipart/form-data bodies and events for handler tests of the upload routes (images, pets).
import { httpEvent } from './http-event.ts';

export const BOUNDARY = 'test-boundary';

export type FormPart = { name: string; filename?: string; content: Buffer | string };

/** The base64 body API Gateway hands a handler for these parts (files when `filename` is set). */
export function multipart(parts: FormPart[]): string {
  const chunks = parts.flatMap((p) => [
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}\r\n\r\n`,
    ),
    Buffer.isBuffer(p.content) ? p.content : Buffer.from(p.content),
    Buffer.from('\r\n'),
  ]);
  return Buffer.concat([...chunks, Buffer.from(`--${BOUNDARY}--\r\n`)]).toString('base64');
}

/** A POST of a multipart body (from `multipart`, or hand-made to be malformed) under an API key. */
export const formEvent = (path: string, key: string, body: string, pathParameters?: Record<string, string>) => ({
  ...httpEvent({
    method: 'POST',
    path,
    headers: { 'x-api-key': key, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    ...(pathParameters && { pathParameters }),
  }),
  body,
  isBase64Encoded: true,
});
