import { publicationStatus } from '../../shared/domain/public-requests/service.ts';
import { idParam } from '../../shared/schema/paging.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { publicRequestStatusBody } from '../../shared/domain/public-requests/responses.ts';

export const handler = httpRoute(
  route('images.public-request-status'),
  {
    summary: "Your upload's public request",
    description:
      'The newest request (`pending`, `approved` or `denied`, with `admin_message`), or `{"status":"none"}` when the image was never put forward or its request was withdrawn.',
    params: idParam('id'),
    response: publicRequestStatusBody,
  },
  ({ params, account }, deps) => publicationStatus(deps, account, params.id),
);
