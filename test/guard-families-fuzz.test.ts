import { describe, expect, it } from 'vitest';
import { modeEffect } from '../src/guards/shell/tables/devices';
import { fuzzFamilies, regexInputs, tableRegexes } from './fuzz/guard-families-fuzz';
import { judge } from './guard-cause-suite';

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

  it('judges an extraction by its option grammar, whatever the order of its options', () => {
    // Options with their values stay together; their order is shuffled (tar and unzip read them in any order).
    let seed = 0x5eed;
    const r = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    const shuffle = <T,>(xs: T[]) => xs.map((x) => [r(), x] as const).sort((a, b) => a[0] - b[0]).map(([, x]) => x);
    const wrong: string[] = [];
    const cases: [string[][], string][] = [
      [[['-x'], ['-f', '/tmp/a.tar'], ['-C', '/home/dev']], 'ask'],
      [[['-x'], ['-f', '/tmp/a.tar'], ['--directory=/home/dev/.ssh'], ['-v']], 'ask'],
      [[['-x'], ['-f', '/tmp/a.tar'], ['--overwrite'], ['-C', '.']], 'ask'],
      [[['-x'], ['-z'], ['-f', '/tmp/a.tgz'], ['-C', 'vendor']], 'allow'],
      [[['-x'], ['-f', '/tmp/a.tar'], ['-C', '/tmp/out']], 'allow'],
    ];
    for (const [groups, want] of cases) for (let i = 0; i < 40; i++) {
      const c = ['tar', ...shuffle(groups).flat()].join(' ');
      const got = judge(c).decision;
      if (got !== want) wrong.push(`${c}: ${got}, want ${want}`);
    }
    for (let i = 0; i < 40; i++) {
      const c = ['unzip', ...shuffle([['-o'], ['-q'], ['-d', '/home/dev']]).flat(), '/tmp/a.zip'].join(' ');
      if (judge(c).decision !== 'ask') wrong.push(`${c}: not ask`);
    }
    expect(wrong).toEqual([]);
  });

  it('reads chmod modes in every notation', () => {
    expect(['777', '0777', '1777', '666', 'o+w', 'go+w', 'a=rwx', 'a+rwx', 'ugo+w', 'u+x,o+w'].map(modeEffect)).toEqual(Array(10).fill('world-writable'));
    expect(['000', '0000', 'a-rwx', 'a=', 'ugo='].map(modeEffect)).toEqual(Array(5).fill('no-access'));
    expect(['755', '644', 'u+w', '+w', 'go-w', '700', 'u+x', 'a-x', '711'].map(modeEffect)).toEqual(Array(9).fill(undefined));
    // The owner left without read: applied to a tree, they cannot open their own files.
    expect(['0200', '0311', 'u-rwx', 'a-r', '-r', 'u=w', 'u-r,g+r'].map(modeEffect)).toEqual(Array(7).fill('owner-locked'));
  });
});
