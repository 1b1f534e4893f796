// Case counts of the chaos suite. The defaults keep the whole suite within
// a few minutes on a quiet 2-core machine (CI runs it after npm test and the
// end-to-end suite); every family of faults runs at every scale.
// LOOM_CHAOS_FULL=1 runs the full counts (10,000 fuzz cases, 64 x 100
// writers, 100 + 10 kills, ...); LOOM_CHAOS_SCALE=<factor> multiplies the
// defaults instead (a long run between the two).
const full = process.env.LOOM_CHAOS_FULL === '1';
const factor = Number(process.env.LOOM_CHAOS_SCALE ?? '1');
const SCALE = Number.isFinite(factor) && factor > 0 ? factor : 1;

/** The count to run: `ci` by default (times LOOM_CHAOS_SCALE), `fullCount` with LOOM_CHAOS_FULL=1. */
export function chaosCount(ci: number, fullCount: number): number {
  if (full) return fullCount;
  return Math.max(1, Math.round(ci * SCALE));
}

/** A test's time limit: generous (a loaded machine is slower), grown with the counts. */
export function chaosTimeout(ciSeconds: number): number {
  const grow = full ? 10 : Math.max(1, SCALE);
  return Math.round(ciSeconds * grow * 1000);
}
