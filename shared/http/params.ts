// Schemas for query-string and path values, which always arrive as strings.
import * as z from 'zod/mini';

const INTEGER = /^-?\d+$/;

/** An integer query value with bounds; `fallback` applies when the parameter is absent. */
export function integer(bounds: { min?: number; max?: number } = {}) {
  const checks = [
    ...(bounds.min !== undefined ? [z.gte(bounds.min)] : []),
    ...(bounds.max !== undefined ? [z.lte(bounds.max)] : []),
  ];
  return z.pipe(
    z.string().check(z.refine((v) => INTEGER.test(v), 'must be an integer')),
    z.pipe(
      z.transform((v: string) => Number(v)),
      z.number().check(...checks),
    ),
  );
}

/** `true`/`false` (also `1`/`0`), case-insensitive. */
export function boolean() {
  return z.pipe(
    z.string().check(z.refine((v) => /^(true|false|1|0)$/i.test(v), 'must be true or false')),
    z.transform((v: string) => /^(true|1)$/i.test(v)),
  );
}

/** One of `values`, compared case-insensitively, returned in the canonical spelling. */
export function caseInsensitiveEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.pipe(
    z
      .string()
      .check(
        z.refine(
          (v) => values.some((x) => x.toLowerCase() === v.toLowerCase()),
          `must be one of: ${values.join(', ')}`,
        ),
      ),
    z.transform((v: string) => values.find((x) => x.toLowerCase() === v.toLowerCase()) as T[number]),
  );
}

/** Comma-separated list; blanks are dropped. */
export function list() {
  return z.pipe(
    z.string(),
    z.transform((v: string) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0),
    ),
  );
}

/** A non-empty string within a length bound. */
export function text(bounds: { min?: number; max?: number } = {}) {
  return z.string().check(z.minLength(bounds.min ?? 1), ...(bounds.max !== undefined ? [z.maxLength(bounds.max)] : []));
}
