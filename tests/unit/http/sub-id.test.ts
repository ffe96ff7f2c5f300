import { describe, expect, it } from 'vitest';
import { containsEmailAddress } from '../../../shared/schema/sub-id.ts';

describe('containsEmailAddress', () => {
  it.each([
    ['jane@example.com', true],
    ['user: jane.doe@mail.example.org here', true],
    ['a@b.c', true],
    ['@example.com', false],
    ['jane@', false],
    ['jane@example', false],
    ['jane@.com', false],
    ['jane@example.', false],
    ['jane @example.com', false],
    ['a@@b.c', false],
    ['x@y z.com', false],
    ['user-42', false],
  ])('%s → %s', (value, expected) => {
    expect(containsEmailAddress(value)).toBe(expected);
  });

  it('agrees with the old pattern on mixed input', () => {
    const old = /[^\s@]+@[^\s@]+\.[^\s@]+/;
    const alphabet = ['a', '@', '.', ' ', 'b'];
    for (let n = 0; n < 4000; n++) {
      let value = '';
      for (let k = n; value.length < 7; k = Math.floor(k / 5)) value += alphabet[k % 5];
      expect(containsEmailAddress(value), value).toBe(old.test(value));
    }
  });

  it('scans a megabyte of @ signs in one pass', () => {
    expect(containsEmailAddress(`a${'@'.repeat(1024 * 1024)}`)).toBe(false);
  });
});
