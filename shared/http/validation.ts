import * as z from 'zod/mini';
import { badRequest } from '../errors.ts';
import { MAX_ECHOED_CHARS, MAX_REPORTED_PROBLEMS } from './limits.ts';

export type Schema = z.ZodMiniType;

type Location = 'query' | 'params' | 'body';

/**
 * Parses one part of the request; each problem becomes one message of a single 400. The list stops at
 * MAX_REPORTED_PROBLEMS with a count of the rest, so an error body never grows with the size of the request.
 */
export function parseOrThrow<S extends Schema>(schema: S, input: unknown, location: Location): z.output<S> {
  const result = z.safeParse(schema, input, { reportInput: true });
  if (result.success) return result.data;
  const messages = result.error.issues.flatMap((issue) => describeIssue(issue, location));
  if (messages.length <= MAX_REPORTED_PROBLEMS) throw badRequest(messages);
  const hidden = messages.length - MAX_REPORTED_PROBLEMS;
  throw badRequest([...messages.slice(0, MAX_REPORTED_PROBLEMS), `…and ${hidden} more problems`], {
    details: { problem_count: messages.length },
  });
}

/** Input quoted back to the caller (a field or parameter name) is cut, so an error never echoes a megabyte. */
export function echo(value: string): string {
  return value.length <= MAX_ECHOED_CHARS ? value : `${value.slice(0, MAX_ECHOED_CHARS)}…`;
}

function fieldName(path: readonly PropertyKey[], location: Location): string {
  if (path.length === 0) return location === 'body' ? 'body' : location;
  return path.map((segment) => echo(String(segment))).join('.');
}

/** Messages read `<field> <problem>`; custom checks supply only the problem. */
export function describeIssue(issue: z.core.$ZodIssue, location: Location): string[] {
  const name = fieldName(issue.path, location);
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => {
        const full = fieldName([...issue.path, key], location);
        return location === 'query' ? `unknown query parameter '${full}'` : `unknown field '${full}'`;
      });
    case 'invalid_type':
      if (issue.input === undefined) return [`${name} is required`];
      return [`${name} must be ${article(issue.expected)}`];
    case 'too_big':
      return [`${name} ${bound('at most', 'less than', issue.maximum, issue.inclusive, issue.origin)}`];
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return [`${name} must not be empty`];
      return [`${name} ${bound('at least', 'greater than', issue.minimum, issue.inclusive, issue.origin)}`];
    case 'invalid_value':
      return [`${name} must be one of: ${issue.values.map(String).join(', ')}`];
    case 'invalid_format':
      return [`${name} must be a valid ${issue.format === 'regex' ? 'value' : issue.format}`];
    case 'invalid_union':
      return [`${name} has an invalid value`];
    case 'custom':
      return [`${name} ${issue.message}`];
    default:
      return [`${name} is invalid`];
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function bound(
  inclusiveWord: string,
  exclusiveWord: string,
  limit: unknown,
  inclusive: boolean | undefined,
  origin: string,
): string {
  const value = String(limit);
  const word = inclusive === false ? exclusiveWord : inclusiveWord;
  switch (origin) {
    case 'string':
      return `must be ${word} ${value} characters long`;
    case 'array':
    case 'set':
      return `must contain ${word} ${value} items`;
    default:
      return `must be ${word} ${value}`;
  }
}
