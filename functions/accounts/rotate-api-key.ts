import { keyRotationSchema } from '../../shared/domain/accounts/input.ts';
import { rotateApiKey } from '../../shared/domain/accounts/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { rotatedKeyBody } from '../../shared/domain/accounts/responses.ts';

// Only the key itself can rotate it (the route takes no bearer token), and only while it is the current key.
export const handler = httpRoute(
  route('accounts.rotate-key'),
  {
    summary: 'Rotate your API key',
    description:
      'A new key, shown once; the old one keeps working for `grace_period_seconds` (0–24 h), then answers 401 `api_key_expired`. Only the current key can rotate itself.',
    body: keyRotationSchema,
    response: rotatedKeyBody,
  },
  async ({ account, body, headers }, deps) => {
    const { api_key, previous_key_expires_at, grace_period_seconds } = await rotateApiKey(
      deps,
      account.id,
      body.grace_period_seconds,
      headers['x-api-key'],
    );
    return { api_key, previous_key_expires_at, grace_period_seconds };
  },
);
