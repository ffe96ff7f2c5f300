import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { pageAccountItems } from '../../db/account-items.ts';
import { transact } from '../../db/transact.ts';
import { statChange } from '../../db/account-stats.ts';
import {
  accountFavouriteIndex,
  accountFavouritesPartition,
  favouriteKey,
  imageKey,
  interactionKey,
} from '../../db/keys.ts';
import type { Deps } from '../../deps.ts';
import type { Order } from '../../schema/paging.ts';
import { conflict, forbidden, notFound } from '../../errors.ts';
import type { Account } from '../accounts/account.ts';
import { imageDetails } from '../images/image-details.ts';
import { breedGroupsLookup } from '../reference/breed-groups-lookup.ts';
import { imageMatchesBreedFilters, type ImageBreedFilter } from './breed-filter.ts';
import { imageNotFound, requireImage } from './image-reference.ts';

const favouriteItemSchema = z.object({
  id: z.string(),
  account_id: z.string(),
  image_id: z.string(),
  sub_id: z.nullable(z.string()),
  created_at: z.string(),
  deleted_at: z._default(z.nullable(z.string()), null),
  image_species: z._default(z.nullable(z.string()), null),
  image_breed_ids: z._default(z.array(z.string()), []),
});
export type FavouriteItem = z.infer<typeof favouriteItemSchema>;

type FavouriteDeps = Pick<Deps, 'ddb' | 'config' | 'now' | 'newId' | 'random'>;

export const presentFavourite = (f: FavouriteItem) => ({
  id: f.id,
  account_id: f.account_id,
  image_id: f.image_id,
  sub_id: f.sub_id,
  created_at: f.created_at,
  ...(f.deleted_at && { deleted_at: f.deleted_at }),
});

/**
 * Favourites an image for the account and sub_id. The interaction entry of (account, sub_id, image) holds the live
 * favourite, so a second favourite of the same image is refused by the database: 409 naming the existing one.
 */
export async function createFavourite(
  deps: FavouriteDeps,
  account: Account,
  input: { image_id: string; sub_id?: string | undefined },
): Promise<FavouriteItem> {
  const table = deps.config.tableName;
  const image = await requireImage(deps, input.image_id);
  const favourite: FavouriteItem = {
    id: deps.newId(),
    account_id: account.id,
    image_id: input.image_id,
    sub_id: input.sub_id ?? null,
    created_at: deps.now().toISOString(),
    deleted_at: null,
    image_species: (image.species_id as string | undefined) ?? null,
    image_breed_ids: (image.breed_ids as string[] | undefined) ?? [],
  };
  const interaction = interactionKey(account.id, favourite.sub_id, favourite.image_id);
  await transact(
    deps.ddb,
    [
      {
        Update: {
          TableName: table,
          Key: interaction,
          UpdateExpression: 'SET #type = :type, favourite = :favourite',
          ConditionExpression: 'attribute_not_exists(favourite)',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: {
            ':type': 'Interaction',
            ':favourite': { id: favourite.id, created_at: favourite.created_at },
          },
        },
      },
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
          Item: {
            ...favouriteKey(favourite.id),
            ...accountFavouriteIndex(account.id, favourite.id),
            type: 'Favourite',
            ...favourite,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      statChange(table, account.id, 'favourites', 1),
    ],
    async ([duplicate, missingImage]) => {
      if (duplicate === 'ConditionalCheckFailed') {
        const { Item } = await deps.ddb.send(
          new GetCommand({ TableName: table, Key: interaction, ConsistentRead: true }),
        );
        const existing = (Item?.favourite as { id?: string } | undefined)?.id;
        return conflict('This image is already a favourite of this account and sub_id', {
          code: 'favourite_exists',
          details: { favourite_id: existing ?? null },
        });
      }
      return missingImage === 'ConditionalCheckFailed' ? imageNotFound(input.image_id) : undefined;
    },
  );
  return favourite;
}

/** The caller's live favourite: 404 when missing or deleted, 403 when it belongs to another account. */
export async function getOwnFavourite(deps: FavouriteDeps, account: Account, id: string): Promise<FavouriteItem> {
  const { Item } = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: favouriteKey(id) }));
  const favourite = Item ? favouriteItemSchema.parse(Item) : undefined;
  if (!favourite || favourite.deleted_at) throw notFound(`Favourite ${id} does not exist`);
  if (favourite.account_id !== account.id) throw forbidden(`Favourite ${id} belongs to another account`);
  return favourite;
}

/** Soft delete: the favourite stays listable with is_deleted=true; the image can be favourited again. */
export async function deleteFavourite(deps: FavouriteDeps, account: Account, id: string): Promise<void> {
  const favourite = await getOwnFavourite(deps, account, id);
  const table = deps.config.tableName;
  await transact(
    deps.ddb,
    [
      {
        Update: {
          TableName: table,
          Key: favouriteKey(id),
          UpdateExpression: 'SET deleted_at = :now',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(deleted_at) OR deleted_at = :null)',
          ExpressionAttributeValues: { ':now': deps.now().toISOString(), ':null': null },
        },
      },
      statChange(table, account.id, 'favourites', -1),
      {
        Update: {
          TableName: table,
          Key: interactionKey(account.id, favourite.sub_id, favourite.image_id),
          UpdateExpression: 'REMOVE favourite',
          ConditionExpression: 'favourite.id = :id',
          ExpressionAttributeValues: { ':id': id },
        },
      },
    ],
    (reasons) => (reasons.includes('ConditionalCheckFailed') ? notFound(`Favourite ${id} does not exist`) : undefined),
  );
}

export interface FavouriteListing extends ImageBreedFilter {
  order: Order | undefined;
  page: number;
  limit: number;
  subId?: string | undefined;
  imageId?: string | undefined;
  includeDeleted: boolean;
  /** Another account's favourites: administrators only. */
  accountId?: string | undefined;
  /** Each favourite with its image's details. */
  attachImage: boolean;
}

/** A page of the caller's favourites (an administrator's choice of account), each with its image on request. */
export async function listFavourites(deps: FavouriteDeps, account: Account, q: FavouriteListing) {
  if (q.accountId && q.accountId !== account.id && account.role !== 'admin')
    throw forbidden('account_id must be your own account');
  const favourites = await pageFavourites(deps, q.accountId ?? account.id, q, await breedGroupsLookup(deps));
  const images = q.attachImage
    ? await imageDetails(
        deps,
        favourites.map((f) => f.image_id),
      )
    : undefined;
  return favourites.map((f) => ({
    ...presentFavourite(f),
    ...(images && { image: images.get(f.image_id) ?? null }),
  }));
}

function pageFavourites(
  deps: FavouriteDeps,
  accountId: string,
  q: FavouriteListing,
  groupsOf: (breedId: string) => string[],
): Promise<FavouriteItem[]> {
  const conditions: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (q.subId !== undefined) {
    conditions.push('#sub = :sub');
    names['#sub'] = 'sub_id';
    values[':sub'] = q.subId;
  }
  if (q.imageId !== undefined) {
    conditions.push('#image = :image');
    names['#image'] = 'image_id';
    values[':image'] = q.imageId;
  }
  if (!q.includeDeleted) {
    conditions.push('(attribute_not_exists(#deleted) OR #deleted = :null)');
    names['#deleted'] = 'deleted_at';
    values[':null'] = null;
  }
  return pageAccountItems(deps, {
    partition: accountFavouritesPartition(accountId),
    order: q.order,
    page: q.page,
    limit: q.limit,
    filter: conditions.length ? { expression: conditions.join(' AND '), names, values } : undefined,
    keep: (f) => imageMatchesBreedFilters({ species: f.image_species, breedIds: f.image_breed_ids }, q, groupsOf),
    decode: (item) => favouriteItemSchema.parse(item),
  });
}
