import * as z from 'zod/mini';
import { DEFAULT_PLAN, PLAN_NAMES } from './plans.ts';

/** Feature flags an account can hold; each gates the routes that name it in the route table. */
/** `respiratory_rate` is early access (spec: Versioning 2): its fields may change before general release. */
export const KNOWN_FEATURES = ['full_breed_schema', 'body_condition', 'calculators', 'respiratory_rate'] as const;

/**
 * Capabilities an administrator can switch off for an account; a route naming one then answers 403. `portraits`
 * gates drawing a portrait (a paid image model deployed), as features gate analyses; reading portraits stays open.
 */
export const CAPABILITIES = ['votes', 'favourites', 'image_uploads', 'webhooks', 'portraits'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** `vet` accounts decide body condition reviews (administrators may too); `user` is everyone else. */
export const ROLES = ['admin', 'user', 'vet'] as const;
export const ACCOUNT_STATUSES = ['active', 'inactive'] as const;

/** Longest grace period a rotated API key keeps working (the caller chooses 0 to this). */
export const MAX_KEY_GRACE_SECONDS = 24 * 3600;

/** Monthly image-upload allowance of a new account unless an admin sets another (docs/decisions.md). */
export const DEFAULT_MONTHLY_UPLOAD_QUOTA = 100;

export const accountSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.nullable(z.string()),
  role: z.enum(ROLES),
  status: z.enum(ACCOUNT_STATUSES),
  features: z.array(z.string()),
  quota: z.number(),
  /** The request-rate plan (shared/domain/accounts/plans.ts); accounts from before plans existed are `standard`. */
  plan: z._default(z.enum(PLAN_NAMES), DEFAULT_PLAN),
  disabled_capabilities: z._default(z.array(z.string()), []),
  created_at: z.string(),
  updated_at: z.string(),
});

export type Account = z.infer<typeof accountSchema>;
