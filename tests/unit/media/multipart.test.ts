import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.ts';
import {
  MAX_FIELD_VALUE_BYTES,
  MAX_PART_HEADER_BYTES,
  parseMultipart,
  type MultipartLimits,
} from '../../../shared/media/multipart.ts';

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

/** A body written by hand, byte for byte (latin1, so `\xff` is one byte). */
const raw = (text: string) => Buffer.from(text, 'latin1');
const part = (headers: string, content = 'x') => `--${BOUNDARY}\r\n${headers}\r\n\r\n${content}\r\n`;
const CLOSE = `--${BOUNDARY}--`;
const field = (name: string, value = 'x') => part(`Content-Disposition: form-data; name="${name}"`, value);
const parse = (body: Buffer, limits = LIMITS, contentType = CONTENT_TYPE) => parseMultipart(body, contentType, limits);
const messageOf = async (promise: Promise<unknown>) => (await rejectionOf(promise)).message;
/** Each header block, alone in a one-part body, gets `message`. */
async function expectEachRefused(headers: string[], message: string) {
  for (const header of headers) expect(await messageOf(parse(raw(part(header) + CLOSE)))).toBe(message);
}

describe('parseMultipart: the grammar of RFC 2046 and RFC 7578', () => {
  it('ignores a preamble and an epilogue and accepts transport padding after boundaries', async () => {
    const body = raw(
      `preamble, not a part\r\n--${BOUNDARY} \t\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n` +
        `--${BOUNDARY}\t\r\nContent-Disposition: form-data; name="b"\r\n\r\n2\r\n--${BOUNDARY}-- \r\nepilogue\r\n${field('c')}`,
    );
    expect((await parse(body)).fields).toEqual({ a: '1', b: '2' });
  });

  it('reads a body of only the close delimiter as an empty form', async () => {
    await expect(parse(raw(CLOSE))).resolves.toEqual({ fields: {}, files: [] });
  });

  it('takes a quoted boundary with spaces (RFC 2046 example), 70 characters, and any case of the parameter name', async () => {
    const body = (boundary: string) =>
      raw(`--${boundary}\r\nContent-Disposition: form-data; name="a"\r\n\r\nv\r\n--${boundary}--`);
    const long = `${'b'.repeat(69)}.`;
    const forms = await Promise.all([
      parse(body('simple boundary'), LIMITS, 'multipart/form-data; boundary="simple boundary"'),
      parse(body(long), LIMITS, `multipart/form-data;BOUNDARY=${long}`),
      parse(body('abc'), LIMITS, 'multipart/form-data; charset=utf-8; Boundary="abc" '),
    ]);
    expect(forms.map((form) => form.fields)).toEqual([{ a: 'v' }, { a: 'v' }, { a: 'v' }]);
  });

  it('refuses a boundary RFC 2046 does not allow, or a Content-Type it cannot read', async () => {
    const contentTypes = [
      `multipart/form-data; boundary=${'b'.repeat(71)}`,
      'multipart/form-data; boundary=""',
      'multipart/form-data; boundary="ends in space "',
      'multipart/form-data; boundary=a*b',
      'multipart/form-data; boundary=abc;',
      'multipart/form-data; boundary="abc',
      'multipart/form-data; charset; boundary=abc',
    ];
    for (const contentType of contentTypes) {
      expect(await messageOf(parse(raw(CLOSE), LIMITS, contentType))).toBe(
        'multipart/form-data Content-Type has no valid boundary parameter',
      );
    }
  });

  it('refuses text after a boundary on its line: the boundary must not occur in a part', async () => {
    const inContent = raw(`${field('a', `x\r\n--${BOUNDARY}x`)}${CLOSE}`);
    expect(await messageOf(parse(inContent))).toBe(
      'malformed multipart body: part 2 has other text on its boundary line',
    );
    const body = raw(`${field('a')}--${BOUNDARY}-x\r\n${CLOSE}`);
    expect((await rejectionOf(parse(body))).code).toBe('invalid_multipart');
  });

  it('needs CRLF line breaks', async () => {
    const body = raw(`--${BOUNDARY}\nContent-Disposition: form-data; name="a"\n\nx\n--${BOUNDARY}--`);
    expect((await rejectionOf(parse(body))).code).toBe('invalid_multipart');
  });

  it('reads header names in any case, the first of a repeated header, and folded header lines', async () => {
    const body = raw(
      part('content-DISPOSITION: form-data; name="a"\r\nContent-Disposition: form-data; name="b"') +
        part('Content-Disposition: form-data;\r\n\tname="c"') +
        CLOSE,
    );
    expect((await parse(body)).fields).toEqual({ a: 'x', c: 'x' });
  });

  it('refuses a malformed header line', async () => {
    const headers = [
      'Content-Disposition form-data; name="a"',
      'Content-Disposition : form-data; name="a"',
      `Content-Disposition: form-data; name="a"\x01`,
      ': form-data',
      ' Content-Disposition: form-data; name="a"',
      '',
    ];
    await expectEachRefused(headers, 'malformed multipart body: part 1 has a malformed header line');
  });

  it('replaces a NUL or a noncharacter that reaches a file name as HTTP allows, and refuses a raw NUL as malformed', async () => {
    const encoded = part(
      `Content-Disposition: form-data; name="images"; filename*=UTF-8''a%00b%EF%B7%90c.png`,
      'bytes',
    );
    const rawNul = part('Content-Disposition: form-data; name="images"; filename="a\x00b.png"', 'bytes');

    expect((await parse(raw(encoded + CLOSE))).files[0]!.filename).toBe('a\ufffdb\ufffdc.png');
    const refusal = await rejectionOf(parse(raw(rawNul + CLOSE)));
    expect(refusal).toMatchObject({ status: 400, code: 'invalid_multipart' });
    expect(refusal.message).toBe('malformed multipart body: part 1 has a malformed header line');
  });

  it(`accepts a header block of exactly ${MAX_PART_HEADER_BYTES} bytes and refuses a longer one`, async () => {
    const disposition = 'Content-Disposition: form-data; name="a"\r\n';
    const padding = (bytes: number) => `X-Padding: ${'p'.repeat(bytes - 'X-Padding: '.length - 4)}\r\n\r\n`;
    const block = (bytes: number) => disposition + padding(bytes - disposition.length);
    const body = (bytes: number) => raw(`--${BOUNDARY}\r\n${block(bytes)}v\r\n${CLOSE}`);
    expect(block(MAX_PART_HEADER_BYTES)).toHaveLength(MAX_PART_HEADER_BYTES);

    expect((await parse(body(MAX_PART_HEADER_BYTES))).fields).toEqual({ a: 'v' });
    expect(await messageOf(parse(body(MAX_PART_HEADER_BYTES + 1)))).toBe(
      `malformed multipart body: part 1 has no blank line ending its headers within ${MAX_PART_HEADER_BYTES} bytes`,
    );
  });

  it('holds the header bound exactly however many lines the block has', async () => {
    const lines = 'X-A: b\r\n'.repeat(1000);
    const disposition = 'Content-Disposition: form-data; name="a"\r\n';
    const padding = `X-Padding: ${'p'.repeat(MAX_PART_HEADER_BYTES - disposition.length - lines.length - 15)}\r\n\r\n`;
    expect(disposition + lines + padding).toHaveLength(MAX_PART_HEADER_BYTES);

    expect((await parse(raw(`--${BOUNDARY}\r\n${disposition}${lines}${padding}v\r\n${CLOSE}`))).fields).toEqual({
      a: 'v',
    });
  });

  it('refuses a part without a form-data Content-Disposition naming it, instead of dropping it', async () => {
    const headers = [
      'Content-Type: text/plain',
      'Content-Disposition: attachment; name="a"',
      'Content-Disposition: form-data',
      'Content-Disposition: form-data; name=""',
      'Content-Disposition: form-data; filename="a.jpg"',
      'Content-Disposition: form-data; name="a"; filename*=UTF-8%C3%A9',
      'Content-Disposition: form-data; name="a" filename="b"',
    ];
    await expectEachRefused(
      headers,
      'malformed multipart body: part 1 has no valid Content-Disposition: form-data header with a name',
    );
  });

  it('reads Content-Disposition parameters: any case, unquoted, quoted with escapes, the first of repeated ones', async () => {
    const body = raw(
      part('Content-Disposition: Form-Data; NAME=plain; name="second"') +
        part('Content-Disposition: form-data; name="say \\"hi\\""') +
        part('Content-Disposition: form-data; name="images"; filename="C:\\Users\\rex\\photo.jpg"') +
        part('Content-Disposition: form-data; name="images"; filename="dir\\\\a\\"b.png"') +
        CLOSE,
    );
    const form = await parse(body);
    expect(form.fields).toEqual({ plain: 'x', 'say "hi"': 'x' });
    expect(form.files.map((file) => file.filename)).toEqual(['photo.jpg', 'a"b.png']);
  });

  it('prefers filename* to filename, decodes its charset, and empties a name of only dots', async () => {
    const body = raw(
      part(
        `Content-Disposition: form-data; name="images"; filename="fallback.jpg"; filename*=ISO-8859-1'de'%FCber.jpg`,
      ) +
        part('Content-Disposition: form-data; name="images"; filename="a/.."') +
        CLOSE,
    );
    expect((await parse(body)).files.map((file) => file.filename)).toEqual(['über.jpg', '']);
  });

  it('decodes a raw UTF-8 field name as browsers send it', async () => {
    const body = Buffer.concat([Buffer.from(part('Content-Disposition: form-data; name="größe"')), raw(CLOSE)]);
    expect((await parse(body)).fields).toEqual({ größe: 'x' });
  });

  it('tells files from fields: a file name, or application/octet-stream without one', async () => {
    const body = raw(
      part('Content-Disposition: form-data; name="images"; filename="a.jpg"') +
        part('Content-Disposition: form-data; name="images"\r\nContent-Type: application/octet-stream') +
        part('Content-Disposition: form-data; name="images"; filename="b"\r\nContent-Type: Image/PNG; q="1"') +
        part('Content-Disposition: form-data; name="images"; filename="c"\r\nContent-Type: image/png; q') +
        part('Content-Disposition: form-data; name="empty"; filename=""') +
        CLOSE,
    );
    const form = await parse(body, { ...LIMITS, maxFiles: 4 });
    expect(form.files.map(({ filename, declaredType }) => [filename, declaredType])).toEqual([
      ['a.jpg', 'text/plain'],
      ['', 'application/octet-stream'],
      ['b', 'image/png'],
      ['c', 'text/plain'],
    ]);
    expect(form.fields).toEqual({ empty: 'x' });
  });

  it('decodes fields as UTF-8 (bad bytes become U+FFFD) or in the Latin-1 charset their part names, and refuses any other', async () => {
    const body = raw(
      field('utf8', 'F\xc3\xbcnf') +
        field('broken', 'F\xfcnf') +
        part(
          'Content-Disposition: form-data; name="latin"\r\nContent-Type: text/plain; charset=ISO-8859-1',
          'F\xfcnf',
        ) +
        CLOSE,
    );
    expect((await parse(body)).fields).toEqual({ utf8: 'Fünf', broken: 'F\ufffdnf', latin: 'Fünf' });

    for (const charset of ['klingon', 'windows-1250']) {
      const other = raw(
        part(`Content-Disposition: form-data; name="a"\r\nContent-Type: text/plain; charset=${charset}`) + CLOSE,
      );
      const error = await rejectionOf(parse(other));
      expect([error.status, error.message]).toEqual([
        400,
        "field 'a' is in a charset this API cannot read (send UTF-8)",
      ]);
    }
  });
});

describe('parseMultipart: limits and which problem is reported', () => {
  it('keeps exactly the maximum number of files and fields', async () => {
    const fields = Array.from({ length: LIMITS.maxFields }, (_, index) => ({ name: `f${index}`, value: 'v' }));
    const form = await parse(multipartBody([...fields, image(), image(), image()]));
    expect([Object.keys(form.fields).length, form.files.length]).toEqual([LIMITS.maxFields, LIMITS.maxFiles]);
  });

  it('reports the first problem in the body', async () => {
    const body = multipartBody([
      { name: 'name', value: 'Rex' },
      { name: 'name', value: 'Fido' },
      image(),
      image(),
      image(),
      image(),
    ]);
    expect(await messageOf(parse(body))).toBe("field 'name' appears more than once");
  });

  it('reports a broken part even after a count limit was passed', async () => {
    const body = raw(
      multipartBody([image(), image(), image(), image()], { closed: false }).toString('latin1') +
        part('Content-Disposition form-data') +
        CLOSE,
    );
    expect(await messageOf(parse(body))).toBe('malformed multipart body: part 5 has a malformed header line');
  });
});

describe('parseMultipart: hostile bodies of 10 MB', () => {
  const TEN_MB = 10 * 1024 * 1024;
  const BIG: MultipartLimits = { ...LIMITS, maxFileBytes: 2 * TEN_MB };
  const repeat = (unit: string) => unit.repeat(Math.ceil(TEN_MB / unit.length)).slice(0, TEN_MB);
  const fileHead = part('Content-Disposition: form-data; name="images"; filename="a.bin"', '');

  it('returns a file made of almost-delimiters byte for byte', async () => {
    for (const unit of [`\r\n--${BOUNDARY.slice(0, -1)}`, '\r\n--', '\r\n', '-']) {
      const content = repeat(unit);
      const body = raw(`${fileHead.slice(0, -2)}${content}\r\n${CLOSE}`);
      const { files } = await parse(body, BIG);
      expect(files[0]!.bytes.equals(raw(content))).toBe(true);
    }
  });

  it('reads every one of hundreds of thousands of parts and keeps none over the limit', async () => {
    const count = Math.floor(TEN_MB / field('f000000').length);
    const fields = Array.from({ length: count }, (_, index) => field(`f${String(index).padStart(6, '0')}`));
    const error = await rejectionOf(parse(raw(fields.join('') + CLOSE)));
    expect(error.code).toBe('too_many_fields');
  });

  it('stops reading headers after the bound, however many lines follow', async () => {
    const body = raw(`--${BOUNDARY}\r\n${repeat('X-Header: value\r\n')}\r\nx\r\n${CLOSE}`);
    expect(await messageOf(parse(body))).toMatch(
      `has no blank line ending its headers within ${MAX_PART_HEADER_BYTES} bytes`,
    );
  });

  it('reads 10 MB of transport padding, and refuses or closes on 10 MB of boundaries', async () => {
    const padded = raw(`--${BOUNDARY}${repeat(' ')}\r\nContent-Disposition: form-data; name="a"\r\n\r\nv\r\n${CLOSE}`);
    expect((await parse(padded)).fields).toEqual({ a: 'v' });
    expect((await rejectionOf(parse(raw(repeat(`\r\n--${BOUNDARY}`))))).code).toBe('invalid_multipart');
    expect((await rejectionOf(parse(raw(repeat(`--${BOUNDARY}\r\n`))))).code).toBe('invalid_multipart');
    // "--boundary--" opens it: the close delimiter, and the rest is epilogue.
    await expect(parse(raw(repeat(`--${BOUNDARY}`)))).resolves.toEqual({ fields: {}, files: [] });
  });
});
