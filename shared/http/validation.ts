import * as z from 'zod/mini';
import type { Deps } from '../deps.ts';
import { badRequest } from '../errors.ts';
import { echo } from '../schema/echo.ts';
import { referenceCheckOf } from '../schema/references.ts';
import { MAX_REPORTED_PROBLEMS } from './limits.ts';

export type Schema = z.ZodMiniType;

type Location = 'query' | 'params' | 'body';

/**
 * Parses one part of the request; each problem becomes one message of a single 400. The list stops at
 * MAX_REPORTED_PROBLEMS with a count of the rest, so an error body never grows with the size of the request.
 */
export function parseOrThrow<S extends Schema>(schema: S, input: unknown, location: Location): z.output<S> {
  const result = z.safeParse(schema, input, { reportInput: true });
  if (result.success) return result.data;
  throw invalidInput(result.error.issues.flatMap((issue) => describeIssue(issue, location)));
}

/** One part of a request (path parameters, query, JSON body or form fields) with the schema it must pass. */
export interface RequestPart {
  location: Location;
  schema: Schema;
  input: unknown;
}

/**
 * Validates the parts of a request together and answers their outputs, in order. When any part fails, one 400 names
 * the problems of every part and, for schemas with a reference check (`withReferences`), the reference problems of
 * the fields they accepted: a caller learns everything wrong with the request at once.
 */
export async function validateRequest(parts: RequestPart[], deps: Deps): Promise<unknown[]> {
  const results = parts.map((part) => z.safeParse(part.schema, part.input, { reportInput: true }));
  if (results.every((result) => result.success)) return results.map((result) => result.data);
  const messages = results.flatMap((result, i) =>
    result.success ? [] : result.error.issues.flatMap((issue) => describeIssue(issue, parts[i]!.location)),
  );
  const references = await Promise.all(parts.map((part) => referenceProblems(part, deps)));
  throw invalidInput([...messages, ...references.flat()]);
}

/** A single 400 with one message per problem: the first MAX_REPORTED_PROBLEMS, then a count of the rest. */
function invalidInput(messages: string[]) {
  if (messages.length <= MAX_REPORTED_PROBLEMS) return badRequest(messages);
  const hidden = messages.length - MAX_REPORTED_PROBLEMS;
  return badRequest([...messages.slice(0, MAX_REPORTED_PROBLEMS), `…and ${hidden} more problems`], {
    details: { problem_count: messages.length },
  });
}

async function referenceProblems(part: RequestPart, deps: Deps): Promise<string[]> {
  const check = referenceCheckOf(part.schema);
  return check ? check(acceptedFields(part.schema, part.input), deps) : [];
}

/** The fields of an object input that pass their own schema, each as parsed; the others are left out. */
function acceptedFields(schema: Schema, input: unknown): Record<string, unknown> {
  const shape = (schema._zod.def as { shape?: Record<string, Schema> }).shape;
  if (!shape || typeof input !== 'object' || input === null) return {};
  const accepted: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(shape)) {
    const result = z.safeParse(field, Object.hasOwn(input, key) ? (input as Record<string, unknown>)[key] : undefined);
    if (result.success && result.data !== undefined) accepted[key] = result.data;
  }
  return accepted;
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
