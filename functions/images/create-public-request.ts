import { createPublicRequestBody } from '../../shared/domain/public-requests/input.ts';
import { requestPublication } from '../../shared/domain/public-requests/service.ts';
import { idParam } from '../../shared/schema/paging.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { publicRequestBody } from '../../shared/domain/public-requests/responses.ts';

/** The owner puts an approved upload forward for the public library: 201 pending, 409 while one is pending. */
export const handler = httpRoute(
  route('images.public-request-create'),
  {
    summary: 'Ask for one of your uploads to become public',
    description:
      'For an approved upload of yours: an optional `request_message` (≤ 500 characters), how to credit you (`author`) and the licence you grant (`CC-BY-4.0` unless you choose `CC-BY-SA-4.0` or `CC0-1.0`). 201 `pending`; 409 `public_request_pending` naming the pending request, `image_already_public`, `image_not_ready` (still being checked) or `image_rejected`.',
    errors: [409, 503],
    params: idParam('id'),
    body: createPublicRequestBody,
    response: publicRequestBody,
  },
  ({ params, body, account }, deps) => requestPublication(deps, account, params.id, body),
);
