import { describe, expect, it } from 'vitest';
import { fuzzFamilies } from '../fuzz/guard-families-fuzz';

describe('rule families, long fuzz', () => {
  it('100,000 random inputs across four seeds: nothing throws, nothing hangs', () => {
    for (const seed of [1, 2, 3, 0xdecaf]) {
      const stats = fuzzFamilies(seed, 25_000, 2000);
      expect(stats.failures).toEqual([]);
    }
  });
});
