// Managed settings apply to every project on the machine, so the command
// they hold must not name one project's node_modules (a dev dependency that
// happened to run `loom install`): it names the global install's runner,
// found where npm puts global packages and checked before anything is
// written. Without a global install, `--scope managed` refuses.
import { execaSync } from 'execa';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PACKAGE_NAME, RUNNER_IN_PACKAGE } from './hook-command';
import { ScopeError } from './targets';

export interface GlobalLoom {
  /** The package folder under the global node_modules (not resolved through links: an upgrade replaces it in place). */
  dir: string;
  runner: string;
  version: string;
}

/** Folders npm may keep global packages in: `npm root -g` (honours the user's prefix), else beside this Node. */
export function globalRoots(env: NodeJS.ProcessEnv = process.env): string[] {
  const roots: string[] = [];
  try {
    const r = execaSync('npm', ['root', '-g'], { env, reject: false, timeout: 15_000, stdin: 'ignore' });
    const line = String(r.stdout).trim().split('\n').pop() ?? '';
    if (r.exitCode === 0 && line) roots.push(line);
  } catch {
    // npm not on PATH (sudo with a reset PATH): fall back to this Node's prefix
  }
  const prefix = dirname(dirname(process.execPath));
  roots.push(process.platform === 'win32' ? join(dirname(process.execPath), 'node_modules') : join(prefix, 'lib', 'node_modules'));
  return [...new Set(roots)];
}

/** The global loom, checked: its package.json names loom, and its runner and built runner are there. */
export function findGlobalLoom(env: NodeJS.ProcessEnv = process.env): GlobalLoom | undefined {
  for (const root of globalRoots(env)) {
    const dir = join(root, PACKAGE_NAME);
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name !== PACKAGE_NAME) continue;
      const runner = join(dir, RUNNER_IN_PACKAGE);
      if (!existsSync(runner) || !existsSync(join(dir, 'dist', 'runner.js'))) continue;
      return { dir, runner, version: String(pkg.version ?? '') };
    } catch {
      // not there, or not readable: try the next root
    }
  }
  return undefined;
}

const real = (p: string) => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};

/** Whether this loom (the pack running now) is the global one. */
export const isSameInstall = (g: GlobalLoom, packRoot: string) => real(g.dir) === real(packRoot);

/**
 * The runner managed settings name, or a ScopeError (exit 1, nothing written)
 * saying to install loom globally. One line: it is what the user reads.
 */
export function managedRunner(packRoot: string, env: NodeJS.ProcessEnv = process.env): { runner: string; note?: string } {
  const g = findGlobalLoom(env);
  if (!g) {
    throw new ScopeError(`--scope managed needs loom installed globally (managed settings run it for every project on this machine, and ${packRoot} is not a global install): run sudo npm install -g ${PACKAGE_NAME}, then sudo loom install --scope managed again; nothing was written`);
  }
  if (isSameInstall(g, packRoot)) return { runner: g.runner };
  let mine = '';
  try {
    mine = String((JSON.parse(readFileSync(join(packRoot, 'package.json'), 'utf8')) as { version?: string }).version ?? '');
  } catch {
    mine = '';
  }
  return { runner: g.runner, note: `the managed settings run the global loom ${g.version} (${g.dir}), not this one (${packRoot}${mine && mine !== g.version ? `, ${mine}` : ''}); upgrade it with sudo npm install -g ${PACKAGE_NAME}.` };
}

/** Whether this pack is some project's dependency (it sits in a node_modules folder) rather than a global install or a checkout. */
export function isProjectDependency(packRoot: string): boolean {
  return real(packRoot).split(/[\\/]/).includes('node_modules') && !globalRoots().some((r) => real(packRoot).startsWith(real(r) + '/'));
}

/**
 * User settings run for every project of this user too: from a project's dev dependency they would name that one
 * project's node_modules, and deleting or re-cloning it would block every session everywhere (finding A5). They name
 * the global install, or the command refuses with the fix.
 */
export function userRunner(packRoot: string, env: NodeJS.ProcessEnv = process.env): { runner: string; note?: string } | undefined {
  if (!isProjectDependency(packRoot)) return undefined;
  const g = findGlobalLoom(env);
  if (!g) throw new ScopeError(`--scope user needs loom installed globally (user settings run it for every project of this user, and ${packRoot} is one project's dependency): run npm install -g ${PACKAGE_NAME}, then loom install --scope user again, or use --scope project; nothing was written`);
  return { runner: g.runner, note: `the user settings run the global loom ${g.version} (${g.dir}), not this project's copy (${packRoot}).` };
}
