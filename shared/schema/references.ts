// Checks of what a request's fields refer to (catalogue ids, tags), attached to the schema they belong to: they need
// stored data, so they cannot run inside the schema itself.
import type * as z from 'zod/mini';
import type { Deps } from '../deps.ts';

/** The problems of what a request's fields refer to, among the fields its schema accepted. */
export type ReferenceCheck<T> = (accepted: Partial<T>, deps: Deps) => Promise<string[]>;

const referenceChecks = new WeakMap<z.ZodMiniType, ReferenceCheck<Record<string, unknown>>>();

/**
 * Attaches to an object schema the check of its references. The pipeline runs it on the fields the schema accepted
 * whenever the request has other problems; when the schema passes, the core runs the same check itself (and answers
 * with its own codes).
 */
export function withReferences<S extends z.ZodMiniType>(schema: S, check: ReferenceCheck<z.output<S>>): S {
  referenceChecks.set(schema, check as ReferenceCheck<Record<string, unknown>>);
  return schema;
}

/** The reference check attached to `schema`, if any. */
export const referenceCheckOf = (schema: z.ZodMiniType) => referenceChecks.get(schema);
