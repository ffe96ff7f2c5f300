import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.ts';
import { MAX_FIELD_VALUE_BYTES, parseMultipart, type MultipartLimits } from '../../../shared/media/multipart.ts';

const BOUNDARY = '----PetFormBoundary7MA4YWxkTrZu0gW';
const CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

const LIMITS: MultipartLimits = { maxFileBytes: 1024, maxFiles: 3, maxFields: 5, allowedFileFields: ['images'] };

type Part =
  | { name: string; value: string }
  | { name: string; filename: string; type?: string; bytes: Buffer; disposition?: string };

/** Serialises parts the way a browser does; `closed: false` leaves off the final boundary. */
function multipartBody(parts: Part[], { boundary = BOUNDARY, closed = true } = {}): Buffer {
  const chunks = parts.flatMap((part) => {
    if ('value' in part) {
      return [
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`),
      ];
    }
    const disposition = part.disposition ?? `form-data; name="${part.name}"; filename="${part.filename}"`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\nContent-Type: ${part.type ?? 'application/octet-stream'}\r\n\r\n`;
    return [Buffer.from(head), part.bytes, Buffer.from('\r\n')];
  });
  if (closed) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

const image = (name = 'images', bytes = Buffer.from('bytes'), filename = 'pet.jpg'): Part => ({
  name,
  filename,
  type: 'image/jpeg',
  bytes,
});

async function rejectionOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('parseMultipart', () => {
  it('keeps a file name SQS can carry: cut to 255 characters, U+FFFF and U+FFFE replaced, emoji kept', async () => {
    const body = multipartBody([image('images', Buffer.from('x'), `\u{1F436}-\uFFFF\uFFFE-${'n'.repeat(400)}.jpg`)]);

    const { files } = await parseMultipart(body, CONTENT_TYPE, LIMITS);

    expect(files[0]!.filename).toBe(`\u{1F436}-\uFFFD\uFFFD-${'n'.repeat(250)}`);
  });

  it('returns text fields and files with their bytes intact', async () => {
    const jpeg = await sharp({ create: { width: 12, height: 8, channels: 3, background: '#3a7' } })
      .jpeg()
      .toBuffer();
    const tricky = Buffer.concat([Buffer.from(`\r\n--${BOUNDARY.slice(0, -1)}\r\n`), Buffer.from([0, 255, 13, 10])]);
    const body = multipartBody([
      { name: 'name', value: 'Rex' },
      { name: 'description', value: 'Good boy\r\nlikes --dashes--' },
      image('images', jpeg, 'rex.jpg'),
      { name: 'images', filename: 'almost-boundary.bin', bytes: tricky },
    ]);
    const form = await parseMultipart(body, CONTENT_TYPE, LIMITS);
    expect(form.fields).toEqual({ name: 'Rex', description: 'Good boy\r\nlikes --dashes--' });
    expect(form.files).toEqual([
      { field: 'images', filename: 'rex.jpg', declaredType: 'image/jpeg', bytes: jpeg, truncated: false },
      {
        field: 'images',
        filename: 'almost-boundary.bin',
        declaredType: 'application/octet-stream',
        bytes: tricky,
        truncated: false,
      },
    ]);
  });

  it('decodes a raw UTF-8 filename as browsers send it', async () => {
    const form = await parseMultipart(
      multipartBody([image('images', Buffer.from('x'), 'Füchschen 🐶 小狗.jpg')]),
      CONTENT_TYPE,
      LIMITS,
    );
    expect(form.files[0]?.filename).toBe('Füchschen 🐶 小狗.jpg');
  });

  it('decodes an RFC 5987 filename* parameter', async () => {
    const disposition = `form-data; name="images"; filename*=UTF-8''%C3%A9t%C3%A9%20%F0%9F%90%B1.png`;
    const body = multipartBody([{ name: 'images', filename: '', bytes: Buffer.from('x'), disposition }]);
    const form = await parseMultipart(body, CONTENT_TYPE, LIMITS);
    expect(form.files[0]?.filename).toBe('été 🐱.png');
  });

  it('keeps only the last path segment of a filename', async () => {
    const form = await parseMultipart(
      multipartBody([image('images', Buffer.from('x'), '../../etc/passwd')]),
      CONTENT_TYPE,
      LIMITS,
    );
    expect(form.files[0]?.filename).toBe('passwd');
  });

  it('accepts a media type written in any letter case', async () => {
    const form = await parseMultipart(
      multipartBody([{ name: 'name', value: 'Rex' }]),
      `Multipart/Form-Data; boundary=${BOUNDARY}`,
      LIMITS,
    );
    expect(form.fields).toEqual({ name: 'Rex' });
  });

  it('stores a field named __proto__ as an ordinary field', async () => {
    const form = await parseMultipart(multipartBody([{ name: '__proto__', value: 'x' }]), CONTENT_TYPE, LIMITS);
    expect(Object.getOwnPropertyDescriptor(form.fields, '__proto__')?.value).toBe('x');
    expect(Object.getPrototypeOf(form.fields)).toBe(Object.prototype);
  });

  it('accepts a file of exactly the maximum size', async () => {
    const exact = Buffer.alloc(LIMITS.maxFileBytes, 7);
    const form = await parseMultipart(multipartBody([image('images', exact)]), CONTENT_TYPE, LIMITS);
    expect(form.files[0]?.bytes).toEqual(exact);
    expect(form.files[0]?.truncated).toBe(false);
  });

  it('rejects a file one byte over the maximum with 413 naming the limit', async () => {
    const body = multipartBody([image('images', Buffer.alloc(LIMITS.maxFileBytes + 1), 'big.jpg')]);
    const error = await rejectionOf(parseMultipart(body, CONTENT_TYPE, LIMITS));
    expect(error.status).toBe(413);
    expect(error.code).toBe('file_too_large');
    expect(error.message).toBe("file 'big.jpg' exceeds the 1024-byte upload limit");
  });

  it('names a whole-megabyte limit in MB', async () => {
    const limits = { ...LIMITS, maxFileBytes: 1024 * 1024 };
    const body = multipartBody([image('images', Buffer.alloc(limits.maxFileBytes + 1))]);
    const error = await rejectionOf(parseMultipart(body, CONTENT_TYPE, limits));
    expect(error.message).toMatch(/exceeds the 1 MB upload limit$/);
  });

  it('rejects a file under an unexpected field name and lists the allowed ones', async () => {
    const limits = { ...LIMITS, allowedFileFields: ['images', 'file'] };
    const error = await rejectionOf(parseMultipart(multipartBody([image('avatar')]), CONTENT_TYPE, limits));
    expect(error.status).toBe(400);
    expect(error.code).toBe('unexpected_file_field');
    expect(error.message).toBe("unexpected file field 'avatar'; files are accepted only in: 'images', 'file'");
  });

  it('rejects more files than allowed', async () => {
    const body = multipartBody([image(), image(), image(), image()]);
    const error = await rejectionOf(parseMultipart(body, CONTENT_TYPE, LIMITS));
    expect(error.status).toBe(400);
    expect(error.code).toBe('too_many_files');
    expect(error.message).toBe('too many files; at most 3 allowed');
  });

  it('rejects more text fields than allowed', async () => {
    const fields = Array.from({ length: LIMITS.maxFields + 1 }, (_, index) => ({ name: `f${index}`, value: 'v' }));
    const error = await rejectionOf(parseMultipart(multipartBody(fields), CONTENT_TYPE, LIMITS));
    expect(error.status).toBe(400);
    expect(error.code).toBe('too_many_fields');
  });

  it('rejects a repeated text field instead of picking one value', async () => {
    const body = multipartBody([
      { name: 'name', value: 'Rex' },
      { name: 'name', value: 'Fido' },
    ]);
    const error = await rejectionOf(parseMultipart(body, CONTENT_TYPE, LIMITS));
    expect(error.status).toBe(400);
    expect(error.message).toBe("field 'name' appears more than once");
  });

  it('accepts a text field at the maximum length and rejects a longer one rather than cutting it', async () => {
    const atLimit = 'a'.repeat(MAX_FIELD_VALUE_BYTES);
    await expect(
      parseMultipart(multipartBody([{ name: 'description', value: atLimit }]), CONTENT_TYPE, LIMITS),
    ).resolves.toEqual({
      fields: { description: atLimit },
      files: [],
    });
    const tooLong = multipartBody([{ name: 'description', value: `${atLimit}a` }]);
    const error = await rejectionOf(parseMultipart(tooLong, CONTENT_TYPE, LIMITS));
    expect(error.status).toBe(400);
    expect(error.message).toBe(`field 'description' is longer than ${MAX_FIELD_VALUE_BYTES} bytes`);
  });

  describe('rejects broken bodies with 400 invalid_multipart', () => {
    const cases: [string, () => Promise<unknown>][] = [
      [
        'a content type that is not multipart',
        () => parseMultipart(Buffer.from('{"name":"Rex"}'), 'application/json', LIMITS),
      ],
      [
        'a url-encoded form',
        () => parseMultipart(Buffer.from('name=Rex'), 'application/x-www-form-urlencoded', LIMITS),
      ],
      [
        'multipart/mixed',
        () => parseMultipart(multipartBody([image()]), `multipart/mixed; boundary=${BOUNDARY}`, LIMITS),
      ],
      ['a missing boundary parameter', () => parseMultipart(multipartBody([image()]), 'multipart/form-data', LIMITS)],
      [
        'an empty boundary parameter',
        () => parseMultipart(multipartBody([image()]), 'multipart/form-data; boundary=', LIMITS),
      ],
      [
        'a body written with another boundary',
        () => parseMultipart(multipartBody([image()], { boundary: 'other' }), CONTENT_TYPE, LIMITS),
      ],
      [
        'a missing closing boundary',
        () => parseMultipart(multipartBody([image()], { closed: false }), CONTENT_TYPE, LIMITS),
      ],
      [
        'a body cut off inside a file',
        () =>
          parseMultipart(multipartBody([image('images', Buffer.alloc(500))]).subarray(0, 300), CONTENT_TYPE, LIMITS),
      ],
      [
        'a body cut off inside a rejected file',
        () =>
          parseMultipart(multipartBody([image('avatar', Buffer.alloc(500))]).subarray(0, 300), CONTENT_TYPE, LIMITS),
      ],
      ['an empty body', () => parseMultipart(Buffer.alloc(0), CONTENT_TYPE, LIMITS)],
      [
        'a part header without a colon',
        () =>
          parseMultipart(
            Buffer.from(`--${BOUNDARY}\r\nContent-Disposition form-data\r\n\r\nx\r\n--${BOUNDARY}--\r\n`),
            CONTENT_TYPE,
            LIMITS,
          ),
      ],
    ];
    for (const [name, parse] of cases) {
      it(name, async () => {
        const error = await rejectionOf(parse());
        expect(error.status).toBe(400);
        expect(error.code).toBe('invalid_multipart');
      });
    }

    it('says which problem it found', async () => {
      expect((await rejectionOf(parseMultipart(Buffer.from('{}'), 'application/json', LIMITS))).message).toBe(
        "Content-Type must be multipart/form-data, got 'application/json'",
      );
      expect((await rejectionOf(parseMultipart(multipartBody([image()]), 'multipart/form-data', LIMITS))).message).toBe(
        'multipart/form-data Content-Type has no valid boundary parameter',
      );
      expect(
        (await rejectionOf(parseMultipart(multipartBody([image()], { closed: false }), CONTENT_TYPE, LIMITS))).message,
      ).toBe('multipart body ends without the closing boundary declared in Content-Type');
    });

    it('reports a broken body even when a file in it was also too large', async () => {
      const body = multipartBody([image('images', Buffer.alloc(LIMITS.maxFileBytes + 10))], { closed: false });
      const error = await rejectionOf(parseMultipart(body, CONTENT_TYPE, LIMITS));
      expect(error.code).toBe('invalid_multipart');
    });
  });

  it('always settles, with a form or an AppError, on truncated and corrupted bodies', async () => {
    const valid = multipartBody([
      { name: 'name', value: 'Rex' },
      image('images', Buffer.alloc(200, 1)),
      image('avatar', Buffer.alloc(50, 2)),
    ]);
    const bodies: Buffer[] = [];
    for (let length = 0; length <= valid.length; length += 7) bodies.push(valid.subarray(0, length));
    for (let position = 0; position < valid.length; position += 5) {
      const corrupt = Buffer.from(valid);
      corrupt[position] = (corrupt[position] ?? 0) ^ 0x20;
      bodies.push(corrupt);
    }
    const outcomes = await Promise.all(
      bodies.map((body) =>
        parseMultipart(body, CONTENT_TYPE, LIMITS).then(
          () => 'form',
          (error: unknown) => (error instanceof AppError ? 'http error' : error),
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome !== 'form' && outcome !== 'http error')).toEqual([]);
  });
});
