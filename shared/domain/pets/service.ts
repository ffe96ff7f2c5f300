// The pets area's rules: ownership (403 across accounts), profile validation against the breed catalogue, photos with
// their limits, media listing and deletion. Other areas (analysis) call this module, never the store.
import { badRequest, forbidden, notFound } from '../../errors.ts';
import type { Deps } from '../../deps.ts';
import { type Language, Translator } from '../reference/i18n.ts';
import type { Account } from '../accounts/account.ts';
import { loadBreeds, loadTemperaments, presentBreed, type BreedRecord } from '../reference/breeds.ts';
import {
  deleteMediaObjects,
  deleteMediaPrefixes,
  getMediaObject,
  petObjectKeys,
  putMediaObject,
} from '../media/objects.ts';
import { transact } from '../../db/transact.ts';
import { readAccountStat } from '../../db/account-stats.ts';
import { shuffle } from '../../schema/paging.ts';
import { petMediaKey, petPhotoHashKey } from '../../db/keys.ts';
import type { CreatePetFields, ListPetsQuery, UpdatePetBody } from './input.ts';
import { checkBreeds } from './breeds.ts';
import { asPetMedia, markPetMediaArrived, presentPetMedia, type PetMediaItem } from './media.ts';
import { giveBackPetMedia, removeAwaitingMedia } from './give-back.ts';
import { quotaReturn } from '../accounts/quota.ts';
import { presentPet, type MediaKind, type PetItem, type PetProfile } from './pet.ts';
import { inspectPetPhoto, petCountWrite, recordPhotos, type AddedPhoto } from './photos.ts';
import { type PhotoLook, settledPhotos } from './photo-wait.ts';
import {
  insertPet,
  petCreation,
  pageAccountPets,
  pagePetMedia,
  queryAccountPetEntries,
  queryNewestUsablePhotos,
  queryNewestPetMedia,
  readListedPets,
  readPet,
  readPetMedia,
  readPets,
  removePet,
  writePetProfile,
} from './store.ts';

type PetDeps = Pick<Deps, 'ddb' | 'config' | 'now' | 'newId' | 'random' | 'log'>;
type ReadDeps = Pick<Deps, 'ddb' | 'config' | 'now'>;

/** The caller's pet: 404 when no such pet exists, 403 when it belongs to another account (spec rule 1). */
export async function requireOwnPet(deps: Pick<Deps, 'ddb' | 'config'>, account: Account, petId: string) {
  const pet = await readPet(deps, petId);
  if (!pet) throw notFound(`Pet ${petId} does not exist`);
  if (pet.account_id !== account.id) throw forbidden(`Pet ${petId} belongs to another account`);
  return pet;
}

/** A new pet with its first photos (zero or more), all in one transaction: the pet never exists half-made. */
export async function createPet(
  deps: PetDeps,
  account: Account,
  fields: CreatePetFields,
  files: { filename: string; bytes: Buffer }[],
): Promise<{ pet: PetItem; photos: AddedPhoto[] }> {
  const breedIds = fields.breed_ids ?? [];
  const { species, problems } = await checkBreeds(deps, breedIds, fields.species_id);
  if (!species) problems.push('species_id is required (dog or cat) unless breed_ids names a breed');
  if (problems.length > 0) throw badRequest(problems);
  const photos = files.map((f) => ({ ...inspectPetPhoto(f.bytes), filename: f.filename || null }));
  const now = deps.now().toISOString();
  const pet: PetItem = {
    id: deps.newId(),
    account_id: account.id,
    name: fields.name,
    description: fields.description ?? null,
    species_id: species!,
    breed_ids: breedIds,
    sex: fields.sex ?? null,
    neutered: fields.neutered ?? null,
    birth_date: fields.birth_date ?? null,
    weight_kg: fields.weight_kg ?? null,
    sub_id: fields.sub_id ?? null,
    external_owner_id: fields.external_owner_id ?? null,
    respiratory_alert: null,
    photo_count: new Set(photos.map((p) => p.sha256)).size,
    video_count: 0,
    portrait_count: 0,
    created_at: now,
    updated_at: now,
  };
  if (photos.length === 0) {
    await insertPet(deps, pet);
    return { pet, photos: [] };
  }
  const added = await recordPhotos(deps, account, pet, photos, {
    createPet: petCreation(deps.config.tableName, pet),
  });
  await storePhotos(deps, pet, added, true);
  return { pet, photos: arrived(added) };
}

/** POST /pets/{petId}/images: photos by direct upload. */
export async function addPetPhotos(
  deps: PetDeps,
  account: Account,
  petId: string,
  files: { filename: string; bytes: Buffer }[],
): Promise<AddedPhoto[]> {
  const pet = await requireOwnPet(deps, account, petId);
  const photos = files.map((f) => ({ ...inspectPetPhoto(f.bytes), filename: f.filename || null }));
  const added = await recordPhotos(deps, account, pet, photos);
  await storePhotos(deps, pet, added);
  return arrived(added);
}

/** After storing: the new photos (and repeats of them within the request) are pending. */
function arrived(added: AddedPhoto[]): AddedPhoto[] {
  const stored = new Set(added.filter((p) => !p.duplicate).map((p) => p.media.id));
  return added.map((p) =>
    stored.has(p.media.id) && p.media.status === 'awaiting_upload'
      ? { ...p, media: { ...p.media, status: 'pending' } }
      : p,
  );
}

/**
 * Stores the new photos' bytes, then announces each (awaiting_upload → pending). When storing fails, what the
 * request took is given back before the error surfaces: a new pet is removed whole, and the photos added to an
 * existing pet give back their records, hashes, rate slots, quota and count. No record waits for bytes that never come.
 */
async function storePhotos(deps: PetDeps, pet: PetItem, added: AddedPhoto[], newPet = false): Promise<void> {
  const fresh = added.filter((p) => !p.duplicate && p.bytes);
  const stored = await Promise.allSettled(
    fresh.map((p) => putMediaObject(deps, p.media.file, p.bytes!, { ContentType: p.media.content_type })),
  );
  const failure = stored.find((r) => r.status === 'rejected');
  if (failure) {
    const forgotten = await (newPet ? forgetNewPet(deps, pet, fresh) : forgetPhotos(deps, fresh)).catch(
      (cleanup: unknown) => {
        deps.log.error('could not give back photos whose bytes were not stored', { error: cleanup });
        return [];
      },
    );
    // Objects that did arrive belong to nobody once their records are gone.
    await deleteMediaObjects(
      deps,
      forgotten.map((p) => p.media.file),
    ).catch(() => undefined);
    throw failure.reason;
  }
  await Promise.all(fresh.map((p) => markPetMediaArrived(deps, { ...p.media, kind: 'photo' })));
}

/** The photos given back; one whose bytes a processor saw meanwhile stays (it is no longer awaiting them). */
async function forgetPhotos(deps: PetDeps, fresh: AddedPhoto[]): Promise<AddedPhoto[]> {
  const settled = await Promise.all(
    fresh.map((p) => giveBackPetMedia(deps, p.media, removeAwaitingMedia(deps.config.tableName, p.media))),
  );
  return fresh.filter((_, i) => settled[i]);
}

/** A pet made by this request is removed with everything in its partition; its photos' quota goes back. */
async function forgetNewPet(deps: PetDeps, pet: PetItem, fresh: AddedPhoto[]): Promise<AddedPhoto[]> {
  await removePet(deps, pet);
  await transact(deps.ddb, [quotaReturn(deps.config.tableName, pet.account_id, pet.created_at, fresh.length)]);
  return fresh;
}

/**
 * GET /pets: one page of the account's pets and the total for `Pagination-Count`. Without a filter the total is the
 * account's pet count (moved by the same transactions that create and delete pets) and only the page is read; with
 * a filter, or in random order, every pet's keys and filterable fields are read (at most MAX_PETS_PER_ACCOUNT) and
 * only the page's pets are read whole (docs/decisions.md#pets).
 */
export async function listPets(deps: PetDeps, account: Account, q: ListPetsQuery) {
  const equals: Record<string, string> = {};
  if (q.sub_id !== undefined) equals.sub_id = q.sub_id;
  if (q.external_owner_id !== undefined) equals.external_owner_id = q.external_owner_id;
  if (q.species_id !== undefined) equals.species_id = q.species_id;
  const include = q.breed_groups?.map((g) => g.toLowerCase()) ?? [];
  const exclude = q.exclude_breed_groups?.map((g) => g.toLowerCase()) ?? [];
  const filtered = Object.keys(equals).length > 0 || q.breed_id !== undefined || include.length + exclude.length > 0;
  if (!filtered && q.order !== 'RANDOM') {
    const [total, pets] = await Promise.all([
      readAccountStat(deps, account.id, 'pets'),
      pageAccountPets(deps, account.id, { skip: q.page * q.limit, limit: q.limit, newestFirst: q.order === 'DESC' }),
    ]);
    return { pets, total };
  }
  let entries = await queryAccountPetEntries(deps, account.id, equals);
  if (q.breed_id !== undefined) entries = entries.filter((p) => p.breed_ids.includes(q.breed_id!));
  if (include.length + exclude.length > 0) {
    const groupsOf = new Map((await loadBreeds(deps)).map((b) => [b.id, b.breed_groups.map((g) => g.toLowerCase())]));
    entries = entries.filter((p) => {
      const groups = p.breed_ids.flatMap((id) => groupsOf.get(id) ?? []);
      return (
        (include.length === 0 || include.some((g) => groups.includes(g))) && !exclude.some((g) => groups.includes(g))
      );
    });
  }
  const page =
    q.order === 'RANDOM'
      ? shuffle(entries, deps.random).slice(0, q.limit)
      : (q.order === 'DESC' ? entries.reverse() : entries).slice(q.page * q.limit, (q.page + 1) * q.limit);
  return { pets: await readListedPets(deps, page), total: entries.length };
}

/** PATCH /pets/{petId}: the given fields, checked like a new pet's; species and breeds must still agree. */
export async function updatePet(deps: PetDeps, account: Account, petId: string, body: UpdatePetBody): Promise<PetItem> {
  if (Object.keys(body).length === 0) throw badRequest('Send at least one field to change');
  const pet = await requireOwnPet(deps, account, petId);
  const breedIds = body.breed_ids ?? pet.breed_ids;
  const speciesGiven = body.species_id ?? (body.breed_ids ? undefined : pet.species_id);
  const { species, problems } = await checkBreeds(deps, breedIds, speciesGiven);
  if (problems.length > 0) throw badRequest(problems);
  const changes: Partial<PetProfile> = {
    ...body,
    ...(species && species !== pet.species_id && { species_id: species }),
  };
  return writePetProfile(deps, pet, changes, deps.now().toISOString());
}

/** DELETE /pets/{petId}: the pet, every record in its partition and every object under its prefixes. */
export async function deletePet(deps: PetDeps, account: Account, petId: string): Promise<void> {
  const pet = await requireOwnPet(deps, account, petId);
  await removePet(deps, pet);
  await deleteMediaPrefixes(deps, petObjectKeys.ofPet(pet.account_id, pet.id));
}

/** The response shape of pets, with their breeds in the basic breed shape (translated with `lang`). */
export async function presentPets(deps: ReadDeps, pets: PetItem[], lang: Language | undefined) {
  const needsBreeds = pets.some((p) => p.breed_ids.length > 0);
  const [breeds, temperaments] = needsBreeds
    ? await Promise.all([loadBreeds(deps), loadTemperaments(deps)])
    : [[] as BreedRecord[], {}];
  const byId = new Map(breeds.map((b) => [b.id, b]));
  const translator = new Translator(lang ?? 'en');
  return pets.map((pet) =>
    presentPet(
      pet,
      pet.breed_ids.flatMap((id) => {
        const breed = byId.get(id);
        return breed ? [presentBreed(breed, false, translator, temperaments, deps.config.mediaBaseUrl)] : [];
      }),
    ),
  );
}

/** One pet in the response shape. */
export async function presentOnePet(deps: ReadDeps, pet: PetItem, lang: Language | undefined) {
  const [presented] = await presentPets(deps, [pet], lang);
  return presented!;
}

/** The caller's media item of the caller's pet: 404 / 403 as for pets (an image of another account is 403). */
export async function requireOwnPetMedia(deps: PetDeps, account: Account, petId: string, mediaId: string) {
  const pet = await requireOwnPet(deps, account, petId);
  const item = await readPetMedia(deps, petId, mediaId);
  if (!item) throw notFound(`Image ${mediaId} does not exist on pet ${petId}`);
  return { pet, media: asPetMedia(item) };
}

export { NEWEST_MEDIA_WINDOW } from './store.ts';

/** A pet's newest videos, newest first, at most NEWEST_MEDIA_WINDOW (the respiratory rate measures one of them). */
export async function newestPetVideos(deps: Pick<Deps, 'ddb' | 'config'>, petId: string): Promise<PetMediaItem[]> {
  return (await queryNewestPetMedia(deps, petId, 'video')).map(asPetMedia);
}

/** One media item of a pet for a worker whose own record names the pet (no caller to check ownership against). */
export async function findPetMedia(
  deps: Pick<Deps, 'ddb' | 'config'>,
  petId: string,
  mediaId: string,
): Promise<PetMediaItem | undefined> {
  const item = await readPetMedia(deps, petId, mediaId);
  return item ? asPetMedia(item) : undefined;
}

/**
 * A pet's media of one kind or all, oldest first by default. `total` (for `Pagination-Count`) is the pet's counts,
 * which the transactions that add and remove media move with the items (never a count of items read), and the page
 * is one bounded read (pagePetMedia), so a request costs the same however large the gallery.
 */
export async function listPetMedia(
  deps: PetDeps,
  account: Account,
  petId: string,
  q: { kind?: MediaKind | undefined; order?: 'ASC' | 'DESC' | 'RANDOM' | undefined; page: number; limit: number },
) {
  const pet = await requireOwnPet(deps, account, petId);
  const total = q.kind ? pet[`${q.kind}_count`] : pet.photo_count + pet.video_count + pet.portrait_count;
  const items = await pagePetMedia(deps, petId, {
    kind: q.kind,
    skip: q.order === 'RANDOM' ? 0 : q.page * q.limit,
    limit: q.limit,
    newestFirst: q.order === 'DESC',
  });
  return { media: items.map(asPetMedia), total };
}

/**
 * DELETE /pets/{petId}/images/{imageId}: the record, its hash (so the same bytes can be added again), the pet's
 * count, then its objects. Rate slots stay taken: the window counts uploads, not what is kept.
 */
export async function deletePetMedia(deps: PetDeps, account: Account, petId: string, mediaId: string): Promise<void> {
  const { pet, media } = await requireOwnPetMedia(deps, account, petId, mediaId);
  const table = deps.config.tableName;
  await transact(
    deps.ddb,
    [
      {
        Delete: {
          TableName: table,
          Key: petMediaKey(pet.id, media.id),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      ...(media.sha256 && media.kind === 'photo'
        ? [
            {
              Delete: {
                TableName: table,
                Key: petPhotoHashKey(pet.id, media.sha256),
                ConditionExpression: 'attribute_not_exists(pk) OR media_id = :id',
                ExpressionAttributeValues: { ':id': media.id },
              },
            },
          ]
        : []),
      petCountWrite(table, pet, -1, `${media.kind}_count`),
    ],
    (reasons) => (reasons[0] === 'ConditionalCheckFailed' ? notFound(`Image ${mediaId} does not exist`) : undefined),
  );
  await deleteMediaObjects(deps, [media.file]);
  await deleteMediaPrefixes(deps, [petObjectKeys.ofMedia(pet.account_id, pet.id, media.id)]);
}

/**
 * For photo analysis: the pet's newest `max` ready photos (never videos or portraits, spec rule 3) with their hashes;
 * `readPhotoBytes` loads one photo's served copy (oriented, at most 2048 px, without EXIF/GPS). While a photo newer
 * than the last of those is still processing, it waits up to `waitMs` (photo-wait.ts), so a photo just added is
 * analysed; then the newest ready ones are taken. The first read goes alongside the ownership check and its photos
 * are returned only when it passes.
 */
export async function listReadyPhotos(
  deps: Pick<Deps, 'ddb' | 'config' | 'now' | 'sleep'>,
  account: Account,
  petId: string,
  options: { max: number; waitMs: number },
) {
  const look = async (): Promise<PhotoLook> => {
    const photos = (await queryNewestUsablePhotos(deps, petId, options.max)).map(asPetMedia);
    return {
      ready: photos.filter((p) => p.status === 'ready'),
      processing: photos.some((p) => p.status === 'pending'),
    };
  };
  const first = look();
  const [pet] = await Promise.all([requireOwnPet(deps, account, petId), first]);
  return { pet, photos: await settledPhotos(deps, options.waitMs, look, first) };
}

/**
 * What a vet needs to review an analysis of any account's pet (vets act for the service, not for an account): the
 * profile fields that bear on body condition and those of the given photos still on the pet, with short-lived URLs.
 */
export async function petForReview(deps: ReadDeps, petId: string, photoIds: string[]) {
  const [pet, items] = await Promise.all([
    readPet(deps, petId),
    Promise.all(photoIds.map((id) => readPetMedia(deps, petId, id))),
  ]);
  const photos = await Promise.all(items.flatMap((item) => (item ? [presentPetMedia(deps, asPetMedia(item))] : [])));
  if (!pet) return { pet: null, photos };
  const { name, species_id, breed_ids, sex, neutered, birth_date, weight_kg } = pet;
  return { pet: { name, species_id, breed_ids, sex, neutered, birth_date, weight_kg }, photos };
}

/** What a list of other areas' items shows of each pet, by id: its name and species (pets that are gone are absent). */
export async function petLabels(deps: ReadDeps, petIds: readonly string[]) {
  const pets = await readPets(deps, petIds);
  return new Map(pets.map(({ id, name, species_id }) => [id, { name, species_id }]));
}

export async function readPhotoBytes(deps: Pick<Deps, 'config'>, photo: PetMediaItem): Promise<Uint8Array> {
  const object = await getMediaObject(deps, photo.display_key ?? photo.file);
  return object.Body!.transformToByteArray();
}

export { presentPetMedia };
