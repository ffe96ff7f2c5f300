import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../deps.ts';
import { interactionKey } from '../db/keys.ts';

export interface Interaction {
  vote?: Record<string, unknown>;
  favourite?: { id: string; created_at: string };
}

/** The vote and favourite an account's end user (sub_id) left on each image of a page: one BatchGetItem. */
export async function interactionsOf(deps: Pick<Deps, 'ddb' | 'config'>, accountId: string, subId: string, imageIds: string[]): Promise<Map<string, Interaction>> {
  const found = new Map<string, Interaction>();
  let keys: Record<string, unknown>[] = [...new Set(imageIds)].map((id) => interactionKey(accountId, subId, id));
  while (keys.length > 0) {
    const result = await deps.ddb.send(new BatchGetCommand({ RequestItems: { [deps.config.tableName]: { Keys: keys } } }));
    for (const item of result.Responses?.[deps.config.tableName] ?? []) {
      found.set(String(item.sk).replace(/^IMAGE#/, ''), { vote: item.vote, favourite: item.favourite } as Interaction);
    }
    keys = result.UnprocessedKeys?.[deps.config.tableName]?.Keys ?? [];
  }
  return found;
}
