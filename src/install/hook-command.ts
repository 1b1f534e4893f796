// The one hook command every command-hook target installs. It must travel
// (no path of one machine in a committed file) and fail closed (a harness
// treats exit 1 or "command not found" as "go ahead", so a teammate without
// loom installed would run ungoverned). So the command is a few POSIX sh
// builtins: start at the harness's project folder (its own variable, else
// the working directory), walk up to the first folder whose node_modules
// holds loom's runner, and run node on it; when none does, or node is
// missing, say how to install loom and exit 2, which every harness treats
// as a block, as is Node dying before the runner answers (run-node-sh.ts).
// NODE_EXTRA_CA_CERTS is cleared for the hook process: it makes no TLS call
// and the variable costs every Node start.

import { runNodeFailClosedSh } from '../registry/run-node-sh';
import { contractFor } from '../contract/events';
import { MANAGED_MARK } from './managed-path';

/** The package name in node_modules; the runner is at `<pkg>/hooks/run-hook.js`. */
export const PACKAGE_NAME = 'loom-governance';
export const RUNNER_IN_PACKAGE = 'hooks/run-hook.js';
export const RUNNER_FROM_PROJECT = `node_modules/${PACKAGE_NAME}/${RUNNER_IN_PACKAGE}`;

/**
 * Per harness: the environment variable that names the project folder in
 * its hook processes (undefined: the harness runs hooks in the session's
 * working directory and sets none, so the walk starts at $PWD).
 */
export const PROJECT_DIR_VARIABLE: Record<string, string | undefined> = {
  claude: 'CLAUDE_PROJECT_DIR',
  gemini: 'GEMINI_PROJECT_DIR',
  cursor: 'CURSOR_PROJECT_DIR',
  codex: undefined,
  qwen: 'QWEN_PROJECT_DIR',
  droid: 'FACTORY_PROJECT_DIR',
  crush: 'CRUSH_PROJECT_DIR',
  copilot: undefined,
};

export const INSTALL_HINT = `not installed in this project; run \`npm install\` (or \`npm install -D ${PACKAGE_NAME}\`) in the project. Blocked until then.`;

/** Where the command finds the runner. */
export type RunnerLocation =
  /** Committed project settings: found under node_modules from the project folder up. */
  | { kind: 'project' }
  /** User settings on one machine: this absolute path. */
  | { kind: 'absolute'; runner: string }
  /**
   * Managed settings: the global install's runner, which every project on the
   * machine shares. The command carries MANAGED_MARK, so a project or user
   * copy of loom's hooks yields to it at run time (one record per event).
   */
  | { kind: 'managed'; runner: string }
  /**
   * loom's own repository (its package.json is loom's): the checkout's own
   * runner, found from the project folder up, built by npm ci. It governs
   * the agents that work on loom.
   */
  | { kind: 'self' };

// Single quotes hold anything but a single quote.
const shQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function hookCommand(harness: string, event: string, where: RunnerLocation): string {
  if (!/^[A-Za-z_]+$/.test(event) || !/^[a-z-]+$/.test(harness)) throw new Error(`hookCommand: unexpected event or harness name "${event}" / "${harness}"`);
  const args = `--event ${event} --harness ${harness}`;
  // An event loom does not know is treated as one that can block: its failures block too.
  const canBlock = contractFor(event)?.canBlock ?? true;
  const runNode = (runner: string) => runNodeFailClosedSh(runner, args, canBlock);
  const missing = (msg: string) => `{ echo ${shQuote(`loom: ${msg}`)} >&2; exit 2; }`;
  const node = `command -v node >/dev/null || ${missing('node is not on PATH; the hook cannot run. Blocked.')}`;
  if (where.kind === 'absolute') {
    const r = shQuote(where.runner);
    return `[ -f ${r} ] || ${missing(`${where.runner} is missing; reinstall loom (npm install -g ${PACKAGE_NAME}). Blocked until then.`)}; ${node}; ${runNode(r)}`;
  }
  if (where.kind === 'managed') {
    // The organisation's settings run the machine's global loom: when it is gone, an administrator reinstalls it.
    const r = shQuote(where.runner);
    return `[ -f ${r} ] || ${missing(`managed settings on this machine run loom from ${where.runner}, which is missing; an administrator reinstalls it with: sudo npm install -g ${PACKAGE_NAME}. Blocked until then.`)}; ${node}; ${MANAGED_MARK} ${runNode(r)}`;
  }
  const v = PROJECT_DIR_VARIABLE[harness];
  const start = v ? `\${${v}:-$PWD}` : '$PWD';
  if (where.kind === 'self') {
    return `d="${start}"; while [ -n "$d" ] && { [ ! -f "$d/${RUNNER_IN_PACKAGE}" ] || [ ! -f "$d/dist/runner.js" ]; }; do d="\${d%/*}"; done; [ -n "$d" ] || ${missing('this checkout of loom is not built; run npm ci (it builds dist/). Blocked until then.')}; ${node}; ${runNode(`"$d/${RUNNER_IN_PACKAGE}"`)}`;
  }
  return `d="${start}"; while [ -n "$d" ] && [ ! -f "$d/${RUNNER_FROM_PROJECT}" ]; do d="\${d%/*}"; done; [ -n "$d" ] || ${missing(INSTALL_HINT)}; ${node}; ${runNode(`"$d/${RUNNER_FROM_PROJECT}"`)}`;
}

/** Any command loom installed, whichever form or pack path: recognised by the runner and its --event flag. */
export function isLoomHookCommand(cmd: unknown): boolean {
  return typeof cmd === 'string' && /run-hook\.js['"]? --event [A-Za-z_]+/.test(cmd);
}
