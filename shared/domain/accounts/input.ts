import * as z from 'zod/mini';
import { text } from '../../schema/params.ts';
import { ACCOUNT_STATUSES, CAPABILITIES, KNOWN_FEATURES, MAX_KEY_GRACE_SECONDS, ROLES } from './account.ts';
import { PLAN_NAMES } from './plans.ts';

// Request bodies of the admin account routes; shared by the HTTP handlers and the operator CLI.
const fields = {
  name: text({ max: 200 }, z.trim(), z.minLength(1)),
  email: z.email(),
  role: z.enum(ROLES),
  status: z.enum(ACCOUNT_STATUSES),
  features: z.array(z.enum(KNOWN_FEATURES)).check(z.maxLength(KNOWN_FEATURES.length * 2)),
  quota: z.int().check(z.gte(0), z.lte(1_000_000)),
  plan: z.enum(PLAN_NAMES),
  disabled_capabilities: z.array(z.enum(CAPABILITIES)).check(z.maxLength(CAPABILITIES.length * 2)),
};

/** Body of PATCH /accounts/{accountId}/quota. */
export const quotaChangeSchema = z.strictObject({ quota: fields.quota });

export const newAccountSchema = z.strictObject({
  name: fields.name,
  email: z.optional(fields.email),
  role: z.optional(fields.role),
  status: z.optional(fields.status),
  features: z.optional(fields.features),
  quota: z.optional(fields.quota),
  plan: z.optional(fields.plan),
  disabled_capabilities: z.optional(fields.disabled_capabilities),
});

export const accountChangesSchema = z
  .strictObject({
    name: z.optional(fields.name),
    email: z.optional(z.nullable(fields.email)),
    role: z.optional(fields.role),
    status: z.optional(fields.status),
    features: z.optional(fields.features),
    quota: z.optional(fields.quota),
    plan: z.optional(fields.plan),
    disabled_capabilities: z.optional(fields.disabled_capabilities),
  })
  .check(z.refine((changes) => Object.keys(changes).length > 0, 'must change at least one field'));

/** Body of POST /accounts/api-key/rotate: how long the current key keeps working (0 to 24 hours). */
export const keyRotationSchema = z.strictObject({
  grace_period_seconds: z.int().check(z.gte(0), z.lte(MAX_KEY_GRACE_SECONDS)),
});
