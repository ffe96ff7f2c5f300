// Handler-test helpers for the pets area: stored pet items the mocked table serves (multipart: tests/support).
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { PetItem } from '../../../shared/domain/pets/pet.ts';
import type { mockDynamoWithAccounts } from '../../support/fixtures.ts';

export function aStoredPet(overrides: Partial<PetItem> = {}): PetItem {
  return {
    id: 'pet-1',
    account_id: 'acc-user',
    name: 'Rex',
    description: null,
    species_id: 'dog',
    breed_ids: [],
    sex: null,
    neutered: null,
    birth_date: null,
    weight_kg: null,
    sub_id: 'user-1',
    external_owner_id: 'owner-1',
    photo_count: 0,
    video_count: 0,
    portrait_count: 0,
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    ...overrides,
  };
}

/** A ready photo ph-1 of pet-1 as the table holds it. */
export const aStoredPhoto = (overrides: Record<string, unknown> = {}) => ({
  pk: 'PET#pet-1',
  sk: 'MEDIA#ph-1',
  type: 'PetMedia',
  id: 'ph-1',
  account_id: 'acc-user',
  pet_id: 'pet-1',
  kind: 'photo',
  status: 'ready',
  file: 'pets/photos/acc-user/pet-1/ph-1.jpg',
  display_key: 'pets/media/acc-user/pet-1/ph-1/display.jpg',
  content_type: 'image/jpeg',
  bytes: 100,
  created_at: '2026-11-22T09:00:00.000Z',
  ...overrides,
});

/** The mocked table also answers GetItem of this pet. */
export function servePet(ddb: ReturnType<typeof mockDynamoWithAccounts>, pet: PetItem): void {
  ddb.on(GetCommand, { Key: { pk: `PET#${pet.id}`, sk: 'PET' } } as never).resolves({ Item: { type: 'Pet', ...pet } });
}
