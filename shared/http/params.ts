// Schemas for query-string and path values, which always arrive as strings.
import * as z from 'zod/mini';

const INTEGER = /^-?\d+$/;
/** Longer than any integer a route accepts (Number.MAX_SAFE_INTEGER has 16 digits). */
const INTEGER_MAX_LENGTH = 20;
/** Query values that are enums, booleans or codes are never longer than this. */
export const WORD_MAX_LENGTH = 50;
/** Comma-separated lists in the query string. */
export const LIST_MAX_LENGTH = 2000;

type StringCheck = z.core.$ZodCheck<string>;

/**
 * What a query or path value means on the wire, for the OpenAPI document: the schemas below parse strings, so their
 * JSON Schema would only say "string"; this records the integer, boolean, enum or list the string stands for.
 */
export const wireFormats = new WeakMap<object, Record<string, unknown>>();

/** Records the wire format of a parameter schema and returns the schema. */
export function onTheWire<T extends object>(schema: T, format: Record<string, unknown>): T {
  wireFormats.set(schema, format);
  return schema;
}

/**
 * Characters no text input may hold: control characters, the non-characters U+FFFE and U+FFFF, and unpaired
 * surrogates. Stored values travel on as events through SQS, which refuses a message holding any of them; emoji and
 * every other character SQS carries are accepted.
 */
const FORBIDDEN_CHARACTERS =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose
  /[\u0000-\u001f\u007f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const FORBIDDEN_CHARACTERS_ALL = new RegExp(FORBIDDEN_CHARACTERS.source, 'g');

export const hasForbiddenCharacters = (value: string) => FORBIDDEN_CHARACTERS.test(value);
/** For values the service keeps but cannot refuse (an uploaded file's name): each forbidden character becomes U+FFFD. */
export const replaceForbiddenCharacters = (value: string) => value.replace(FORBIDDEN_CHARACTERS_ALL, '\ufffd');

/**
 * A non-empty string within a length bound and without forbidden characters, both checked first and aborting on
 * failure, so the pattern and refinement checks that follow only ever see bounded input (hostile input is normal input: a 1 MB value costs one length comparison).
 */
export function text(bounds: { min?: number; max: number }, ...checks: StringCheck[]) {
  return z.string().check(
    z.minLength(bounds.min ?? 1, { abort: true }),
    z.maxLength(bounds.max, { abort: true }),
    z.refine((v) => !hasForbiddenCharacters(v), {
      message: 'must not contain control characters, U+FFFE, U+FFFF or unpaired surrogates',
      abort: true,
    }),
    ...checks,
  );
}

/** An integer query value with bounds; `fallback` applies when the parameter is absent. */
export function integer(bounds: { min?: number; max?: number } = {}) {
  const checks = [
    ...(bounds.min !== undefined ? [z.gte(bounds.min)] : []),
    ...(bounds.max !== undefined ? [z.lte(bounds.max)] : []),
  ];
  const schema = z.pipe(
    text(
      { max: INTEGER_MAX_LENGTH },
      z.refine((v) => INTEGER.test(v), 'must be an integer'),
    ),
    z.pipe(
      z.transform((v: string) => Number(v)),
      z.number().check(...checks),
    ),
  );
  return onTheWire(schema, { type: 'integer', minimum: bounds.min, maximum: bounds.max });
}

/** `true`/`false` (also `1`/`0`), case-insensitive. */
export function boolean() {
  const schema = z.pipe(
    text(
      { max: WORD_MAX_LENGTH },
      z.refine((v) => /^(true|false|1|0)$/i.test(v), 'must be true or false'),
    ),
    z.transform((v: string) => /^(true|1)$/i.test(v)),
  );
  return onTheWire(schema, { type: 'boolean', description: '`true` or `false` (also `1` or `0`), any case.' });
}

/** One of `values`, compared case-insensitively, returned in the canonical spelling. */
export function caseInsensitiveEnum<const T extends readonly [string, ...string[]]>(values: T) {
  const schema = z.pipe(
    text(
      { max: WORD_MAX_LENGTH },
      z.refine((v) => values.some((x) => x.toLowerCase() === v.toLowerCase()), `must be one of: ${values.join(', ')}`),
    ),
    z.transform((v: string) => values.find((x) => x.toLowerCase() === v.toLowerCase()) as T[number]),
  );
  return onTheWire(schema, { type: 'string', enum: [...values], description: 'Compared case-insensitively.' });
}

/** A query or form list holds at most this many entries unless the route says fewer. */
export const MAX_LIST_ITEMS = 100;

/** Comma-separated list, at most `maxItems` entries; blanks are dropped. */
export function list(options: { maxItems?: number } = {}) {
  const maxItems = options.maxItems ?? MAX_LIST_ITEMS;
  const schema = z.pipe(
    text({ max: LIST_MAX_LENGTH }),
    z.pipe(
      z.transform((v: string) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s.length > 0),
      ),
      z.array(z.string()).check(z.maxLength(maxItems)),
    ),
  );
  return onTheWire(schema, {
    type: 'array',
    items: { type: 'string' },
    maxItems,
    description: `Comma-separated, at most ${maxItems} entries (${LIST_MAX_LENGTH} characters); blanks are dropped.`,
  });
}
