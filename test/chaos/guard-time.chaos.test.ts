// The guard's time on hostile input, as a ratio within one run: eight times
// the input may not cost forty times the time. The work meter of
// test/guard-linear.test.ts counts what the analysis judges; a loop it does
// not count (every redirection re-reading every word, a join of every
// assignment per assignment) was quadratic all the same: a 160 KB command
// of `a>b` took 46 s, past the harness's hook timeout. Shapes: one command
// made of many of one thing (words, redirections, assignments, here-strings,
// descriptor duplications, substitutions), and lines of many commands.
import { describe, expect, it } from 'vitest';
import { analyzeCommand } from '../../src/guards/shell/analyze';
import { rep, seq } from '../fuzz/shapes';
import { guardBase as base } from '../guard-cause-suite';

const SHAPES: Record<string, (n: number) => string> = {
  'one redirection repeated': (n) => 'ls' + rep(' a>b', n),
  'distinct redirections': (n) => 'ls' + seq(n, (i) => ` a>f${i}`),
  'appends and reads': (n) => 'cat' + seq(n, (i) => (i % 2 ? ` <in${i}` : ` >>out${i}`)),
  'assignments before a command': (n) => 'x=1' + rep(' a=b', n) + ' ls',
  'distinct assignments': (n) => seq(n, (i) => `v${i}=$HOME `) + 'ls',
  'assignments alone': (n) => seq(n, (i) => `v${i}=x `),
  'here-strings': (n) => 'cat' + rep(' <<<x', n),
  'descriptor duplications': (n) => 'ls' + rep(' 3>&2', n),
  'words': (n) => 'echo' + rep(' a', n),
  'quoted words': (n) => 'echo' + rep(' "a b"', n),
  'substitutions as words': (n) => 'echo' + rep(' $(ls)', n),
  'variables as words': (n) => 'X=1; echo' + rep(' $X', n),
  'options': (n) => 'rm' + rep(' -f', n) + ' x',
  'segments': (n) => rep('ls;', n),
  'pipeline': (n) => rep('cat|', n) + 'cat',
  'globs': (n) => 'ls' + rep(' *.x', n),
};

describe('guard time', () => {
  it('eight times a hostile command costs well under forty times the time (no uncounted quadratic loop)', () => {
    const best = (cmd: string) => {
      let t = Infinity;
      for (let i = 0; i < 3; i++) {
        const a = performance.now();
        analyzeCommand(cmd, base);
        t = Math.min(t, performance.now() - a);
      }
      return t;
    };
    const slow: string[] = [];
    for (const [name, f] of Object.entries(SHAPES)) {
      // A floor of 5 ms for the small command: below it, timer noise is the ratio.
      const ratio = best(f(160_000)) / Math.max(5, best(f(20_000)));
      if (ratio > 40) slow.push(`${name}: ${ratio.toFixed(0)}x`);
    }
    expect(slow).toEqual([]);
  }, 240_000);
});
