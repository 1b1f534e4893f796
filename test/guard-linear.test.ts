// The shell guard stays linear on hostile input (issue 12, "the guard stays
// fast"). Each generator builds a command of a shape that once made some
// part of the analysis quadratic (many segments, deep nesting, long words,
// many here-docs, brace lists, assignments before pipes, functions, aliases,
// redirections, ...), plus seeded random motifs; each is analysed at two
// sizes and the WORK the analysis spent (the meter in
// src/guards/shell/work.ts: characters scanned, nodes walked, commands and
// paths judged) must grow about as the input does. Counting work instead of
// time keeps the test exact on a loaded machine. What only a budget can
// bound (a function called many times, loops, brace lists) must end in a
// block naming the budget, never in an allow after unbounded work.
import { describe, expect, it } from 'vitest';
import { analyzeCommand, type AnalyzeOptions } from '../src/guards/shell/analyze';
import { work, WORK_BUDGET } from '../src/guards/shell/work';
import { rng } from './fuzz/rng';
import { rep, seq } from './fuzz/shapes';
import { guardBase } from './guard-cause-suite';

const base: AnalyzeOptions = guardBase;

/** Shapes that must cost O(n). */
const LINEAR: Record<string, (n: number) => string> = {
  'many segments': (n) => rep('ls;', n),
  'many lines': (n) => rep('ls\n', n),
  'and-or chain': (n) => rep('ls && ', n) + 'ls',
  'long pipeline': (n) => rep('cat | ', n) + 'cat',
  'nested substitutions': (n) => 'echo ' + '$('.repeat(n / 3) + 'ls' + ')'.repeat(n / 3),
  'substitutions nested in quotes': (n) => 'echo ' + '"$('.repeat(n / 5) + 'ls' + ')"'.repeat(n / 5),
  'nested ${X:-...}': (n) => 'echo ' + '${X:-'.repeat(n / 6) + 'a' + '}'.repeat(n / 6),
  'nested subshells': (n) => '('.repeat(n / 2) + 'ls' + ')'.repeat(n / 2),
  'long word': (n) => 'echo ' + rep('a', n),
  'word of many =': (n) => 'echo a[' + rep('=b', n),
  'long double-quoted word': (n) => 'echo "' + rep('a$b ', n) + '"',
  'many backticks': (n) => 'echo ' + rep('`ls`', n),
  'many here-docs': (n) => 'cat' + ' <<E'.repeat(n / 10) + '\n' + 'x\nE\n'.repeat(n / 10),
  'here-docs in a substitution': (n) => 'echo $(cat' + ' <<E'.repeat(n / 10) + '\n' + 'x\nE\n'.repeat(n / 10) + ')',
  'long here-doc': (n) => `cat > f <<EOF\n${rep('line $HOME\n', n)}EOF`,
  'brace lists': (n) => 'echo' + rep(` {${'a,'.repeat(100)}b}`, n),
  'many brace groups': (n) => 'echo ' + rep('{a,b}', n),
  'unclosed braces': (n) => 'echo ' + rep('{a', n),
  'many assignments': (n) => seq(n, (i) => `A${i}=x${i}; `) + 'ls',
  'assignments, then pipes': (n) => seq(n / 2, (i) => `A${i}=x; `) + rep('cat | ', n / 2) + 'cat',
  'assignments, then substitutions': (n) => seq(n / 2, (i) => `A${i}=x; `) + 'echo ' + rep('$(ls) ', n / 2),
  'many functions': (n) => seq(n, (i) => `f${i}(){ ls; }; `) + 'f1',
  'many aliases': (n) => seq(n, (i) => `alias a${i}=ls; `) + 'a1',
  'many redirections': (n) => 'ls' + rep(' >f', n),
  'many appends to one file': (n) => rep('echo aaaaaaaaaaaaaaaaaaaaaaaa >> f; ', n) + 'bash f',
  'files doubled by cat': (n) => 'echo ' + rep('a', 100) + ' > f0; ' + seq(n, (i) => `cat f${i} f${i} > f${i + 1}; `),
  'symlinks, then deletes': (n) => seq(n / 2, (i) => `ln -s /tmp/x l${i}; `) + 'rm -rf' + rep(' a', n / 2),
  'pushd, then pipes': (n) => rep('pushd /tmp; ', n / 2) + rep('cat | ', n / 2) + 'cat',
  'many words': (n) => 'rm -rf' + rep(' a', n),
  'many globs': (n) => 'ls' + rep(' *', n),
  'many tildes': (n) => 'ls' + rep(' ~/a', n),
  'many comments': (n) => rep('ls # x\n', n),
  'ANSI-C escapes': (n) => "echo $'" + rep('\\x41', n) + "'",
  'eval of many commands': (n) => 'eval ' + rep('ls\\;', n),
  'bash -c of many commands': (n) => 'bash -c ' + JSON.stringify(rep('ls;', n)),
  'long arithmetic': (n) => 'echo $((' + rep('1+', n) + '1))',
  'many case patterns': (n) => 'case x in ' + rep('a) ls;; ', n) + 'esac',
  'if chain': (n) => rep('if true; then ls; fi; ', n),
  'loops': (n) => rep('for x in a b; do ls $x; done; ', n),
  'nested loops': (n) => 'for a in 1 2 3 4 5 6 7 8; do '.repeat(n / 30) + 'ls' + '; done'.repeat(n / 30),
  'wrapper chain': (n) => rep('sudo ', n) + 'ls',
  'env chain': (n) => rep('env ', n) + 'ls',
  'printf fed to bash': (n) => "printf '" + rep('%s ', n) + "' a b | bash",
  'echo fed to bash': (n) => "echo '" + rep('ls; ', n) + "' | bash",
  'python code': (n) => 'python3 -c "' + rep('import os; ', n) + '"',
  'node code': (n) => 'node -e "' + rep("require('fs'); ", n) + '"',
  'PowerShell text': (n) => 'powershell -Command "' + rep('Get-Date; ', n) + '"',
  'cmd /c chain': (n) => 'cmd /c "' + rep('dir & ', n) + 'dir"',
  'xargs items': (n) => "echo '" + rep('a ', n) + "' | xargs rm",
  'set -- and "$@"': (n) => 'set -- ' + rep('a ', n) + '; for x in "$@"; do rm "$x"; done',
};

/** Shapes where the work multiplies by design (each call or alias use is analysed again): bounded by the budget. */
const MULTIPLYING: Record<string, (n: number) => string> = {
  'one function called many times': (n) => `f(){ echo ${rep('a', n / 2)}; }; ` + rep('f;', n / 2),
  'one alias used many times': (n) => `alias a='echo ${rep('b', n / 2)}'; ` + rep('a;', n / 2),
  'long brace words': (n) => 'echo' + rep(` {a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}${'x'.repeat(2000)}`, n),
};

/** Pieces the random motifs are made of: every quoting, nesting and list construct. */
const PIECES = ['ls;', '$(', ')', '"', "'", '`', '{a,b}', '${X:-', '}', '(', '<<E\n', 'E\n', 'A=1;', 'f(){ ls; };', 'f;', '|', '&&', '~', '=', '\\', '*', '\n', '>f', 'alias a=ls;', 'a;', 'for x in a b; do ', 'done;', 'case x in a) ', ';;', 'esac;', 'cd /tmp;', 'echo $A ', '<(ls)', 'bash -c "', 'sudo ', '$((1+', '#', 'x'];


function cost(command: string): { units: number; decision: string; rules: string[]; reason: string } {
  const before = work.units;
  const a = analyzeCommand(command, base);
  return { units: work.units - before, decision: a.decision, rules: a.hits.map((h) => h.rule), reason: a.reason };
}

// Sizes: large enough that every nesting cap is reached at the small one, small enough to stay in seconds.
const SMALL = 3000;
const LARGE = 4 * SMALL;
/** Work may grow at most this much when the input grows 4x (a quadratic path grows 16x). */
const MAX_RATIO = 5;

describe('the shell guard spends work linear in its input', () => {
  for (const [name, gen] of Object.entries(LINEAR)) {
    it(name, () => {
      const small = cost(gen(SMALL));
      const large = cost(gen(LARGE));
      const ratio = large.units / small.units;
      // Within the budget the work is linear; a shape that reaches a budget at the large size is a block.
      if (large.rules.includes('too-complex')) expect(large.decision).toBe('deny');
      else expect(ratio, `${name}: ${small.units} units at ${SMALL} chars, ${large.units} at ${LARGE}`).toBeLessThanOrEqual(MAX_RATIO);
      expect(large.units).toBeLessThanOrEqual(WORK_BUDGET + 64 * LARGE);
    });
  }

  it('30 random motifs, repeated to two sizes (seeded)', () => {
    const rnd = rng(12);
    const bad: string[] = [];
    for (let k = 0; k < 30; k++) {
      const motif = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => PIECES[Math.floor(rnd() * PIECES.length)]).join('');
      const small = cost(rep(motif, SMALL));
      const large = cost(rep(motif, LARGE));
      const ratio = large.units / small.units;
      if (large.units > WORK_BUDGET + 64 * LARGE) bad.push(`${JSON.stringify(motif)}: ${large.units} units past the budget`);
      else if (!large.rules.includes('too-complex') && ratio > MAX_RATIO) bad.push(`${JSON.stringify(motif)}: x${ratio.toFixed(2)} (${small.units} -> ${large.units})`);
      else if (large.rules.includes('too-complex') && large.decision !== 'deny') bad.push(`${JSON.stringify(motif)}: too-complex but ${large.decision}`);
    }
    expect(bad).toEqual([]);
  });
});

describe('past the budget the command is a block with a one-line reason', () => {
  for (const [name, gen] of Object.entries(MULTIPLYING)) {
    it(name, () => {
      const r = cost(gen(LARGE));
      expect(r.decision).toBe('deny');
      expect(r.rules).toContain('too-complex');
      expect(r.reason).toMatch(/too-complex: the command is too large to analyse in full/);
      expect(r.reason).not.toContain('\n');
      expect(r.units).toBeLessThanOrEqual(WORK_BUDGET + 64 * LARGE);
    });
  }

  it('a command longer than the size limit, and one of more simple commands than the walk visits', () => {
    for (const command of ['ls;'.repeat(90_000), 'echo ' + 'a'.repeat(300_000)]) {
      const r = cost(command);
      expect(r.decision).toBe('deny');
      expect(r.rules).toContain('too-complex');
    }
  });

  it('one simple command of 30,000 paths or redirections stops judging paths at the budget', () => {
    // Distinct redirections: the same one repeated is judged once (and is as harmless as once).
    for (const command of ['rm -rf' + ' a'.repeat(30_000), 'ls' + seq(180_000, (i) => ` >f${i}`), 'cat' + seq(180_000, (i) => ` <f${i}`)]) {
      const r = cost(command);
      expect(r.decision).toBe('deny');
      expect(r.rules).toContain('too-complex');
      expect(r.units).toBeLessThanOrEqual(WORK_BUDGET + 64 * command.length);
    }
  });

  it('the same redirection repeated 30,000 times is judged once: allowed, and cheap', () => {
    const r = cost('ls' + ' >f'.repeat(30_000));
    expect(r.decision).toBe('allow');
  });

  it('a dangerous command inside a too-complex line is still denied, not only asked', () => {
    const r = cost('rm -rf ~; ' + 'ls;'.repeat(5000));
    expect(r.decision).toBe('deny');
    expect(r.rules).toEqual(expect.arrayContaining(['rm-recursive-home', 'too-complex']));
  });

  it('deep nesting neither overflows the stack nor passes', () => {
    for (const command of ['sudo '.repeat(5000) + 'rm -rf /', 'echo ' + '"$('.repeat(20_000), 'env '.repeat(5000) + 'ls']) {
      const r = cost(command);
      expect(r.decision).not.toBe('allow');
    }
  });
});
