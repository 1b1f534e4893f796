// The command form of an answer (`POST /hooks...?form=command`): what the
// Node runner would print and exit with, for the sh wrappers' fast path
// (src/registry/fast-client.ts). The body is three parts the wrapper splits
// with parameter expansion and prints with `printf '%b'` (a shell builtin):
//
//   loom-answer 1 <exit code>\n<stderr, escaped>\n<stdout, escaped>.
//
// Escaped: a backslash doubled, every control character as \0ooo (octal),
// so neither part holds a raw newline; the final dot keeps `$(...)` from
// eating anything. Anything else the wrapper receives is not an answer: it
// runs the Node runner instead.
import { isAbsolute, resolve } from 'node:path';
import type { RenderedAnswer } from '../contract/types';

export const ANSWER_MAGIC = 'loom-answer 1';

export function escapeForPrintfB(s: string): string {
  return s.replace(/[\\\u0000-\u001f\u007f]/g, (c) => (c === '\\' ? '\\\\' : `\\0${c.charCodeAt(0).toString(8).padStart(3, '0')}`));
}

export function commandFormBody(a: RenderedAnswer): string {
  return `${ANSWER_MAGIC} ${a.exitCode}\n${escapeForPrintfB(a.stderr)}\n${escapeForPrintfB(a.stdout)}.`;
}

/** The wrapper's view of where it runs, sent as headers (raw bytes: Node reads them as latin1). */
export interface WrapperPlace {
  /** LOOM_PROJECT_DIR, else the harness's project variable (CLAUDE_PROJECT_DIR, ...), as the runner reads them; may be empty. */
  projectVar?: string;
  /** The wrapper's working folder ($PWD): the runner's last resort. */
  cwd?: string;
  /** Whether the hook process has LOOM_LEDGER_KEY or LOOM_LEDGER_KEY_FILE set. */
  keyed: boolean;
}

const utf8 = (v: string | string[] | undefined): string | undefined => {
  const s = Array.isArray(v) ? v[0] : v;
  return s ? Buffer.from(s, 'latin1').toString('utf8') : undefined;
};

export function wrapperPlace(headers: Record<string, string | string[] | undefined>): WrapperPlace {
  return { projectVar: utf8(headers['x-loom-project']), cwd: utf8(headers['x-loom-cwd']), keyed: !!headers['x-loom-keyed'] };
}

/** The project flag the runner would have: the variable, resolved against the wrapper's folder when relative. */
export function projectFlagOf(place: WrapperPlace): string | undefined {
  const v = place.projectVar;
  if (!v) return undefined;
  return isAbsolute(v) || !place.cwd ? resolve(v) : resolve(place.cwd, v);
}
