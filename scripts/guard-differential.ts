// npm run diff:guard -- [lines] [seed]: runs generated command lines in the
// real bash (sandboxed, every program a logging stub) and compares the
// commands bash ran with the ones loom's guard found. Prints the lines
// compared, the mismatches, and their classes with an example each.
import { join } from 'node:path';
import { loadPolicy } from '../src/policy/policy';
import { compareLine, mismatchClass, type LineResult } from '../test/differential/compare';
import { generate, seedLines } from '../test/differential/generate';
import { makeSandbox, removeSandbox, runLines, sandboxAvailable } from '../test/differential/sandbox';

export function differential(n: number, seed: number, extraSeeds: string[] = []): { compared: number; mismatches: LineResult[] } {
  const root = join(__dirname, '..');
  const lines = generate(seed, n, [...seedLines(root), ...extraSeeds]);
  const s = makeSandbox();
  try {
    const ran = runLines(s, lines);
    const policy = loadPolicy(root, s.work);
    const mismatches: LineResult[] = [];
    lines.forEach((line, i) => {
      const cwd = join(s.work, String(i));
      const r = compareLine(line, ran[i], { projectDir: cwd, cwd, home: s.home, tmp: join(s.root, 'tmp'), policy, protectedPaths: [] });
      if (r.missing.length) mismatches.push(r);
    });
    return { compared: lines.length, mismatches };
  } finally {
    removeSandbox(s);
  }
}

/**
 * Runs the given lines again in a fresh sandbox and returns those that still mismatch: a parser
 * gap repeats, a timing artefact of a loaded machine (a line cut by its CPU limit) does not.
 */
/**
 * A mismatch stands only when every one of `tries` fresh runs shows it: bash's trace of a pipeline comes from its
 * stages at once, and on a loaded machine a stage's trace line can land inside another's multi-line argument.
 */
export function confirmMismatches(lines: string[], tries = 3): LineResult[] {
  let left = lines;
  let last: LineResult[] = [];
  for (let t = 0; t < tries && left.length; t++) {
    last = confirmOnce(left);
    left = last.map((r) => r.line);
  }
  return last;
}

function confirmOnce(lines: string[]): LineResult[] {
  if (lines.length === 0) return [];
  const root = join(__dirname, '..');
  const s = makeSandbox();
  try {
    const ran = runLines(s, lines);
    const policy = loadPolicy(root, s.work);
    return lines
      .map((line, i) => {
        const cwd = join(s.work, String(i));
        return compareLine(line, ran[i], { projectDir: cwd, cwd, home: s.home, tmp: join(s.root, 'tmp'), policy, protectedPaths: [] });
      })
      .filter((r) => r.missing.length > 0);
  } finally {
    removeSandbox(s);
  }
}

if (require.main === module) {
  if (!sandboxAvailable()) {
    console.error('guard-differential: needs Linux, root, unshare and setpriv');
    process.exit(2);
  }
  const n = Number(process.argv[2] ?? 500);
  const seed = Number(process.argv[3] ?? 12);
  const { compared, mismatches } = differential(n, seed);
  const classes = new Map<string, LineResult[]>();
  for (const m of mismatches) classes.set(mismatchClass(m), [...(classes.get(mismatchClass(m)) ?? []), m]);
  console.log(`lines compared: ${compared}; lines where bash ran a command loom did not see: ${mismatches.length}; classes: ${classes.size}`);
  for (const [k, ms] of [...classes].sort((a, b) => b[1].length - a[1].length)) console.log(`  ${ms.length} x ${k}: ${JSON.stringify(ms[0].line.slice(0, 160))} -> missing ${JSON.stringify(ms[0].missing[0])}`);
}
