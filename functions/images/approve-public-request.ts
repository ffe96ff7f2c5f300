import { approvePublicRequestBody, requestIdParams } from '../../shared/domain/public-requests/input.ts';
import { approvePublication } from '../../shared/domain/public-requests/service.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { publicRequestBody } from '../../shared/domain/public-requests/responses.ts';

/** An administrator approves with the photo's tags: it joins /images/search in the same transaction. */
export const handler = httpRoute(
  route('images.public-request-approve'),
  {
    summary: 'Approve a public request with its tags (administrators)',
    description:
      'Species and up to 3 breeds, colours and categories, checked against the reference data (400 `invalid_tags`); the photo is searchable as soon as this answers. 409 `public_request_not_pending` once decided; 404 `image_deleted` or 409 `image_rejected` when the image can no longer be published; 409 `image_not_ready` for an upload without a metadata-free copy.',
    errors: [409, 503],
    params: requestIdParams,
    body: approvePublicRequestBody,
    response: publicRequestBody,
  },
  ({ params, body, account }, deps) => approvePublication(deps, account, params.requestId, body),
);
