import { describe, expect, it } from 'vitest';
import { modeEffect } from '../src/guards/shell/tables/devices';
import { fuzzFamilies, regexInputs, tableRegexes } from './fuzz/guard-families-fuzz';

describe('rule families under random input', () => {
  it('never throw and never hang on random argv, code and PowerShell text', () => {
    const stats = fuzzFamilies(0x12c0ffee, 3000, 1000);
    expect(stats.failures).toEqual([]);
    expect(stats.inputs).toBe(3000);
  });

  it('keep the tables regular expressions linear on hostile input (4x input, far less than 16x time)', () => {
    const slow: string[] = [];
    for (const [name, re] of tableRegexes()) {
      for (const [small, big] of regexInputs(5000).map((s, i) => [s, regexInputs(20000)[i]] as const)) {
        // Best of five of each size (a pause of the collector is not the regex); quadratic would be 16x.
        const best = (s: string) => Math.min(...[0, 1, 2, 3, 4].map(() => {
          const t0 = performance.now();
          re.test(s);
          return performance.now() - t0;
        }));
        const a = best(small);
        const b = best(big);
        if (b > 20 && b > 10 * (a + 0.5)) slow.push(`${name} on ${JSON.stringify(big.slice(0, 20))}: ${a.toFixed(1)} -> ${b.toFixed(1)} ms`);
      }
    }
    expect(slow).toEqual([]);
  });

  it('reads chmod modes in every notation', () => {
    expect(['777', '0777', '1777', '666', 'o+w', 'go+w', 'a=rwx', 'a+rwx', 'ugo+w', 'u+x,o+w'].map(modeEffect)).toEqual(Array(10).fill('world-writable'));
    expect(['000', '0000', 'a-rwx', 'a=', 'ugo='].map(modeEffect)).toEqual(Array(5).fill('no-access'));
    expect(['755', '644', 'u+w', '+w', 'go-w', '700', 'u+x', 'a-x', '711'].map(modeEffect)).toEqual(Array(9).fill(undefined));
    // The owner left without read: applied to a tree, they cannot open their own files.
    expect(['0200', '0311', 'u-rwx', 'a-r', '-r', 'u=w', 'u-r,g+r'].map(modeEffect)).toEqual(Array(7).fill('owner-locked'));
  });
});
