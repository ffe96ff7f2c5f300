import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/pets/update-pet.ts';
import { setDepsForTest } from '../../../shared/deps.ts';
import { mockDynamoWithAccounts, USER_KEY } from '../../support/fixtures.ts';
import { jsonBody } from '../../support/http-event.ts';
import { aBreed, serveReferenceData } from '../../support/reference-fixtures.ts';
import { aStoredPet, callAs, OTHER_KEY, ownerAndStranger, servePet, DATA_TABLE } from './pet-fixtures.ts';
import { conditionalCheckFailed } from '../../support/dynamo-errors.ts';
import { updatedAttributes, writeTo } from '../../support/dynamo-writes.ts';
import { petKey } from '../../../shared/db/keys.ts';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const patch = (key: string, petId: string, body: unknown) =>
  callAs(handler, key, { method: 'PATCH', path: `/v1/pets/${petId}`, pathParameters: { petId }, body });

describe('PATCH /v1/pets/{petId}', () => {
  let ddb: ReturnType<typeof mockDynamoWithAccounts>;
  beforeEach(() => {
    ddb = mockDynamoWithAccounts(ownerAndStranger());
    serveReferenceData(ddb, {
      breeds: [
        aBreed({ id: 'beagle', name: 'Beagle', breed_groups: ['Hound'] }),
        aBreed({ id: 'siamese', name: 'Siamese', species_id: 'cat' }),
      ],
    });
    servePet(ddb, aStoredPet({ description: 'old', weight_kg: 10 }));
    // The table answers the item as it is after the update.
    ddb.on(UpdateCommand, DATA_TABLE).callsFake((input) => ({
      Attributes: { ...aStoredPet({ description: 'old', weight_kg: 10 }), ...updatedAttributes(input) },
    }));
    setDepsForTest({ now: () => NOW });
  });

  it('sets the given fields in one conditional update, clears those sent as null, and answers the pet', async () => {
    const result = await patch(USER_KEY, 'pet-1', { sub_id: 'user-9', breed_ids: ['beagle'], description: null });

    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toMatchObject({
      id: 'pet-1',
      sub_id: 'user-9',
      description: null,
      weight_kg: 10,
      breeds: [{ id: 'beagle', name: 'Beagle' }],
      updated_at: NOW.toISOString(),
    });
    const update = writeTo(ddb, petKey('pet-1'));
    // Only while the pet is the caller's.
    expect(update.conditionValues).toEqual(['acc-user']);
    expect(update.update).toEqual({
      sub_id: 'user-9',
      breed_ids: ['beagle'],
      description: null,
      updated_at: NOW.toISOString(),
    });
  });

  it('follows the species of new breeds when no species is sent', async () => {
    await patch(USER_KEY, 'pet-1', { breed_ids: ['siamese'] });

    expect(writeTo(ddb, petKey('pet-1')).update).toMatchObject({
      breed_ids: ['siamese'],
      species_id: 'cat',
    });
  });

  it('answers one 400 listing every problem of the body and writes nothing', async () => {
    const syntax = await patch(USER_KEY, 'pet-1', {
      sub_id: 'me@example.com',
      weight_kg: -2,
      birth_date: '2999-01',
      colour: 'red',
    });
    const breeds = await patch(USER_KEY, 'pet-1', { breed_ids: ['beagle', 'unicorn'], species_id: 'cat' });
    const empty = await patch(USER_KEY, 'pet-1', {});

    expect(syntax.statusCode).toBe(400);
    expect(jsonBody(syntax)).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(jsonBody(syntax).message).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^sub_id/),
        expect.stringMatching(/^weight_kg/),
        'birth_date must not be in the future',
        expect.stringContaining('colour'),
      ]),
    );
    expect(jsonBody(breeds).message).toEqual([
      'breed_ids unicorn is not a known breed id',
      'breed_ids beagle is not a breed of species cat',
    ]);
    expect(jsonBody(empty).message).toBe('Send at least one field to change');
    expect(ddb.commandCalls(UpdateCommand, DATA_TABLE)).toHaveLength(0);
  });

  it('names unknown breeds together with the problems of the other fields, in one 400', async () => {
    const result = await patch(USER_KEY, 'pet-1', { breed_ids: ['beagle', 'unicorn'], weight_kg: -2, name: '' });

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).message).toEqual([
      'name must not be empty',
      'weight_kg must be greater than 0',
      'breed_ids unicorn is not a known breed id',
    ]);
    expect(ddb.commandCalls(UpdateCommand, DATA_TABLE)).toHaveLength(0);
  });

  it('refuses a description with NUL, U+FFFF or an unpaired surrogate, and keeps line breaks', async () => {
    const refused = await patch(USER_KEY, 'pet-1', { description: 'x\u0000\uffff\ud83d' });
    const kept = await patch(USER_KEY, 'pet-1', { description: 'Friendly.\nLoves walks 🐶' });

    expect(refused.statusCode).toBe(400);
    expect(jsonBody(refused).message).toEqual([
      expect.stringMatching(/^description must not contain control characters/),
    ]);
    expect(kept.statusCode).toBe(200);
    expect(jsonBody(kept).description).toBe('Friendly.\nLoves walks 🐶');
  });

  it('sets the respiratory-rate alert rule, and null goes back to the species default', async () => {
    const rule = { threshold_bpm: 35, rise_percent: 40 };
    const set = await patch(USER_KEY, 'pet-1', { respiratory_alert: rule });
    const cleared = await patch(USER_KEY, 'pet-1', { respiratory_alert: null });

    expect(jsonBody(set).respiratory_alert).toEqual({ ...rule, source: 'owner' });
    // The stored pet is a dog: 30 breaths a minute, 25 % over its own baseline.
    expect(jsonBody(cleared).respiratory_alert).toEqual({
      threshold_bpm: 30,
      rise_percent: 25,
      source: 'species_default',
    });
    expect(ddb.commandCalls(UpdateCommand, DATA_TABLE).map((call) => updatedAttributes(call.args[0].input))).toEqual([
      expect.objectContaining({ respiratory_alert: rule }),
      expect.objectContaining({ respiratory_alert: null }),
    ]);
  });

  it('refuses an alert rule out of bounds, incomplete, fractional or with unknown fields, and writes nothing', async () => {
    const bodies = [
      { threshold_bpm: 9, rise_percent: 25 },
      { threshold_bpm: 91, rise_percent: 25 },
      { threshold_bpm: 30, rise_percent: 9 },
      { threshold_bpm: 30, rise_percent: 201 },
      { threshold_bpm: 30 },
      { threshold_bpm: 30.5, rise_percent: 25 },
      { threshold_bpm: 30, rise_percent: 25, notify: 'sms' },
      { threshold_bpm: '30', rise_percent: 25 },
    ];
    const answers = await Promise.all(bodies.map((rule) => patch(USER_KEY, 'pet-1', { respiratory_alert: rule })));

    expect(answers.map((answer) => answer.statusCode)).toEqual(bodies.map(() => 400));
    expect(answers.map((answer) => jsonBody(answer).message)).toEqual([
      ['respiratory_alert.threshold_bpm must be at least 10'],
      ['respiratory_alert.threshold_bpm must be at most 90'],
      ['respiratory_alert.rise_percent must be at least 10'],
      ['respiratory_alert.rise_percent must be at most 200'],
      ['respiratory_alert.rise_percent is required'],
      ['respiratory_alert.threshold_bpm must be an int'],
      ["unknown field 'respiratory_alert.notify'"],
      ['respiratory_alert.threshold_bpm must be a number'],
    ]);
    expect(ddb.commandCalls(UpdateCommand, DATA_TABLE)).toHaveLength(0);
  });

  it('answers 403 for another account’s pet and 404 for an unknown one, without writing', async () => {
    expect((await patch(OTHER_KEY, 'pet-1', { name: 'Mine now' })).statusCode).toBe(403);
    expect((await patch(USER_KEY, 'pet-404', { name: 'Ghost' })).statusCode).toBe(404);
    expect(ddb.commandCalls(UpdateCommand, DATA_TABLE)).toHaveLength(0);
  });

  it('answers 404 when the pet is deleted between the read and the write', async () => {
    ddb.on(UpdateCommand, DATA_TABLE).rejects(conditionalCheckFailed());

    const result = await patch(USER_KEY, 'pet-1', { name: 'Too late' });

    expect(result.statusCode).toBe(404);
    expect(jsonBody(result).message).toBe('Pet pet-1 does not exist');
  });
});
