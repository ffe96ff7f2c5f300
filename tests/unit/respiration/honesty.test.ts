import { describe, expect, it } from 'vitest';
import { measurementHonesty } from '../../../shared/domain/respiration/honesty.ts';
import { SUPPORTED_LANGUAGES } from '../../../shared/domain/reference/i18n.ts';

describe('what every completed respiratory-rate measurement says about itself', () => {
  it('a disclaimer in every language the routes accept, translated beyond English', () => {
    const english = measurementHonesty('en').disclaimer;
    for (const lang of SUPPORTED_LANGUAGES) {
      const { disclaimer } = measurementHonesty(lang);
      expect(disclaimer.length).toBeGreaterThan(20);
      if (!lang.startsWith('en')) expect(disclaimer).not.toBe(english);
    }
  });

  it('one validation sentence, linking to the accuracy section of docs/respiratory-rate.md', () => {
    const { validation } = measurementHonesty('de');
    expect(validation).toMatch(/: docs\/respiratory-rate\.md#accuracy$/);
    expect(validation.split('. ')).toHaveLength(1);
  });
});
