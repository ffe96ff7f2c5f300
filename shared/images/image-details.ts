import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../deps.ts';
import { imageKey } from '../db/keys.ts';

export interface ImageDetails {
  id: string;
  url: string;
  width: number | null;
  height: number | null;
  species_id: string | null;
}

/** Details of the images behind favourites (`attach_image=true`): one BatchGetItem per 100 ids. */
export async function imageDetails(deps: Pick<Deps, 'ddb' | 'config'>, ids: string[]): Promise<Map<string, ImageDetails>> {
  const unique = [...new Set(ids)];
  const found = new Map<string, ImageDetails>();
  for (let i = 0; i < unique.length; i += 100) {
    let keys: Record<string, unknown>[] = unique.slice(i, i + 100).map(imageKey);
    while (keys.length > 0) {
      const result = await deps.ddb.send(new BatchGetCommand({ RequestItems: { [deps.config.tableName]: { Keys: keys } } }));
      for (const item of result.Responses?.[deps.config.tableName] ?? []) {
        found.set(String(item.id), {
          id: String(item.id),
          url: `${deps.config.mediaBaseUrl}/${String(item.file)}`,
          width: (item.width as number | undefined) ?? null,
          height: (item.height as number | undefined) ?? null,
          species_id: (item.species_id as string | undefined) ?? null,
        });
      }
      keys = result.UnprocessedKeys?.[deps.config.tableName]?.Keys ?? [];
    }
  }
  return found;
}
