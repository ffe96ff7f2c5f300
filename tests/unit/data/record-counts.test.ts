import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordCount } from '../../../shared/domain/reference/seed.ts';

const data = (file: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'data', file), 'utf8'));

describe('the record counts the start banner prints', () => {
  it('count what each data file holds: list entries, map entries, colour variants', () => {
    expect(recordCount('breeds')).toBe(data('breeds.json').length);
    expect(recordCount('temperaments')).toBe(Object.keys(data('authored/temperament-i18n.json')).length);
    expect(recordCount('colours')).toBe(data('colours.json').variants.length);
    expect(recordCount('categories')).toBe(data('categories.json').length);
    expect(recordCount('facts')).toBe(data('facts.json').length);
    expect(recordCount('health-tips')).toBe(data('health-tips.json').length);
    expect(recordCount('legislation')).toBe(data('legislation.json').length);
  });

  it('count hundreds of colour variants, not the two parts of the colours file', () => {
    expect(recordCount('colours')).toBeGreaterThan(100);
  });
});
