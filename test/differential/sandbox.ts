// Runs command lines in the REAL bash of this machine and records every
// simple command bash ran, with its argv, without letting anything real
// run: in a private mount namespace every program folder (/usr/bin,
// /usr/sbin, /usr/local/bin, ...) is covered by a folder of logging stubs
// (one per program name, so `/bin/rm` is a stub too), commands not found
// on PATH are logged by command_not_found_handle, a few builtins (echo,
// printf, cd, eval, source, kill) are wrapped to log themselves, and the
// lines run as `nobody` with process, CPU and file-size limits in a fresh
// empty work folder with a fake HOME. Shell stubs (bash, sh, ...) re-run
// the instrumented bash, so `bash -c '...'` is followed inside.
// node:child_process, not execa: this module also runs from `npx tsx` (the replay script), where an ESM-only package cannot be required.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Sandbox {
  root: string;
  home: string;
  work: string;
}

const PROGRAM_DIRS = ['/usr/bin', '/usr/sbin', '/usr/local/bin', '/usr/local/sbin'];
const SHELLS = ['bash', 'sh', 'dash', 'zsh', 'ksh', 'ash', 'mksh', 'rbash'];
const NOBODY = 65534;
const REAL_TOOLS = ['bash', 'timeout', 'rm', 'mkdir', 'setpriv'];
/** Pure filters the stubs run for real (after logging), so text piped into a shell arrives as bash would see it. */
const PASS_THROUGH = ['cat', 'base64', 'rev', 'tr', 'head', 'tail', 'tee', 'xxd', 'sort'];

/** Can this machine run the sandbox (root, unshare, setpriv, bash)? */
export function sandboxAvailable(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  try {
    execFileSync('unshare', ['-m', '-p', '--fork', '--mount-proc', 'true'], { stdio: 'ignore' });
    return existsSync('/usr/bin/setpriv') && existsSync('/bin/bash');
  } catch {
    return false;
  }
}

export function makeSandbox(): Sandbox {
  const root = mkdtempSync(join(tmpdir(), 'loom-diff-'));
  chmodSync(root, 0o755);
  const real = join(root, 'real');
  const stubs = join(root, 'stubs');
  for (const d of [real, stubs, join(root, 'home'), join(root, 'work'), join(root, 'logs'), join(root, 'tmp')]) mkdirSync(d, { recursive: true });
  for (const p of [...REAL_TOOLS, ...PASS_THROUGH]) {
    copyFileSync(join('/usr/bin', p), join(real, p));
    chmodSync(join(real, p), 0o755);
  }
  // One write per record, so commands running at once in a pipe do not interleave. bash line-buffers
  // its builtins' stdout, so a newline inside an argument would split the record into two writes:
  // newlines travel as \x1d and are restored when the log is read.
  const record = `local __r= __a; for __a in "$@"; do __r+="\${__a//$'\n'/$'\x1d'}"$'\x1f'; done; builtin printf '%s\x1e' "$__r" >> "$LOOM_DIFF_LOG"`;
  // The stub every program path points at (/bin/rm, /usr/bin/env): names on PATH reach command_not_found_handle instead.
  writeFileSync(join(real, 'stub'), `#!${real}/bash\n. ${real}/prelude.sh\n__loom_run "\${0##*/}" "$@"\n`);
  chmodSync(join(real, 'stub'), 0o755);
  writeFileSync(
    join(real, 'prelude.sh'),
    [
      `__loom_rec() { ${record}; }`,
      // Shells re-run the instrumented bash (followed inside); pure filters run for real; the rest only log.
      `__loom_run() { __loom_rec "$@"; case "$1" in ${SHELLS.join('|')}) (BASH_ENV=${real}/prelude.sh exec -a bash ${real}/bash "\${@:2}");; ${PASS_THROUGH.join('|')}) ${real}/"$@";; esac; return 0; }`,
      'command_not_found_handle() { __loom_run "$@"; }',
      'echo() { __loom_rec echo "$@"; builtin echo "$@"; }',
      'printf() { __loom_rec printf "$@"; builtin printf "$@"; }',
      'cd() { __loom_rec cd "$@"; builtin cd "$@"; }',
      'eval() { __loom_rec eval "$@"; builtin eval "$@"; }',
      'source() { __loom_rec source "$@"; builtin source "$@"; }',
      'kill() { __loom_rec kill "$@"; }',
      'shopt -s expand_aliases',
      '',
    ].join('\n'),
  );
  const names = new Set<string>();
  for (const d of PROGRAM_DIRS) if (existsSync(d)) for (const n of readdirSync(d)) names.add(n);
  for (const n of [...SHELLS, 'sudo', 'rm', 'curl', 'wget', 'python3', 'node']) names.add(n);
  for (const n of names) symlinkSync(join(real, 'stub'), join(stubs, n));
  execFileSync('chown', ['-R', `${NOBODY}:${NOBODY}`, join(root, 'home'), join(root, 'work'), join(root, 'logs'), join(root, 'tmp')]);
  execFileSync('chown', [`${NOBODY}:${NOBODY}`, root]);
  return { root, home: join(root, 'home'), work: join(root, 'work') };
}

const shq = (t: string) => `'${t.replace(/'/g, `'\\''`)}'`;

export function removeSandbox(s: Sandbox): void {
  rmSync(s.root, { recursive: true, force: true });
}

/** Runs each line in the instrumented bash; returns, per line, the argv of every command bash ran. */
export function runLines(s: Sandbox, lines: string[], timeoutSec = 2): string[][][] {
  const real = join(s.root, 'real');
  const input = join(s.root, 'lines.bin');
  writeFileSync(input, lines.map((l) => l.replace(/\0/g, '')).join('\0') + '\0');
  const mounts = PROGRAM_DIRS.filter((d) => existsSync(d))
    .map((d) => `mount --bind ${s.root}/stubs ${d}`)
    .join(' && ');
  // The driver runs as nobody: each line in its own subshell, its own empty folder, with a CPU limit.
  // PATH is an empty folder, so every program name reaches command_not_found_handle without a process.
  const driver = [
    `. ${real}/prelude.sh`,
    `ulimit -u 400 -f 2048 2>/dev/null`,
    `${real}/mkdir -p ${s.work}/{0..${Math.max(0, lines.length - 1)}} ${s.root}/empty`,
    `__loom_i=0`,
    `while IFS= read -r -d '' __loom_line; do`,
    `  ( builtin cd ${s.work}/$__loom_i || exit; ulimit -t ${timeoutSec}; export LOOM_DIFF_LOG=${s.root}/logs/$__loom_i.log HOME=${s.home} TMPDIR=${s.root}/tmp PATH=${s.root}/empty; builtin eval "$__loom_line" ) </dev/null >/dev/null 2>&1`,
    // A line may leave processes behind (a fork bomb in the background): end them before the next line.
    `  for __loom_k in 1 2 3; do builtin kill -9 -1 2>/dev/null; done`,
    `  __loom_i=$((__loom_i+1))`,
    `done < ${input}`,
  ].join('\n');
  const script = `${mounts} && exec ${real}/setpriv --reuid=${NOBODY} --regid=${NOBODY} --clear-groups --inh-caps=-all ${real}/bash --norc --noprofile -c ${shq(driver)}`;
  // Its own PID namespace: when the driver (the namespace's init) ends, the kernel ends every process left in it.
  spawnSync('unshare', ['-m', '-p', '--fork', '--mount-proc', '--propagation', 'private', `${real}/bash`, '-c', script], { stdio: 'ignore', timeout: timeoutSec * 1000 * lines.length + 30_000 });
  const out: string[][][] = [];
  for (let i = 0; i < lines.length; i++) {
    const f = join(s.root, 'logs', `${i}.log`);
    const text = existsSync(f) ? readFileSync(f, 'utf8') : '';
    out.push(text.split('\x1e').filter((r) => r !== '').map((r) => r.split('\x1f').slice(0, -1).map((a) => a.replace(/\x1d/g, '\n'))));
    rmSync(f, { force: true });
  }
  return out;
}
