// What the account routes answer, as schemas: the handlers' contracts and the OpenAPI document are built from these.
import * as z from 'zod/mini';
import { documented } from '../../schema/api-docs.ts';
import { ACCOUNT_STATUSES, CAPABILITIES, KNOWN_FEATURES, ROLES } from './account.ts';
import { PLAN_NAMES, RATE_CLASSES } from './plans.ts';
import { STAT_NAMES } from './overview.ts';

const featureList = documented(z.array(z.string()), {
  description: `Feature flags (known: ${KNOWN_FEATURES.join(', ')}).`,
});
const capabilityList = documented(z.array(z.string()), {
  description: `Capabilities switched off (of: ${CAPABILITIES.join(', ')}).`,
});

export const accountBody = documented(
  z.object({
    id: z.string(),
    name: z.string(),
    email: z.nullable(z.string()),
    role: z.enum(ROLES),
    status: z.enum(ACCOUNT_STATUSES),
    features: featureList,
    quota: documented(z.int(), { description: 'Monthly image-upload allowance.' }),
    plan: documented(z.enum(PLAN_NAMES), { description: 'The request-rate plan.' }),
    disabled_capabilities: capabilityList,
    created_at: z.string(),
    updated_at: z.string(),
  }),
  { id: 'Account' },
);

export const createdAccountBody = documented(
  z.extend(accountBody, {
    api_key: documented(z.string(), { description: 'The plain API key, shown here only: store it now.' }),
  }),
  { id: 'CreatedAccount' },
);

export const quotaBody = documented(
  z.object({
    quota: z.int(),
    usage: documented(z.int(), { description: 'Uploads counted this month.' }),
    remaining: z.int(),
    period: documented(z.string(), { description: 'The month counted, `YYYY-MM` (UTC).' }),
    resets_at: documented(z.string(), { description: 'Start of the next month (UTC, ISO 8601).' }),
  }),
  { id: 'Quota' },
);

const rateWindow = z.object({
  limit: z.int(),
  window_seconds: z.int(),
  used: z.int(),
  remaining: z.int(),
  resets_at: z.string(),
});

/** GET /accounts/quota: the upload quota and where each request-rate window of the caller stands. */
export const ownQuotaBody = documented(
  z.extend(quotaBody, {
    rate_limits: z.object({
      plan: z.enum(PLAN_NAMES),
      ...(Object.fromEntries(RATE_CLASSES.map((rateClass) => [rateClass, rateWindow])) as Record<
        (typeof RATE_CLASSES)[number],
        typeof rateWindow
      >),
    }),
  }),
  { id: 'OwnQuota' },
);

export const overviewBody = documented(
  z.object({
    account: z.object({
      id: z.string(),
      name: z.string(),
      email: z.nullable(z.string()),
      role: z.enum(ROLES),
      status: z.enum(ACCOUNT_STATUSES),
      created_at: z.string(),
    }),
    features: featureList,
    disabled_capabilities: capabilityList,
    quota: quotaBody,
    counts: z.object(
      Object.fromEntries(STAT_NAMES.map((name) => [name, z.int()])) as Record<
        (typeof STAT_NAMES)[number],
        z.ZodMiniInt
      >,
    ),
  }),
  { id: 'AccountOverview' },
);

export { featureList, capabilityList };

const newKey = documented(z.string(), { description: 'The new plain API key, shown here only: store it now.' });

export const rotatedKeyBody = documented(
  z.object({
    api_key: newKey,
    previous_key_expires_at: documented(z.string(), { description: 'When the old key stops working (ISO 8601).' }),
    grace_period_seconds: z.int(),
  }),
  { id: 'RotatedApiKey' },
);

export const revokedKeysBody = documented(z.object({ id: z.string(), api_key: newKey, revoked_at: z.string() }), {
  id: 'RevokedApiKeys',
  description: 'Every earlier key stopped working at `revoked_at`; the account has only this one.',
});
