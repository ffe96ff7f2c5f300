// Schemas for query-string and path values, which always arrive as strings.
import * as z from 'zod/mini';

const INTEGER = /^-?\d+$/;
/** Longer than any integer a route accepts (Number.MAX_SAFE_INTEGER has 16 digits). */
const INTEGER_MAX_LENGTH = 20;
/** Query values that are enums, booleans or codes are never longer than this. */
export const WORD_MAX_LENGTH = 50;
/** Comma-separated lists in the query string. */
export const LIST_MAX_LENGTH = 2000;
/** A list's `cursor`: what the list handed out in `Next-Cursor` (shared/db/cursor-page.ts checks it is one). */
export const MAX_CURSOR_LENGTH = 1024;

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
 * Characters no text input may hold: control characters, unpaired surrogates and the 66 noncharacters (U+FDD0–U+FDEF,
 * U+FFFE, U+FFFF and the last two of every plane). Stored values travel on as events through SQS, which refuses
 * controls, surrogates, U+FFFE and U+FFFF; the other noncharacters are for a program's internal use, never for
 * interchange. Emoji and every other character are accepted. Prose fields (`lineBreaks`) also take tab, LF and CR.
 */
const FORBIDDEN_CHARACTERS =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose
  /[\u0000-\u001f\u007f\p{Cs}\p{Noncharacter_Code_Point}]/u;
const FORBIDDEN_IN_PROSE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\p{Cs}\p{Noncharacter_Code_Point}]/u;
const FORBIDDEN_CHARACTERS_ALL = new RegExp(FORBIDDEN_CHARACTERS.source, 'gu');

export const hasForbiddenCharacters = (value: string) => FORBIDDEN_CHARACTERS.test(value);
/** For values the service keeps but cannot refuse (an uploaded file's name): each forbidden character becomes U+FFFD. */
export const replaceForbiddenCharacters = (value: string) => value.replace(FORBIDDEN_CHARACTERS_ALL, '\ufffd');

/**
 * The one rule of every text input: a string within a length bound and without forbidden characters, both checked
 * first and aborting on failure, so the pattern and refinement checks that follow only ever see bounded input
 * (hostile input is normal input: a 1 MB value costs one length comparison). `lineBreaks` lets prose (descriptions,
 * notes, messages) hold tab, LF and CR.
 */
export function text(bounds: { min?: number; max: number; lineBreaks?: boolean }, ...checks: StringCheck[]) {
  const forbidden = bounds.lineBreaks ? FORBIDDEN_IN_PROSE : FORBIDDEN_CHARACTERS;
  return z.string().check(
    z.minLength(bounds.min ?? 1, { abort: true }),
    z.maxLength(bounds.max, { abort: true }),
    z.refine((v) => !forbidden.test(v), {
      message: bounds.lineBreaks
        ? 'must not contain control characters other than tab and line breaks, noncharacters or unpaired surrogates'
        : 'must not contain control characters, noncharacters (such as U+FFFF) or unpaired surrogates',
      abort: true,
    }),
    ...checks,
  );
}

/** An ISO 8601 time with its offset (`2026-11-28T06:00:00Z`), as a Date. */
export const isoTime = z.pipe(
  z.pipe(text({ max: 40 }), z.iso.datetime({ offset: true })),
  z.transform((value: string) => new Date(value)),
);

/** A time window (`since`, `until`, either optional) whose ends, when both are given, are in order. */
export const sinceNotAfterUntil = z.refine<{ since?: Date | undefined; until?: Date | undefined }>(
  (q) => q.since === undefined || q.until === undefined || q.since <= q.until,
  { message: 'since must not be after until', path: ['since'] },
);

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
