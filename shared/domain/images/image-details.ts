import { batchGetAll } from '../../db/batch.ts';
import type { Deps } from '../../deps.ts';
import { imageKey } from '../../db/keys.ts';
import { publicMediaUrl } from '../../media/public-url.ts';

export interface ImageDetails {
  id: string;
  url: string;
  width: number | null;
  height: number | null;
  species_id: string | null;
}

/** Details of the images behind favourites (`attach_image=true`): one BatchGetItem per 100 ids. */
export async function imageDetails(
  deps: Pick<Deps, 'ddb' | 'config'>,
  ids: string[],
): Promise<Map<string, ImageDetails>> {
  const items = await batchGetAll(deps.ddb, deps.config.tableName, [...new Set(ids)].map(imageKey));
  const found = new Map<string, ImageDetails>();
  for (const item of items) {
    found.set(String(item.id), {
      id: String(item.id),
      url: publicMediaUrl(deps.config.mediaBaseUrl, String(item.file)),
      width: (item.width as number | undefined) ?? null,
      height: (item.height as number | undefined) ?? null,
      species_id: (item.species_id as string | undefined) ?? null,
    });
  }
  return found;
}
