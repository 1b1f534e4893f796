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
 * Units one analysis may spend. A real agent command spends a few hundred to a
 * few thousand (the 4,150 commands of the fixtures: at most about 60,000), a
 * 256 KiB command of short segments about 3 million; the budget bounds what
 * functions, loops, aliases and brace expansion can multiply.
 */
export const WORK_BUDGET = 8_000_000;

/** Fixed charges of the steps that are not a scan of characters. */
export const COST = {
  /** One simple command through every rule family (dispatch, option parsing, the hit list). */
  command: 256,
  /** One path judged (resolution, classification, secret and protected tables, globs). */
  path: 192,
};

/** True once the running analysis has spent its budget: scanners stop early. */
export const overBudget = (): boolean => work.units > work.limit;
