import * as z from 'zod/mini';
import { text } from './params.ts';

export const SUB_ID_MAX_LENGTH = 255;

const isBlank = (c: string) => c === '@' || /\s/.test(c);

/**
 * Whether `value` contains something shaped like an e-mail address (`local@domain.tld`, no whitespace), decided in
 * one pass: each `@` needs a non-blank character before it and, in the non-blank run after it, a dot with at least
 * one character on both sides. The regex this replaces backtracked quadratically on long input.
 */
export function containsEmailAddress(value: string): boolean {
  for (let at = value.indexOf('@'); at !== -1; at = value.indexOf('@', at + 1)) {
    if (at === 0 || isBlank(value[at - 1]!)) continue;
    let end = at + 1;
    while (end < value.length && !isBlank(value[end]!)) end++;
    const domain = value.slice(at + 1, end);
    if (domain.slice(1, -1).includes('.')) return true;
  }
  return false;
}

/**
 * `sub_id`: the integrator's own opaque id for its end user. The spec forbids personal data there, so a value that
 * contains an e-mail address is refused with the reason. The length bound aborts before the e-mail check runs.
 */
export const subIdParam = text(
  { max: SUB_ID_MAX_LENGTH },
  z.refine(
    (v: string) => !containsEmailAddress(v),
    'must be an opaque id, not an e-mail address (sub_id must not carry personal data)',
  ),
);
