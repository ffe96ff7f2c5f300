import { denyPublicRequestBody, requestIdParams } from '../../shared/domain/public-requests/input.ts';
import { denyPublication } from '../../shared/domain/public-requests/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { publicRequestBody } from '../../shared/domain/public-requests/responses.ts';

export const handler = httpRoute(
  route('images.public-request-deny'),
  {
    summary: 'Deny a public request (administrators)',
    description: '`admin_message` tells the owner why; 409 `public_request_not_pending` once decided.',
    errors: [409, 503],
    params: requestIdParams,
    body: denyPublicRequestBody,
    response: publicRequestBody,
  },
  ({ params, body, account }, deps) => denyPublication(deps, account, params.requestId, body.admin_message),
);
