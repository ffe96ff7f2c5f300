import { describe, expect, it } from 'vitest';
import {
  bodyConditionCategory,
  estimateWeight,
  genealogyBreeds,
  lifeStage,
  matchBreed,
  sizeClass,
} from '../../../shared/domain/analysis/results.ts';
import { requestSignature } from '../../../shared/domain/analysis/signature.ts';
import { aBreed } from '../../support/reference-fixtures.ts';

const catalogue = [
  aBreed({ id: 'german-shepherd-dog', name: 'German Shepherd Dog', alt_names: ['Alsatian', 'Deutscher Schäferhund'] }),
  aBreed({ id: 'maine-coon', name: 'Maine Coon', species_id: 'cat' }),
  aBreed({ id: 'chihuahua', name: 'Chihuahua' }),
];

describe('computed analysis fields', () => {
  it('WSAVA categories and life stages', () => {
    expect([1, 3, 4, 5, 6, 7, 8, 9].map(bodyConditionCategory)).toEqual([
      'underweight',
      'underweight',
      'ideal',
      'ideal',
      'overweight',
      'overweight',
      'obese',
      'obese',
    ]);
    expect([lifeStage('dog', 11), lifeStage('dog', 83), lifeStage('dog', 84)]).toEqual(['puppy', 'adult', 'senior']);
    expect([lifeStage('cat', 11), lifeStage('cat', 131), lifeStage('cat', 132)]).toEqual(['kitten', 'adult', 'senior']);
  });

  it('matches breed names, alternative names, accents and a dropped "Dog" within the species only', () => {
    expect(matchBreed('german shepherd', 'dog', catalogue)?.id).toBe('german-shepherd-dog');
    expect(matchBreed('Deutscher Schaferhund', 'dog', catalogue)?.id).toBe('german-shepherd-dog');
    expect(matchBreed('Maine Coon', 'dog', catalogue)).toBeUndefined();
    expect(matchBreed('Maine Coon Cat', 'cat', catalogue)?.id).toBe('maine-coon');
  });

  /** A model answer of [name, percentage, confidence] rows, for a dog. */
  const mixOf = (...rows: [string, number, number][]) =>
    genealogyBreeds(
      rows.map(([name, percentage, confidence]) => ({ name, percentage, confidence })),
      'dog',
      catalogue,
    );
  const sum = (mix: ReturnType<typeof genealogyBreeds>) =>
    mix.breeds.reduce((total, b) => total + b.percentage, mix.unresolved);

  it('counts a low-confidence breed and an unknown name as unresolved, never scaling the rest up', () => {
    const mix = mixOf(['Alsatian', 60, 0.8], ['Chihuahua', 25, 0.3], ['Space Wolf', 15, 0.9]);
    expect(mix.breeds).toEqual([
      { breed_id: 'german-shepherd-dog', name: 'German Shepherd Dog', percentage: 60, confidence: 0.8 },
    ]);
    expect(mix.unresolved).toBe(40);
    expect(mix.unresolved_breeds).toEqual([
      { name: 'Chihuahua', percentage: 25, confidence: 0.3, reason: 'low_confidence' },
      { name: 'Space Wolf', percentage: 15, confidence: 0.9, reason: 'not_in_catalogue' },
    ]);
  });

  it('keeps what the model left out of 100 unresolved, and scales a total over 100 down by largest remainder', () => {
    const under = mixOf(['Chihuahua', 70, 0.9]);
    expect([under.breeds[0]!.percentage, under.unresolved]).toEqual([70, 30]);
    // 1 : 1 : 1 of 3 is 33.3 each: the spare point goes to the first (ties keep the model's order)
    const over = mixOf(['Chihuahua', 50, 0.9], ['Alsatian', 50, 0.9], ['Unknown', 50, 0.9]);
    expect(over.breeds.map((b) => [b.breed_id, b.percentage])).toEqual([
      ['chihuahua', 34],
      ['german-shepherd-dog', 33],
    ]);
    expect(over.unresolved).toBe(33);
    for (const mix of [under, over]) expect(sum(mix)).toBe(100);
  });

  it('breeds plus unresolved add up to exactly 100 for any answer', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const breeds = [0, 1, 2].slice(0, 1 + (seed % 3)).map((i) => ({
        name: ['Chihuahua', 'Alsatian', 'Nowhere Hound'][i]!,
        percentage: 1 + ((seed * (i + 7) * 37) % 100),
        confidence: ((seed * (i + 3)) % 11) / 10,
      }));
      expect(sum(genealogyBreeds(breeds, 'dog', catalogue))).toBe(100);
    }
  });

  it('weight: confidence-weighted mix of model and breed standard (by sex, BCS-adjusted), each alone when the other is missing', () => {
    const standard = { min: 20, max: 30 };
    const model = { weight_kg: 20, weight_range_kg: { min: 18, max: 22 }, confidence: 0.9, reasons: 'x' };
    // female: lower half 20–25; BCS 6 → ×1.1 = 22–27.5 (mid 24.75); c capped at 0.8: 0.8 × 20 + 0.2 × 24.75 = 20.95
    expect(estimateWeight({ species: 'dog', sex: 'female', standard, bcs: 6, model })).toMatchObject({
      method: 'model_and_breed_standard',
      weight_kg: 21,
      weight_range_kg: { min: 18.8, max: 23.1 },
      breed_standard_kg: { min: 20, max: 25 },
      size_class: 'medium',
    });
    expect(estimateWeight({ species: 'dog', sex: null, standard, bcs: undefined, model: undefined })).toMatchObject({
      method: 'breed_standard',
      weight_kg: 25,
      weight_range_kg: { min: 20, max: 30 },
    });
    expect(estimateWeight({ species: 'cat', sex: 'male', standard: null, bcs: 5, model })).toMatchObject({
      method: 'model',
      weight_kg: 20,
      size_class: 'large',
    });
    expect(estimateWeight({ species: 'dog', sex: null, standard: null, bcs: 5, model: undefined })).toBeUndefined();
    expect([sizeClass('dog', 4.9), sizeClass('dog', 45), sizeClass('cat', 3.4)]).toEqual(['toy', 'giant', 'small']);
  });

  it('the request signature changes with every part of it and ignores photo order', () => {
    const base = { kind: 'genealogy', promptVersion: 'v1', photoHashes: ['a', 'b'], lang: 'en' };
    const signature = requestSignature(base);
    expect(requestSignature({ ...base, photoHashes: ['b', 'a'] })).toBe(signature);
    for (const change of [
      { kind: 'estimated_age' },
      { promptVersion: 'v2' },
      { photoHashes: ['a', 'b', 'c'] },
      { lang: 'de' },
      { season: 'winter' },
      { country: 'GB' },
      { basedOn: ['r1'] },
    ])
      expect(requestSignature({ ...base, ...change }), JSON.stringify(change)).not.toBe(signature);
  });
});
