import { denyPublicRequestBody, requestIdParams } from '../../shared/domain/public-requests/input.ts';
import { denyPublication } from '../../shared/domain/public-requests/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { idempotency } from '../../shared/http/idempotency.ts';
import { route } from './routes.ts';

export const handler = httpRoute(
  route('images.public-request-deny'),
  {
    idempotency,
    summary: 'Deny a public request (administrators)',
    description: '`admin_message` tells the owner why; 409 `public_request_not_pending` once decided.',
    errors: [409, 503],
    params: requestIdParams,
    body: denyPublicRequestBody,
  },
  ({ params, body, account }, deps) => denyPublication(deps, account, params.requestId, body.admin_message),
);
