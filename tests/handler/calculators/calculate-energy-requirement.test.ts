import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/calculators/calculate-energy-requirement.ts';
import { anAccount, mockDynamoWithAccounts } from '../../support/fixtures.ts';
import { httpEvent, jsonBody, lambdaContext } from '../../support/http-event.ts';
import { aBreed, serveReferenceData } from '../../support/reference-fixtures.ts';
import { aStoredPet, servePet } from '../pets/pet-fixtures.ts';

const CALCULATOR_KEY = 'live_calculator-key';
const PLAIN_KEY = 'live_plain-key';

const calculate = (body: unknown, apiKey = CALCULATOR_KEY, query?: Record<string, string>) =>
  handler(
    httpEvent({
      method: 'POST',
      path: '/v1/calculators/energy-requirement',
      headers: { 'x-api-key': apiKey },
      body,
      ...(query && { query }),
    }),
    lambdaContext,
  );

describe('POST /calculators/energy-requirement', () => {
  let mocked: ReturnType<typeof mockDynamoWithAccounts>;
  const ddb = () => mocked;
  beforeEach(() => {
    mocked = mockDynamoWithAccounts([
      { apiKey: CALCULATOR_KEY, account: anAccount({ id: 'acc-calc', features: ['calculators'] }) },
      { apiKey: PLAIN_KEY, account: anAccount({ id: 'acc-plain' }) },
    ]);
    serveReferenceData(mocked, {
      breeds: [
        // metric weight 22–40 kg: the standard mid weight is 31 kg
        aBreed({ id: 'german-shepherd', name: 'German Shepherd' }),
        aBreed({ id: 'extinct-hound', name: 'Extinct Hound', weight: null }),
        aBreed({ id: 'persian', name: 'Persian', species_id: 'cat' }),
      ],
    });
  });

  it('neutered adult dog of 20 kg: RER 70 × 20^0.75 = 662 kcal, MER 1.6 × RER = 1059 kcal, 3.03 cups of 350 kcal', async () => {
    const result = await calculate({
      species_id: 'dog',
      weight_kg: 20,
      age_months: 36,
      neuter_status: 'neutered',
      kcal_per_cup: 350,
    });
    expect(result.statusCode).toBe(200);
    expect(jsonBody(result)).toMatchObject({
      species: 'dog',
      weight_kg: 20,
      weight_basis: 'given',
      life_stage: 'adult',
      rer_kcal_per_day: 662,
      mer: {
        category: 'adult_neutered',
        factor: { min: 1.6, mid: 1.6, max: 1.6 },
        kcal_per_day: { min: 1059, mid: 1059, max: 1059 },
        selected_kcal_per_day: 1059,
      },
      portions_per_day: { kcal_per_cup: 350, cups: { min: 3.03, mid: 3.03, max: 3.03 } },
      messages: [],
    });
  });

  it('intact cat of 4 kg without an age: RER 198 kcal, 1.4–1.6 × RER = 277–317 kcal, adult assumed', async () => {
    const body = jsonBody(await calculate({ species_id: 'cat', weight_kg: 4, neuter_status: 'intact' }));
    expect(body.rer_kcal_per_day).toBe(198);
    expect(body.mer).toMatchObject({ category: 'adult_intact', kcal_per_day: { min: 277, mid: 297, max: 317 } });
    expect(body.portions_per_day).toBeNull();
    expect(body.messages.map((m: { code: string }) => m.code)).toEqual(['life_stage_assumed_adult']);
  });

  it('a 3-month-old puppy of 5 kg: 3 × RER = 3 × 234 = 702 kcal', async () => {
    const body = jsonBody(await calculate({ species_id: 'dog', weight_kg: 5, age_months: 3 }));
    expect(body).toMatchObject({ life_stage: 'growth_under_4_months', rer_kcal_per_day: 234 });
    expect(body.mer.kcal_per_day).toEqual({ min: 702, mid: 702, max: 702 });
  });

  it('an active adult dog of 10 kg: 2.0–3.0 × RER 394 = 787–1181 kcal, 984 selected', async () => {
    const body = jsonBody(await calculate({ species_id: 'dog', weight_kg: 10, age_months: 48, activity: 'active' }));
    expect(body.mer).toMatchObject({
      category: 'adult_active',
      kcal_per_day: { min: 787, mid: 984, max: 1181 },
      selected_kcal_per_day: 984,
    });
  });

  it('a breed alone uses the mid of its standard weight (31 kg) and its species', async () => {
    const body = jsonBody(await calculate({ breed_id: 'german-shepherd', age_months: 24 }));
    expect(body).toMatchObject({
      species: 'dog',
      breed_id: 'german-shepherd',
      weight_kg: 31,
      weight_basis: 'breed_standard',
      rer_kcal_per_day: 920,
      mer: { category: 'adult_neuter_status_unknown', kcal_per_day: { min: 1471, mid: 1563, max: 1655 } },
    });
    expect(body.messages.map((m: { code: string }) => m.code)).toEqual([
      'weight_from_breed_standard',
      'neuter_status_unknown',
    ]);
  });

  it('units=imperial adds the weight used in pounds (to 0.1 lb), the kilograms kept; other units are a 400', async () => {
    const body = { species_id: 'dog', weight_kg: 20 };
    const metric = jsonBody(await calculate(body));
    expect(metric).toMatchObject({ weight_kg: 20, units: 'metric' });
    expect(metric).not.toHaveProperty('weight_lb');

    const imperial = await calculate(body, CALCULATOR_KEY, { units: 'Imperial' });
    expect(imperial.statusCode).toBe(200);
    expect(jsonBody(imperial)).toMatchObject({ weight_kg: 20, units: 'imperial', weight_lb: 44.1 });
    expect(jsonBody(imperial).rer_kcal_per_day).toBe(metric.rer_kcal_per_day);

    const bad = await calculate(body, CALCULATOR_KEY, { units: 'stone' });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(jsonBody(bad))).toContain('metric, imperial');
  });

  it('a given weight wins over the breed standard', async () => {
    const body = jsonBody(await calculate({ breed_id: 'german-shepherd', weight_kg: 20, neuter_status: 'neutered' }));
    expect(body).toMatchObject({ weight_kg: 20, weight_basis: 'given', rer_kcal_per_day: 662 });
  });

  it('422 weight_required when no weight is usable: nothing given, or a breed without a standard weight', async () => {
    for (const body of [{ species_id: 'dog' }, { breed_id: 'extinct-hound' }]) {
      const result = await calculate(body);
      expect(result.statusCode).toBe(422);
      expect(jsonBody(result)).toMatchObject({
        statusCode: 422,
        error: 'Unprocessable Entity',
        code: 'weight_required',
        path: '/v1/calculators/energy-requirement',
      });
    }
  });

  it('403 naming the feature when the account lacks calculators', async () => {
    const result = await calculate({ species_id: 'dog', weight_kg: 20 }, PLAIN_KEY);
    expect(result.statusCode).toBe(403);
    expect(jsonBody(result).message).toContain('calculators');
  });

  it('400 for bad input: species missing, species against the breed, activity cats do not have, bounds, unknown fields', async () => {
    const cases: [unknown, string][] = [
      [{ weight_kg: 20 }, 'species_id is required when no breed_id or pet_id names it'],
      [{ species_id: 'dog', breed_id: 'persian' }, 'breed_id names a cat, but the request is for a dog'],
      [{ species_id: 'cat', weight_kg: 4, activity: 'working' }, 'activity must be one of: inactive, normal for a cat'],
      [{ species_id: 'dog', weight_kg: 0 }, 'weight_kg must be greater than 0'],
      [{ species_id: 'dog', weight_kg: 500 }, 'weight_kg must be at most 200'],
      [{ species_id: 'dog', weight_kg: 20, colour: 'red' }, "unknown field 'colour'"],
    ];
    for (const [body, message] of cases) {
      const result = await calculate(body);
      expect(result.statusCode, JSON.stringify(body)).toBe(400);
      expect([jsonBody(result).message].flat()).toContain(message);
    }
  });

  it('takes species_id like every other route, and species as its older name', async () => {
    const byId = await calculate({ species_id: 'dog', weight_kg: 10 });
    const byOldName = await calculate({ species: 'dog', weight_kg: 10 });
    const both = await calculate({ species_id: 'cat', species: 'cat', weight_kg: 4 });

    expect(byId.statusCode).toBe(200);
    expect(jsonBody(byId)).toMatchObject({ species: 'dog', rer_kcal_per_day: 394 });
    expect(jsonBody(byOldName)).toEqual(jsonBody(byId));
    expect(jsonBody(both)).toMatchObject({ species: 'cat' });
  });

  it('400 when species and species_id name different species, listed with the other problems', async () => {
    const result = await calculate({ species_id: 'dog', species: 'cat', weight_kg: -1, breed_id: 'persian' });

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).message).toEqual([
      'weight_kg must be greater than 0',
      'species names another species than species_id (species is its older name: send species_id alone)',
      'breed_id names a cat, but the request is for a dog',
    ]);
  });

  it('names an unknown breed with the problems of the other fields', async () => {
    const result = await calculate({ breed_id: 'no-such-breed', age_months: -1 });

    expect(result.statusCode).toBe(400);
    expect(jsonBody(result).message).toEqual([
      'age_months must be at least 0',
      'breed_id no-such-breed is not a known breed id',
    ]);
  });

  it('404 for a breed that does not exist', async () => {
    expect((await calculate({ breed_id: 'no-such-breed' })).statusCode).toBe(404);
  });

  describe('with a pet_id', () => {
    beforeEach(() => {
      servePet(
        ddb(),
        aStoredPet({
          id: 'pet-weighed',
          account_id: 'acc-calc',
          weight_kg: 4,
          species_id: 'cat',
          neutered: true,
          birth_date: '2020-01',
        }),
      );
      servePet(
        ddb(),
        aStoredPet({ id: 'pet-bred', account_id: 'acc-calc', breed_ids: ['german-shepherd'], neutered: false }),
      );
      servePet(ddb(), aStoredPet({ id: 'pet-unknown', account_id: 'acc-calc' }));
      servePet(ddb(), aStoredPet({ id: 'pet-other', account_id: 'acc-plain', weight_kg: 10 }));
    });

    it("uses the pet's weight, species, age and neuter status: a neutered adult cat of 4 kg, 1.2–1.4 × 198 kcal", async () => {
      const body = jsonBody(await calculate({ pet_id: 'pet-weighed' }));
      expect(body).toMatchObject({
        pet_id: 'pet-weighed',
        species: 'cat',
        weight_kg: 4,
        weight_basis: 'pet_record',
        life_stage: 'adult',
        neuter_status: 'neutered',
        rer_kcal_per_day: 198,
        mer: { category: 'adult_neutered', kcal_per_day: { min: 238, mid: 257, max: 277 } },
      });
    });

    it("falls back to the pet's primary breed standard; the request's own fields win", async () => {
      const body = jsonBody(await calculate({ pet_id: 'pet-bred', age_months: 24 }));
      expect(body).toMatchObject({
        weight_kg: 31,
        weight_basis: 'breed_standard',
        breed_id: 'german-shepherd',
        neuter_status: 'intact',
      });
      expect(jsonBody(await calculate({ pet_id: 'pet-bred', weight_kg: 20, neuter_status: 'neutered' }))).toMatchObject(
        {
          weight_basis: 'given',
          rer_kcal_per_day: 662,
          mer: { selected_kcal_per_day: 1059 },
        },
      );
    });

    it('422 weight_required for a pet with neither weight nor breed; 403 for a pet of another account; 404 for none', async () => {
      const unknown = await calculate({ pet_id: 'pet-unknown' });
      expect(unknown.statusCode).toBe(422);
      expect(jsonBody(unknown).code).toBe('weight_required');
      expect((await calculate({ pet_id: 'pet-other' })).statusCode).toBe(403);
      expect((await calculate({ pet_id: 'no-such-pet' })).statusCode).toBe(404);
    });
  });
});
