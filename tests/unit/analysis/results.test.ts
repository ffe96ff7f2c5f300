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

  it('scales percentages to 100 by largest remainder, biggest share first', () => {
    expect(
      genealogyBreeds(
        [
          { name: 'Chihuahua', percentage: 1 },
          { name: 'Alsatian', percentage: 1 },
          { name: 'Unknown', percentage: 1 },
        ],
        'dog',
        catalogue,
      ).map((b) => [b.breed_id, b.percentage]),
    ).toEqual([
      ['chihuahua', 34],
      ['german-shepherd-dog', 33],
      [null, 33],
    ]);
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
