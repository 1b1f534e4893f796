// Fork bombs through shell functions: a function that reaches itself again
// through the functions it calls (`a(){ b|b& }; b(){ a|a& }; a`), with at
// least one call on the way made in a pipe or in the background. Each pass
// around the cycle then starts processes that do not wait for each other:
// self-recursion (`:(){ :|:& };:`) is the cycle of length one.
import type { Node } from '../parse';

/** The numbers `seq` prints for these arguments (options dropped): FIRST [STEP] LAST. */
function seqCount(args: string[]): number {
  const nums = args.filter((a) => !a.startsWith('-') || /^-\d/.test(a)).map(Number);
  if (nums.length === 0 || nums.some((n) => !Number.isFinite(n))) return /\binf/i.test(args.join(' ')) ? Infinity : 0;
  const [first, step, last] = nums.length === 1 ? [1, 1, nums[0]] : nums.length === 2 ? [nums[0], 1, nums[1]] : [nums[0], nums[1], nums[2]];
  return step === 0 ? Infinity : Math.max(0, Math.floor((last - first) / step) + 1);
}

/**
 * How many passes a `for NAME in WORDS` loop makes, from its words as written: a brace range counts its
 * members (`{1..100000}`), `$(seq ...)` / `` `seq ...` `` the numbers it prints, other words one each.
 */
export function loopPasses(words: string[]): number {
  let total = 0;
  for (const raw of words.slice(0, 256)) {
    const seq = /^["']?(?:\$\(|`)\s*seq\s+([^)`]*)(?:\)|`)["']?$/.exec(raw);
    if (seq) {
      total += seqCount(seq[1].trim().split(/\s+/));
      continue;
    }
    let n = 1;
    for (const m of raw.matchAll(/\{(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?\}/g)) n *= Math.floor(Math.abs(Number(m[2]) - Number(m[1])) / Math.max(1, Math.abs(Number(m[3] ?? 1)))) + 1;
    total += n;
  }
  return total;
}

/** How many passes `for ((init; cond; step))` makes when its condition is `i < N` / `i <= N` from a small start. */
export function arithLoopPasses(src: string): number {
  const m = /;\s*[A-Za-z_]\w*\s*(<=?)\s*(\d[\d_]*(?:e\d+)?)\s*;/.exec(src);
  return m ? Number(m[2].replace(/_/g, '')) : 0;
}

/** Does a body wait for its jobs (`wait` anywhere in it)? Then its jobs are batched, not piled up. */
export function waitsIn(body: Node): boolean {
  switch (body.t) {
    case 'cmd':
      return body.words[0] === 'wait';
    case 'pipe':
      return body.cmds.some(waitsIn);
    case 'list':
      return body.items.some((i) => waitsIn(i.node));
    case 'sub':
    case 'group':
      return waitsIn(body.body);
    case 'block':
      return body.parts.some(waitsIn);
    case 'for':
      return waitsIn(body.body);
    default:
      return false;
  }
}

/** Functions whose call graph is searched (more are judged by their direct self-calls only). */
const MAX_FUNCS = 64;

export interface CallEdge {
  to: string;
  /** The call runs in a pipe or in the background. */
  parallel: boolean;
}

/** The function names a body calls (first words of its simple commands), and whether each call forks. */
export function callEdges(body: Node, nameOf: (raw: string) => string): CallEdge[] {
  const out: CallEdge[] = [];
  const visit = (n: Node, parallel: boolean): void => {
    if (out.length > MAX_FUNCS * 4) return;
    switch (n.t) {
      case 'cmd':
        if (n.words[0] !== undefined) out.push({ to: nameOf(n.words[0]), parallel });
        return;
      case 'pipe':
        for (const c of n.cmds) visit(c, parallel || n.cmds.length > 1);
        return;
      case 'list':
        for (const i of n.items) visit(i.node, parallel || i.bg);
        return;
      case 'sub':
      case 'group':
      case 'for':
        visit(n.body, parallel);
        return;
      case 'block':
        for (const p of n.parts) visit(p, parallel);
        return;
      case 'coproc':
        visit(n.body, true);
        return;
      default:
        return;
    }
  };
  visit(body, false);
  return out;
}

/**
 * The cycle through `start` in the call graph of `funcs` that has a forking
 * call, as the list of names on it, or undefined. Breadth-first over
 * (function, forked-yet) states: bounded by twice the number of functions.
 */
export function forkingCycle(funcs: Map<string, Node>, start: string, nameOf: (raw: string) => string): string[] | undefined {
  if (!funcs.has(start)) return undefined;
  const edges = new Map<string, CallEdge[]>();
  const edgesOf = (f: string): CallEdge[] => {
    let e = edges.get(f);
    if (!e) edges.set(f, (e = callEdges(funcs.get(f)!, nameOf).filter((x) => funcs.has(x.to))));
    return e;
  };
  type State = { f: string; forked: boolean; path: string[] };
  const seen = new Set<string>();
  const queue: State[] = [{ f: start, forked: false, path: [start] }];
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q];
    for (const e of edgesOf(s.f)) {
      const forked = s.forked || e.parallel;
      if (e.to === start && forked) return [...s.path, start];
      const key = `${e.to}\u0000${forked}`;
      if (seen.has(key) || queue.length >= 2 * MAX_FUNCS) continue;
      seen.add(key);
      queue.push({ f: e.to, forked, path: [...s.path, e.to] });
    }
  }
  return undefined;
}
