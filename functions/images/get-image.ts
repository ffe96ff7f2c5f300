import { asUpload, getImage, presentUpload } from '../../shared/domain/images/uploads.ts';
import { provenanceOf } from '../../shared/domain/images/present.ts';
import type { ImageSummary } from '../../shared/domain/images/catalogue-index.ts';
import { publicMediaUrl } from '../../shared/media/public-url.ts';
import { idParam } from '../../shared/schema/paging.ts';
import { httpRoute } from '../../shared/http/pipeline.ts';
import { route } from './routes.ts';
import * as z from 'zod/mini';
import { uploadBody, catalogueImageBody } from '../../shared/domain/images/responses.ts';

export const handler = httpRoute(
  route('images.get'),
  {
    summary: 'One image',
    description: "An upload of yours (403 for another account's) or any public image (catalogue or public library).",
    params: idParam('id'),
    response: z.union([uploadBody, catalogueImageBody]),
  },
  async ({ params, account }, deps) => {
    const item = await getImage(deps, account, params.id);
    if (item.source === 'upload' && item.account_id === account.id)
      return presentUpload(asUpload(item), deps.config.mediaBaseUrl);
    // Another account's upload is readable once public, as the public library shows it; anything else is a catalogue
    // image or an imported photo, written in this shape.
    const image = (item.source === 'upload' ? (item.public as { summary: unknown }).summary : item) as ImageSummary;
    return {
      id: image.id,
      url: publicMediaUrl(deps.config.mediaBaseUrl, image.file),
      width: image.width,
      height: image.height,
      species_id: image.species_id,
      breed_ids: image.breed_ids,
      category_ids: image.category_ids,
      status: 'approved' as const,
      created_at: image.created_at,
      ...provenanceOf(image),
    };
  },
);
