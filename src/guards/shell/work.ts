// The guard's work meter. Every loop that scans text (the tokenizer, the
// word expander, brace expansion, the parser) or walks what was parsed (the
// analyzer, its copies of the walk's state, the rules over each simple
// command) charges one unit per step. An analysis may spend WORK_BUDGET
// units; past it the command is "too complex to analyse", a block, never a
// guess. The count does not depend on the machine, so tests compare it at two
// input sizes to prove the analysis linear (test/guard-linear.test.ts).

/** Units spent since the process started (only differences mean anything). */
export const work = { units: 0, limit: Number.POSITIVE_INFINITY };

/**
 * Units one analysis may spend. The 6,486 real agent and corpus commands in
 * test/ and the fixtures spend at most about 27,000 (median 800); a 200 KiB
 * heredoc about 600,000. Past the budget, functions, loops, aliases and brace
 * expansion that multiply the work end in a block, well within the 250 ms
 * that `loom serve` allows a large request.
 */
export const WORK_BUDGET = 1_000_000;

/** Fixed charges of the steps that are not a scan of characters. */
export const COST = {
  /** One simple command through every rule family (dispatch, option parsing, the hit list). */
  command: 256,
  /** One path judged (resolution, classification, secret and protected tables, globs). */
  path: 192,
};

/** True once the running analysis has spent its budget: scanners stop early. */
export const overBudget = (): boolean => work.units > work.limit;
