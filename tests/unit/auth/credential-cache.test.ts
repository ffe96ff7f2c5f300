import { describe, expect, it } from 'vitest';
import { CredentialCache } from '../../../shared/auth/credential-cache.ts';

describe('CredentialCache', () => {
  it('drops the least recently used entry beyond its bound', () => {
    const cache = new CredentialCache<string>(2);
    cache.set('a', 'A', 100);
    cache.set('b', 'B', 100);
    expect(cache.get('a', 0)).toBe('A');
    cache.set('c', 'C', 100);

    expect(cache.size).toBe(2);
    expect(cache.get('b', 0)).toBeUndefined();
    expect(cache.get('a', 0)).toBe('A');
    expect(cache.get('c', 0)).toBe('C');
  });

  it('forgets an entry at its expiry', () => {
    const cache = new CredentialCache<string>(10);
    cache.set('a', 'A', 100);

    expect(cache.get('a', 99)).toBe('A');
    expect(cache.get('a', 100)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('deletes the entries that match', () => {
    const cache = new CredentialCache<string>(10);
    cache.set('a', 'acc-1', 100);
    cache.set('b', 'acc-2', 100);
    cache.deleteWhere((v) => v === 'acc-1');

    expect(cache.get('a', 0)).toBeUndefined();
    expect(cache.get('b', 0)).toBe('acc-2');
  });
});
