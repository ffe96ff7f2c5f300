import { describe, expect, it } from 'vitest';
import { honesty } from '../../../shared/domain/analysis/honesty.ts';
import { KINDS } from '../../../shared/domain/analysis/kinds.ts';
import { SUPPORTED_LANGUAGES } from '../../../shared/domain/reference/i18n.ts';
import { kgToLb, rangeToLb } from '../../../shared/domain/reference/units.ts';

const resultKinds = Object.keys(KINDS).filter((k) => k !== 'health_tips') as Parameters<typeof honesty>[0][];

describe('what every analysis result says about itself', () => {
  it('a disclaimer in every language the analysis routes accept, translated beyond English', () => {
    const english = honesty('genealogy', 'en').disclaimer;
    for (const lang of SUPPORTED_LANGUAGES) {
      const { disclaimer } = honesty('genealogy', lang);
      expect(disclaimer.length).toBeGreaterThan(20);
      if (!lang.startsWith('en')) expect(disclaimer).not.toBe(english);
    }
  });

  it('one validation sentence per kind, linking into docs/analysis.md', () => {
    for (const kind of resultKinds) {
      const { validation } = honesty(kind, 'en');
      expect(validation).toMatch(/: docs\/analysis\.md#validation$/);
      expect(validation.split('. ')).toHaveLength(1);
    }
  });
});

describe('units=imperial', () => {
  it('pounds to 0.1 lb from the kilograms answered', () => {
    expect(kgToLb(32.6)).toBe(71.9);
    expect(kgToLb(0.5)).toBe(1.1);
    expect(rangeToLb({ min: 29.6, max: 36.8 })).toEqual({ min: 65.3, max: 81.1 });
  });
});
