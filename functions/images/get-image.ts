import { asUpload, getImage, presentUpload } from '../../shared/domain/images/uploads.ts';
import { idParam } from '../../shared/http/common-params.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from '../routes.ts';

/** An upload of the caller's (403 for another account's) or any catalogue image. */
export const handler = httpRoute(route('images.get'), { params: idParam('id') }, async ({ params, account }, deps) => {
  const item = await getImage(deps, account, params.id);
  if (item.source === 'upload') return presentUpload(asUpload(item), deps.config.mediaBaseUrl);
  return {
    id: item.id,
    url: `${deps.config.mediaBaseUrl}/${String(item.file)}`,
    width: item.width,
    height: item.height,
    species_id: item.species_id,
    breed_ids: item.breed_ids,
    category_ids: item.category_ids,
    status: 'approved',
    created_at: item.created_at,
  };
});
