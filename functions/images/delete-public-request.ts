import { SUCCESS } from '../../shared/http/responses.ts';
import { withdrawPublication } from '../../shared/domain/public-requests/service.ts';
import { idParam } from '../../shared/schema/paging.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { successMessage } from '../../shared/domain/images/responses.ts';

export const handler = httpRoute(
  route('images.public-request-withdraw'),
  {
    summary: 'Withdraw your pending public request',
    description: 'Only while it is pending; 404 `no_pending_public_request` otherwise. A decided request stays.',
    params: idParam('id'),
    response: successMessage,
  },
  async ({ params, account }, deps) => {
    await withdrawPublication(deps, account, params.id);
    return SUCCESS;
  },
);
