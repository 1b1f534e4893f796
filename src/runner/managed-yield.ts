// One record per event when Claude Code runs loom twice.
//
// An organisation wires loom in Claude Code's managed settings (every
// project of the machine), and a repository commits loom's hooks in
// .claude/settings.json (so teammates without managed settings are
// governed). Claude Code merges hooks from every settings level and runs
// both commands for each event: two answers and two records per event. The
// managed copy is the one a developer cannot switch off, so the project (or
// user) copy yields: it answers nothing and records nothing when the
// managed file runs loom for this same event.
//
// Why yield at run time rather than have `loom install --scope project`
// refuse on a managed machine: the project file is committed for the whole
// team and arrives by git whatever this machine's install says; most clones
// run where there are no managed settings, and there the project copy must
// govern. Only the machine knows which case it is in, at run time.
//
// Only when in no doubt (otherwise both run, as before, and loom doctor
// warns): the managed file and its folder are root's and writable by no one
// else, the managed file parses, does not set disableAllHooks, and has,
// for this event and for every tool (no narrower matcher), loom's managed
// command (MANAGED_MARK, written by `loom install --scope managed`) whose
// runner file exists. One small file read on the hook path (no parse when
// the file is absent, which is the common case).
import { existsSync } from 'node:fs';
import { readRegularFile } from '../util/read-regular';

/** A managed settings file is small; a larger one (or a FIFO, a device) is not read on the hook path. */
const MANAGED_MAX = 1 << 20;
import { claudeManagedSettingsFile, MANAGED_MARK, notAdminOnly } from '../install/managed-path';

export function yieldsToManaged(harness: string | undefined, event: string | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  if (harness !== 'claude' || !event || env.LOOM_HOOK_SCOPE === 'managed' || !/^[A-Za-z]+$/.test(event)) return false;
  const file = claudeManagedSettingsFile(env);
  // Yield only to a file an administrator controls: the text alone is anyone's who can write it.
  return managedRunsLoom(file, event) && notAdminOnly(file) === undefined;
}

/** For loom doctor: whether the managed file runs loom's managed command for some event (the other copies then yield). */
export function managedYieldReady(file: string): boolean {
  if (notAdminOnly(file) !== undefined) return false;
  try {
    const hooks = (JSON.parse(readRegularFile(file, MANAGED_MAX) ?? '{}') as { hooks?: Record<string, unknown> }).hooks;
    return Object.keys(hooks ?? {}).some((event) => /^[A-Za-z]+$/.test(event) && managedRunsLoom(file, event));
  } catch {
    return false;
  }
}

function managedRunsLoom(file: string, event: string): boolean {
  let doc: unknown;
  try {
    const text = readRegularFile(file, MANAGED_MAX);
    if (text === undefined) return false;
    doc = JSON.parse(text);
  } catch {
    return false;
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return false;
  const d = doc as { disableAllHooks?: unknown; hooks?: Record<string, unknown> };
  if (d.disableAllHooks === true || d.hooks === null || typeof d.hooks !== 'object' || !Object.hasOwn(d.hooks, event)) return false;
  const groups = d.hooks[event];
  if (!Array.isArray(groups)) return false;
  const ours = new RegExp(`run-hook\\.js'? --event ${event} --harness claude(?:;|$)`);
  for (const g of groups as { matcher?: unknown; hooks?: unknown }[]) {
    if (g === null || typeof g !== 'object' || !(g.matcher === undefined || g.matcher === '' || g.matcher === '*') || !Array.isArray(g.hooks)) continue;
    for (const h of g.hooks as { type?: unknown; command?: unknown }[]) {
      const c = h?.command;
      if (h?.type !== 'command' || typeof c !== 'string' || !c.includes(` ${MANAGED_MARK} `) || !ours.test(c)) continue;
      const runner = /^\[ -f '([^']+)' \]/.exec(c)?.[1];
      if (runner && existsSync(runner)) return true;
    }
  }
  return false;
}
