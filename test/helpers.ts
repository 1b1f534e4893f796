import { execa } from 'execa';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..');
export const RUNNER = join(ROOT, 'hooks', 'run-hook.js');
export const CLI = join(ROOT, 'bin', 'loom.js');
export const BEHAVE = '../test/fixtures/handlers/behave.cjs';

// Checkpoint copies go to the user's state folder by default: tests keep theirs in a folder of their own.
process.env.XDG_STATE_HOME = mkdtempSync(join(tmpdir(), 'loom-state-'));

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function tempDir(prefix = 'loom-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * A global npm prefix (pass it as npm_config_prefix) whose lib/node_modules
 * holds loom, linked to this checkout as `npm link` leaves it: what
 * `loom install --scope managed` needs to find. Without one it refuses.
 */
export function globalPrefixWithLoom(): string {
  const prefix = tempDir('loom-global-');
  mkdirSync(join(prefix, 'lib', 'node_modules'), { recursive: true });
  symlinkSync(ROOT, join(prefix, 'lib', 'node_modules', 'loom-governance'));
  return prefix;
}

/** Spawns a real child process (execa) with stdin piped; never asserts on time. */
export async function run(cmd: string, args: string[], stdin: string | Buffer | null, env: NodeJS.ProcessEnv = {}, cwd?: string): Promise<RunResult> {
  const r = await execa(cmd, args, {
    cwd: cwd ?? ROOT,
    env: { LOOM_CONFIG: '', LOOM_PROJECT_DIR: '', CLAUDE_PROJECT_DIR: '', LOOM_HARNESS: '', LOOM_LEDGER_KEY: '', LOOM_CHECKPOINT_DIR: '', ...env },
    input: stdin ?? '',
    reject: false,
    stripFinalNewline: false,
    maxBuffer: 1024 * 1024 * 1024,
  });
  // A process that could not start at all (no such program) is the caller's error, as before.
  if (r.exitCode === undefined && r.signal === undefined) throw r;
  return { code: r.exitCode ?? null, stdout: r.stdout, stderr: r.stderr };
}

export function runHook(args: string[], payload: unknown, env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
  const body = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload);
  return run(process.execPath, [RUNNER, ...args], body, env);
}

/** Writes a registry to a temp dir and returns its path. */
export function writeRegistry(registry: unknown, dir = tempDir()): string {
  const file = join(dir, 'hooks.json');
  writeFileSync(file, typeof registry === 'string' ? registry : JSON.stringify(registry, null, 2));
  return file;
}

export const preToolUse = (command = 'ls') => ({
  session_id: 'sess-1',
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command },
  cwd: '/tmp',
});

/**
 * A TypeScript test fixture bundled once into plain JavaScript (under
 * node_modules/.cache, so it still finds the native SQLite addon): many
 * processes start in milliseconds instead of each compiling through tsx.
 */
const bundled = new Set<string>();
export function bundledFixture(tsFile: string): string {
  const { buildSync } = require('esbuild') as typeof import('esbuild');
  // Built once per test process and never reused by a later one (a pid comes back; the sources change).
  const out = join(ROOT, 'node_modules', '.cache', 'loom-test', `${basename(tsFile, '.ts')}-${process.pid}.js`);
  if (!bundled.has(out)) {
    bundled.add(out);
    buildSync({ entryPoints: [tsFile], outfile: out, bundle: true, platform: 'node', target: 'node20', format: 'cjs', external: ['better-sqlite3'], logLevel: 'warning' });
  }
  return out;
}

/** The URL a `loom serve` child prints once it listens; rejects with its stderr when it exits first. */
export function listeningUrl(child: import('node:child_process').ChildProcess): Promise<string> {
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d) => {
      err += d;
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
}

