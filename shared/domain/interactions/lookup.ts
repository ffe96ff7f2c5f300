import { batchGetAll } from '../../db/batch.ts';
import type { Deps } from '../../deps.ts';
import { interactionKey } from '../../db/keys.ts';

export interface Interaction {
  vote?: Record<string, unknown>;
  favourite?: { id: string; created_at: string };
}

/** The vote and favourite an account's end user (sub_id) left on each image of a page: one BatchGetItem. */
export async function interactionsOf(
  deps: Pick<Deps, 'ddb' | 'config'>,
  accountId: string,
  subId: string,
  imageIds: string[],
): Promise<Map<string, Interaction>> {
  const items = await batchGetAll(
    deps.ddb,
    deps.config.tableName,
    [...new Set(imageIds)].map((id) => interactionKey(accountId, subId, id)),
  );
  const found = new Map<string, Interaction>();
  for (const item of items)
    found.set(String(item.sk).replace(/^IMAGE#/, ''), { vote: item.vote, favourite: item.favourite } as Interaction);
  return found;
}
