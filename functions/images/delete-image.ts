import { SUCCESS } from '../../shared/http/responses.ts';
import { deleteUpload } from '../../shared/domain/images/uploads.ts';
import { idParam } from '../../shared/schema/paging.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import { successMessage } from '../../shared/domain/images/responses.ts';

export const handler = httpRoute(
  route('images.delete'),
  { summary: 'Delete one of your uploads', params: idParam('id'), response: successMessage },
  async ({ params, account }, deps) => {
    await deleteUpload(deps, account, params.id);
    return SUCCESS;
  },
);
