import * as z from 'zod/mini';

const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]+/;

/**
 * `sub_id`: the integrator's own opaque id for its end user. The spec forbids personal data there, so a value that
 * contains an e-mail address is refused with the reason.
 */
export const subIdParam = z.string().check(
  z.minLength(1),
  z.maxLength(255),
  z.refine((v) => !EMAIL.test(v), 'must be an opaque id, not an e-mail address (sub_id must not carry personal data)'),
);
