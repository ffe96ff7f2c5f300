import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { eventOfTransition, isAllowedTransition } from '../../../shared/domain/media/lifecycle.ts';
import { birthDateProblem } from '../../../shared/domain/pets/input.ts';
import { eventsFromRecord } from '../../../shared/events/from-stream.ts';

const modify = (next: Record<string, unknown>, previous: Record<string, unknown>): DynamoDBRecord => ({
  eventID: 'rec-9',
  eventName: 'MODIFY',
  dynamodb: {
    ApproximateCreationDateTime: 1795348800,
    NewImage: marshall(next, { removeUndefinedValues: true }) as never,
    OldImage: marshall(previous, { removeUndefinedValues: true }) as never,
  },
});
const photo = {
  type: 'PetMedia',
  id: 'm1',
  account_id: 'acc-1',
  pet_id: 'pet-1',
  kind: 'photo',
  status: 'pending',
  file: 'pets/photos/acc-1/pet-1/m1.jpg',
  content_type: 'image/jpeg',
  width: 64,
  height: 48,
  sub_id: 'user-1',
  external_owner_id: 'owner-1',
  created_at: '2026-11-22T10:00:00.000Z',
};

describe('the pet media lifecycle', () => {
  it('allows only forward moves, and portraits never pass through an upload', () => {
    expect(isAllowedTransition('pet_photo', 'awaiting_upload', 'pending')).toBe(true);
    expect(isAllowedTransition('pet_photo', 'pending', 'ready')).toBe(true);
    expect(isAllowedTransition('pet_photo', 'ready', 'pending')).toBe(false);
    expect(isAllowedTransition('pet_video', 'rejected', 'ready')).toBe(false);
    expect(isAllowedTransition('portrait', 'awaiting_upload', 'pending')).toBe(false);
    expect(isAllowedTransition('portrait', 'pending', 'ready')).toBe(true);
  });

  it('names the event of each transition from the same table', () => {
    expect(eventOfTransition('pet_photo', 'awaiting_upload', 'pending')).toBe('image.uploaded');
    expect(eventOfTransition('pet_video', 'pending', 'rejected')).toBe('image.processed');
    expect(eventOfTransition('portrait', 'pending', 'ready')).toBeUndefined();
    expect(eventOfTransition('pet_photo', 'ready', 'ready')).toBeUndefined();
  });

  it('turns committed pet media transitions into events carrying the pet and its integrator ids, without a URL', () => {
    const uploaded = eventsFromRecord(modify(photo, { ...photo, status: 'awaiting_upload' }), 'https://cdn');
    const processed = eventsFromRecord(
      modify({ ...photo, status: 'ready', labels: [{ name: 'Dog', confidence: 0.9 }], label_source: 'x' }, photo),
      'https://cdn',
    );

    expect(uploaded.map((e) => [e.type, e.resource])).toEqual([
      [
        'image.uploaded',
        expect.objectContaining({
          id: 'm1',
          url: null,
          pet_id: 'pet-1',
          kind: 'photo',
          sub_id: 'user-1',
          external_owner_id: 'owner-1',
        }),
      ],
    ]);
    expect(processed.map((e) => e.type)).toEqual(['image.processed', 'image.labels_created']);
    expect(processed[0]!.resource).toMatchObject({
      status: 'ready',
      width: 64,
      pet_id: 'pet-1',
      external_owner_id: 'owner-1',
    });
    expect(
      eventsFromRecord(modify({ ...photo, kind: 'portrait', status: 'ready' }, { ...photo, kind: 'portrait' }), ''),
    ).toEqual([]);
  });
});

describe('pet birth dates', () => {
  const today = new Date('2026-11-22T10:00:00Z');
  it.each([
    ['2021-06', undefined],
    ['2026-11', undefined],
    ['2026-11-22', undefined],
    ['2026-11-23', 'must not be in the future'],
    ['2026-12', 'must not be in the future'],
    ['2023-02-29', 'is not a real date'],
    ['2024-02-29', undefined],
    ['21-06-2021', 'must be YYYY-MM or YYYY-MM-DD'],
    ['1850-01', 'must be after 1900'],
  ])('%s → %s', (value, problem) => {
    expect(birthDateProblem(value, today)).toBe(problem);
  });
});
