// Compares what bash ran (from the sandbox) with the simple commands loom
// found. The safety property: every command bash ran is one loom saw, with
// the same argv (loom's run-time placeholders match any text; a wholly
// run-time word may stand for any number of words). loom may see more
// (both branches of an if, a function never called): that is allowed.
import { posix } from 'node:path';
import { globMatch } from '../../src/guards/shell/glob';
import { analyzeCommand, type AnalyzeOptions } from '../../src/guards/shell/analyze';

function elementMatches(l: string, b: string): boolean {
  if (l === b) return true;
  // `~alice` stays as typed when the sandbox has no such user; loom reads it as that user's home (stricter, never less).
  const tilde = /^~([A-Za-z_][\w.-]*)(\/.*)?$/.exec(b);
  if (tilde && l.startsWith('/') && l.endsWith(`/${tilde[1]}${tilde[2] ?? ''}`)) return true;
  if (!l.includes('\u0000')) return false;
  const parts = l.replace(/\u0000procsub:.\(/g, '\u0000').split('\u0000');
  // Placeholders match any text: check the fixed parts appear in order.
  if (!b.startsWith(parts[0]) || !b.endsWith(parts[parts.length - 1])) return false;
  let at = parts[0].length;
  for (const p of parts.slice(1, -1)) {
    const i = b.indexOf(p, at);
    if (i < 0) return false;
    at = i + p.length;
  }
  return at <= b.length - parts[parts.length - 1].length;
}

export function argvMatches(l: string[], b: string[]): boolean {
  if (l.length === 0 || b.length === 0) return false;
  // A wholly run-time command name may expand to nothing: the next word is then the command.
  if (l[0] === '\u0000' && l.length > 1 && argvMatches(l.slice(1), b)) return true;
  // A glob as the command name (`/bin/?m`) expands to every name it matches: the first is the command, the rest its first arguments.
  if (/[*?[]/.test(l[0])) {
    // The stubs log the command by its base name, the other matches as bash expanded them.
    const matches = (x: string, k: number) => (k === 0 ? globMatch(posix.basename(l[0]), posix.basename(x)) : globMatch(l[0], x));
    for (let k = 1; k <= b.length && matches(b[k - 1], k - 1); k++) if (restMatches(l.slice(1), b.slice(k))) return true;
  }
  if (!(posix.basename(l[0]) === posix.basename(b[0]) || elementMatches(l[0], b[0]))) return false;
  return restMatches(l.slice(1), b.slice(1));
}

/** DP over the arguments: a wholly run-time element matches any number of words. */
function restMatches(L: string[], B: string[]): boolean {
  let prev = new Array<boolean>(B.length + 1).fill(false);
  prev[0] = true;
  for (let i = 1; i <= L.length; i++) {
    const cur = new Array<boolean>(B.length + 1).fill(false);
    const star = L[i - 1] === '\u0000';
    // An unquoted glob (loom judges the pattern) expands to one or more names it matches.
    const glob = !star && /[*?[]/.test(L[i - 1]);
    cur[0] = star && prev[0];
    for (let j = 1; j <= B.length; j++) {
      const one = elementMatches(L[i - 1], B[j - 1]) || (glob && globMatch(L[i - 1], B[j - 1]));
      cur[j] = (prev[j - 1] && one) || (star && (cur[j - 1] || prev[j])) || (glob && one && cur[j - 1]);
    }
    prev = cur;
  }
  return prev[B.length];
}

export interface LineResult {
  line: string;
  bash: string[][];
  missing: string[][];
}

/** The commands bash ran that loom did not see. */
export function compareLine(line: string, bash: string[][], opts: AnalyzeOptions): LineResult {
  const loom = analyzeCommand(line, opts).commands.map((c) => c.argv);
  const missing = bash.filter((b) => !loom.some((l) => argvMatches(l, b)));
  return { line, bash, missing };
}

/** A mismatch class: the command name and how the line is built, to count causes not lines. */
export function mismatchClass(r: LineResult): string {
  const b = r.missing[0];
  const shape = /<<|\$\(|`|\|\s*(?:ba)?sh|bash -c|eval|\bfor\b|\(\)|alias|\$\{/.exec(r.line)?.[0] ?? 'plain';
  return `${posix.basename(b[0] ?? '')} in ${shape}`;
}
