import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { pageAccountItems, subIdFilter } from '../../db/account-items.ts';
import { statChange } from '../../db/account-stats.ts';
import {
  accountVoteIndex,
  accountVotesPartition,
  imageKey,
  interactionKey,
  voteCounterKey,
  voteKey,
} from '../../db/keys.ts';
import { transact } from '../../db/transact.ts';
import type { Deps } from '../../deps.ts';
import type { Order } from '../../schema/paging.ts';
import { forbidden, notFound } from '../../errors.ts';
import type { Account } from '../accounts/account.ts';
import { breedGroupsLookup } from '../reference/breed-groups-lookup.ts';
import { imageMatchesBreedFilters, type ImageBreedFilter } from './breed-filter.ts';
import { imageNotFound, requireImage } from './image-reference.ts';

/** 1 is an up-vote, 0 a down-vote, as in the real service (docs/decisions.md). */
export const VOTE_VALUES = [0, 1] as const;

const voteItemSchema = z.object({
  id: z.number(),
  account_id: z.string(),
  image_id: z.string(),
  sub_id: z.nullable(z.string()),
  value: z.number(),
  country_code: z.nullable(z.string()),
  created_at: z.string(),
  image_species: z._default(z.nullable(z.string()), null),
  image_breed_ids: z._default(z.array(z.string()), []),
});
export type VoteItem = z.infer<typeof voteItemSchema>;

type VoteDeps = Pick<Deps, 'ddb' | 'config' | 'now' | 'random'>;

export const presentVote = (v: VoteItem) => ({
  id: v.id,
  image_id: v.image_id,
  sub_id: v.sub_id,
  value: v.value,
  country_code: v.country_code,
  created_at: v.created_at,
});

export interface NewVote {
  image_id: string;
  value: number;
  sub_id?: string | undefined;
}

/**
 * Records a vote: the id comes from an atomic counter, then the vote, the account's vote count and the
 * image-interaction entry are written in one transaction that also checks the image exists.
 */
export async function createVote(
  deps: VoteDeps,
  account: Account,
  input: NewVote,
  countryCode: string | null,
): Promise<VoteItem> {
  const table = deps.config.tableName;
  const image = await requireImage(deps, input.image_id);
  const { Attributes } = await deps.ddb.send(
    new UpdateCommand({
      TableName: table,
      Key: voteCounterKey(),
      UpdateExpression: 'ADD seq :one',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const vote: VoteItem = {
    id: Number(Attributes!.seq),
    account_id: account.id,
    image_id: input.image_id,
    sub_id: input.sub_id ?? null,
    value: input.value,
    country_code: countryCode,
    created_at: deps.now().toISOString(),
    image_species: (image.species_id as string | undefined) ?? null,
    image_breed_ids: (image.breed_ids as string[] | undefined) ?? [],
  };
  const missingImage = imageNotFound(input.image_id);
  await transact(
    deps.ddb,
    [
      {
        ConditionCheck: {
          TableName: table,
          Key: imageKey(input.image_id),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      {
        Put: {
          TableName: table,
          Item: { ...voteKey(vote.id), ...accountVoteIndex(account.id, vote.id), type: 'Vote', ...vote },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      statChange(table, account.id, 'votes', 1),
      {
        Update: {
          TableName: table,
          Key: interactionKey(account.id, vote.sub_id, vote.image_id),
          UpdateExpression: 'SET #type = :type, vote = :vote',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':type': 'Interaction', ':vote': presentVote(vote) },
        },
      },
    ],
    (reasons) => (reasons[0] === 'ConditionalCheckFailed' ? missingImage : undefined),
  );
  return vote;
}

/** The caller's own vote; another account's vote is 403, as for images. */
export async function getOwnVote(deps: VoteDeps, account: Account, voteId: number): Promise<VoteItem> {
  const { Item } = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: voteKey(voteId) }));
  if (!Item) throw notFound(`Vote ${voteId} does not exist`);
  const vote = voteItemSchema.parse(Item);
  if (vote.account_id !== account.id) throw forbidden(`Vote ${voteId} belongs to another account`);
  return vote;
}

/** Deletes the caller's vote with its count and interaction entry; a vote deleted meanwhile is 404. */
export async function deleteVote(deps: VoteDeps, account: Account, voteId: number): Promise<void> {
  const vote = await getOwnVote(deps, account, voteId);
  const table = deps.config.tableName;
  const voteAndCount = [
    {
      Delete: {
        TableName: table,
        Key: voteKey(voteId),
        ConditionExpression: 'account_id = :account',
        ExpressionAttributeValues: { ':account': account.id },
      },
    },
    statChange(table, account.id, 'votes', -1),
  ];
  const interaction = {
    Update: {
      TableName: table,
      Key: interactionKey(account.id, vote.sub_id, vote.image_id),
      UpdateExpression: 'REMOVE vote',
      ConditionExpression: 'vote.id = :id',
      ExpressionAttributeValues: { ':id': voteId },
    },
  };
  const gone = notFound(`Vote ${voteId} does not exist`);
  let newerVoteOwnsEntry = false;
  try {
    await transact(deps.ddb, [...voteAndCount, interaction], (reasons) => {
      if (reasons[0] === 'ConditionalCheckFailed') return gone;
      newerVoteOwnsEntry = reasons[2] === 'ConditionalCheckFailed';
      return undefined;
    });
  } catch (error) {
    if (!newerVoteOwnsEntry) throw error;
    // The interaction entry shows a newer vote: leave it, and delete this vote and its count only.
    await transact(deps.ddb, voteAndCount, (reasons) => (reasons[0] === 'ConditionalCheckFailed' ? gone : undefined));
  }
}

export interface VoteListing extends ImageBreedFilter {
  order: Order | undefined;
  page: number;
  limit: number;
  subId?: string | undefined;
}

/** A page of the account's votes, the breed filters read against the reference breeds. */
export async function listVotes(deps: VoteDeps, account: Account, q: VoteListing) {
  const groupsOf = await breedGroupsLookup(deps);
  const votes = await pageAccountItems<VoteItem>(deps, {
    partition: accountVotesPartition(account.id),
    order: q.order,
    page: q.page,
    limit: q.limit,
    filter: subIdFilter(q.subId),
    keep: (v) => imageMatchesBreedFilters({ species: v.image_species, breedIds: v.image_breed_ids }, q, groupsOf),
    decode: (item) => voteItemSchema.parse(item),
  });
  return votes.map(presentVote);
}
