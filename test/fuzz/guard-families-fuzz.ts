// Random argv, code and PowerShell text through every rule family: nothing
// may throw, no input may take long (a hang detector, not a benchmark), and
// the family tables' regular expressions stay linear on hostile input.
// Shared by the unit test (a few thousand inputs) and the chaos suite (many more).
import { join } from 'node:path';
import { Analyzer, analyzeCommand, type AnalyzeOptions } from '../../src/guards/shell/analyze';
import { analyzeInterpreterCode } from '../../src/guards/shell/families/interpreters';
import { checkWindowsLine } from '../../src/guards/shell/families/windows';
import type { SimpleCommand } from '../../src/guards/shell/lexer';
import { loadPolicy } from '../../src/policy/policy';
import * as devices from '../../src/guards/shell/tables/devices';
import * as secrets from '../../src/guards/shell/tables/secrets';
import * as windows from '../../src/guards/shell/tables/windows';
import { globToRegExp } from '../../src/guards/shell/path-rules';
import type { Language } from '../../src/guards/shell/tables/programs';
import { ROOT } from '../helpers';
import { rng } from './rng';


const PROGRAMS = ['unzip', '7z', 'cpio', 'bsdtar', 'setfacl', 'chattr', 'chgrp', 'pip', 'npm', 'gem', 'cargo', 'apt-get', 'rpm', 'brew', 'conda', 'rake', 'yarn', 'composer', 'truncate', 'shred', 'psql', 'mysql', 'redis-cli', 'terraform', 'kubectl', 'aws', 'gcloud', 'install', 'rm', 'find', 'rsync', 'mv', 'cp', 'ln', 'git', 'curl', 'wget', 'bash', 'sh', 'python3', 'node', 'perl', 'ruby', 'php', 'lua', 'deno', 'bun', 'osascript', 'cat', 'tar', 'zip', 'scp', 'gh', 'env', 'printenv', 'nc', 'chmod', 'chown', 'dd', 'sqlite3', 'sed', 'vim', 'ex', 'tee', 'truncate', 'mkfs.ext4', 'wipefs', 'parted', 'sgdisk', 'hdparm', 'cryptsetup', 'kill', 'pkill', 'killall', 'crontab', 'systemctl', 'shutdown', 'sudo', 'powershell', 'pwsh', 'cmd', 'Remove-Item', 'rd', 'del', 'eval', 'source', 'xargs', 'fd', 'fish', 'zsh', 'sftp', 'socat', 'dcfldd', 'sqlite-utils', 'litecli', 'make', 'task', 'go', 'terraform', 'composer', 'direnv', 'hash', 'mise', 'aws-vault', 'capsh', 'script', 'gdb', 'zellij', 'pee', 'skill', 'busctl', 'npm', 'uvx', 'helm', 'wsl', 'yq', 'sort', 'parallel', 'jq', 'gojq', 'gsed', 'read', 'mapfile', 'readarray', 'declare', 'local', 'git-push', 'git-reset', 'git-filter-repo', 'java', 'dpkg', 'rpm', 'pip', 'insmod', 'pnpm', 'http-server', 'busybox', 'httpd', 'shred', 'unlink', 'glab', 'svn', 'apply_patch', 'patch', 'start-stop-daemon', 'flatpak', 'distrobox', 'distrobox-host-exec', 'host-spawn', 'toolbox', 'sem', 'pueue', 'reflex', 'timelimit', 'taskpolicy', 'split', 'racket', 'raku', 'scala', 'groovy', 'crystal', 'swift', 'devcontainer', 'while', 'ninja', 'samu', 'go-task', 'tclsh', 'expect', 'Rscript', 'guile', 'sbcl', 'zx', 'debugfs', 'nsenter', 'chroot', 'docker', 'podman', 'oc', 'defaults', 'duckdb', 'elixir', 'ansible', 'salt', 'salt-call', 'pssh', 'pdsh', 'clush', 'vagrant', 'lftp', 'ftp', 'pytest', 'jest', 'vite', 'vitest', 'webpack', 'eslint', 'dropdb', 'influx', 'minikube', 'kind', 'loom', 'constructor', '__proto__', 'toString', 'hasOwnProperty'];
const TOKENS = ['--cap-add', 'SYS_ADMIN', '--pid=host', '--security-opt', 'seccomp=unconfined', '--device', '/dev/sda', '-v', '/:/h', '--overrides', '{"spec":{"hostPID":true}}', 'node/n1', '-t1', '/proc/1/root', 'LoginHook', '.once |sh', 'pager sh', 's/x/y\\/z/e', 'mv', '-C', '-d', '-o/home/dev', '-oq', '-y', '-aoa', '-idmu', '-R', '-m', 'o:rwx', '+i', 'git+https://x.example/p.git', '--index-url', 'http://10.0.0.1/simple', '--git', 'add', 'run', 'env', '--', 'destroy', 'delete', 'ns', '--dry-run', 'DROP DATABASE x', 'FLUSHALL', '/dev/null', '/dev/zero', '~', 'src', 'src/*', 'package.json', '~/.ssh', 'u-rwx', 'a=rwx', 'nobody', '--overwrite', '--recursive-unlink', 'x', '--script-shell=/tmp/s', 'SHELL=/tmp/sh', 'NODE_OPTIONS=--require', 'PERL5OPT=-Mx;system(1)', 'PYTHONPATH=/tmp', 'ZDOTDIR=/tmp/z', '--rcfile', '<(echo', '-S', '-m', 'http.server', 'base64', '-jar', '-i', 'install', 'file:///home/dev/.ssh/id_rsa', '$(git ls-files)', '-empty', '-type', '--global', 'url.x.insteadOf', '.lo?m/policy.json', '> /tmp/sh', '-su', 's/x/y/e', '1e', 'env', '$ENV', '-n', '-a', '-t', '-C', ':::', '{}', 'clean.requireForce=false', 'gc.pruneExpire=now', '$GIT_OPTS', '--', '-rf', '-r', '-f', '--force', '--forc', '--force-w', '--mirr', '--delet', '--del', '--delete', '-d', '-D', '-df', '-fu', '-C', '-c', '-e', '-pe', '-le', '-Ic', '--eval=', '-exec', '-delete', '-name', '*', '.', '..', '/', '~', '~/', '/etc', '/dev/sda', 'of=/dev/sda', '.git', '.git/objects', '.loom', '.loom/compliance/ledger.db', '.claude', '.claude/settings.json', '.env', '.e?v', '.[e]nv', '~/.ss?/id_*', '~/.aws', 'main', 'origin', '+main', ':main', 'refs/heads/main', 'HEAD:.env', '@.env', 'f=@.env', '-T', '-R', '777', 'go+w', '-w', '000', 'a-rwx', '-9', '-1', '1', '-u', 'push', 'reset', '--hard', 'clean', 'reflog', 'expire', '--expire=now', 'filter-branch', 'update-ref', 'stash', '--all', 'show', 'gist', 'create', 'https://x.example/i.sh', '|', ';', '{}', '\\;', '+', 'C:\\', '$env:USERPROFILE', '-Recurse', '-Fo', '-EncodedCommand', 'UgBlAG0AbwB2AGUA', '/s', '/q', '/c', 'DELETE FROM records', 'select 1', '-readonly', '-cmd', '"', "'", '`', '(', ')', '[', ']', '{', '}', '\u0000', '\u202e', 'ä', '=', ':', '', ' ', '-X', '-x', '--', '--checkpoint-action=exec=', '-TT', '-oProxyCommand=', 'EXEC:', 'FILE:.env', 's/x/y/e', '=(', '$((', ') )', 'a[$(', ']=', '-P0', 'yes', 'inf', '/dev/fd/3', '3<<<', '$(<', 'BASH_ENV=', 'ATTACH', 'config[secret]=', '-m', 'zipfile', '--inplace', '-i', 'fetch', '+x:main', 'exec', 'generate', 'apply', '-chdir=', '--unregister', 'pkg', 'set', 'scripts.prepare=x', 'http://169.254.169.254/latest/meta-data/iam/security-credentials/', 'end', 'and', 'while', 'function', '--exec', '--startas', '--command=rm', 'enter', 'exec', '--filter=rm -rf ~', '--workspace-folder', 'ns/x', 'namespaces/x', "<<'EOF'\n*** Begin Patch\n*** Delete File: .loom/policy.json\n*** End Patch\nEOF", "<<< $'--- a/.claude/settings.json\\n+++ /dev/null\\n'", 'read', 'do', 'done', '&', '/dev/urandom', 'home-dir', 'os.remove.all(os.home)', 'shell', 'raw', 'file', 'state=absent', 'path=/home/dev', 'cmd.run', '!rm -rf ~', 'ssh', '>> ~/.bashrc', '> .git/hooks/pre-push', '#!/usr/bin/env python3', 'alias.x', "'!git log | head'", 'core.fsmonitor', 'true', 'credential.helper', 'conftest.py', 'jest.config.js', '1{s/.*/x/ep}', '/x/!{e rm -rf ~', 'state', 'rm', 'erase', 'recover', '--seq', 'journal.log', '$(find . -name journal.log)', '$(git ls-files -o -i)', '**/*.ts', '**/.loom', 'DROP /* x */ TABLE t', "SELECT 'DROP TABLE '", 'redis.call(\'flushall\')', 'can-i', '--purge', 'IFS=:', 'set --', '$*', '$@', '.Config.Env', '/run/secrets/x'];
const CODE = ['module.constructor._load(', 'createRequire(__filename)(', 's/.*/`x`/e', 'tell application "Finder" to delete ', 'path to home folder', 'every item of ', 'POSIX file "/"', 'System.user_home()', 'import os', 'import shutil as s', 'from shutil import rmtree as r', 'os.system(', 'subprocess.run([', 'shutil.rmtree(', "'rm -rf /'", '"rm -rf ~"', 'r(', 's.rmtree(', ')', '(', '[', ']', ',', ';', '\n', 'exec(', 'eval(', 'urlopen(', '.read()', "require('fs')", "require('child_process')", '.rmSync(', '.execSync(', '{recursive: true}', 'system', 'qx(', '`', '%x(', 'FileUtils.rm_rf', 'unlink', 'os.execute', "'.env'", "'.loom/compliance/ledger.db'", "open('.claude/settings.json','w')", 'print(', 'console.log(', 'f"{x}"', '`${x}`', '"#{x}"', '"$x"', 'x = ', "'''", '"""', '#', '//', '/*', '--[[', 'q{', 'qq(', 's/a/b/', '__import__("os")', "getattr(os, 'system')", 'base64.b64decode(', 'Buffer.from(', '\\', "'", '"'];
const LANGS: Language[] = ['python', 'node', 'perl', 'ruby', 'php', 'lua', 'r', 'applescript', 'tcl'];

export function fuzzOptions(): AnalyzeOptions {
  return { projectDir: '/home/dev/project', cwd: '/home/dev/project', home: '/home/dev', tmp: '/tmp', policy: loadPolicy(ROOT, '/home/dev/project'), protectedPaths: [join(ROOT, 'config')], currentBranch: 'main' };
}

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)];
}

function mutate(r: () => number, s: string): string {
  const k = r();
  if (k < 0.1) return s + s;
  if (k < 0.15) return s.slice(0, Math.floor(r() * s.length));
  if (k < 0.2) return s.toUpperCase();
  if (k < 0.25) return s.split('').reverse().join('');
  if (k < 0.28) return s.repeat(1 + Math.floor(r() * 50));
  return s;
}

export interface FuzzStats {
  inputs: number;
  slowest: { ms: number; input: string };
  failures: string[];
}

/** Runs `n` random inputs through the families; returns what threw and the slowest input. */
export function fuzzFamilies(seed: number, n: number, slowMs: number): FuzzStats {
  const r = rng(seed);
  const opts = fuzzOptions();
  const stats: FuzzStats = { inputs: 0, slowest: { ms: 0, input: '' }, failures: [] };
  const time = (input: string, f: () => void) => {
    const t0 = performance.now();
    try {
      f();
    } catch (e) {
      stats.failures.push(`${JSON.stringify(input).slice(0, 200)}: ${(e as Error).stack?.split('\n').slice(0, 3).join(' | ')}`);
    }
    const ms = performance.now() - t0;
    if (ms > stats.slowest.ms) stats.slowest = { ms, input: input.slice(0, 200) };
    if (ms > slowMs) stats.failures.push(`slow (${ms.toFixed(0)} ms): ${JSON.stringify(input).slice(0, 200)}`);
    stats.inputs++;
  };
  for (let i = 0; i < n; i++) {
    const kind = i % 4;
    if (kind === 0) {
      // argv straight into the rules (no lexer): every family sees shapes the lexer would never hand it.
      const argv = [pick(r, PROGRAMS), ...Array.from({ length: Math.floor(r() * 9) }, () => mutate(r, pick(r, TOKENS)))];
      time(argv.join(' '), () => {
        const a = new Analyzer(opts);
        const c: SimpleCommand = { words: argv.map((text) => ({ text, dynamic: r() < 0.05, quoted: r() < 0.5, glob: false })), assignments: [], redirects: [], pipeline: 0, stage: Math.floor(r() * 2), background: false };
        a.analyzeCommand(c, 0, 'fuzz', opts.cwd, [c, c], new Map());
      });
    } else if (kind === 1) {
      const line = Array.from({ length: 1 + Math.floor(r() * 12) }, () => mutate(r, r() < 0.2 ? pick(r, PROGRAMS) : pick(r, TOKENS))).join(r() < 0.8 ? ' ' : '');
      time(line, () => analyzeCommand(line, opts));
    } else if (kind === 2) {
      const lang = pick(r, LANGS);
      const code = Array.from({ length: 1 + Math.floor(r() * 30) }, () => mutate(r, pick(r, CODE))).join(r() < 0.5 ? '' : ' ');
      time(`${lang}: ${code}`, () => analyzeInterpreterCode(lang, code, { analyzer: new Analyzer(opts), cwd: opts.cwd, depth: 0, via: 'fuzz', segment: 'fuzz' }));
    } else {
      const line = Array.from({ length: 1 + Math.floor(r() * 10) }, () => mutate(r, pick(r, TOKENS))).join(pick(r, [' ', ';', '|', ' & ', '\n', '(', ')']));
      time(line, () => checkWindowsLine(new Analyzer(opts), line));
    }
  }
  return stats;
}

/** Hostile strings of growing size for the tables' regular expressions. */
export function regexInputs(size: number): string[] {
  return ['a'.repeat(size), '-'.repeat(size), 'a='.repeat(size / 2), '/dev/'.repeat(size / 5) + 'sd', '.env.'.repeat(size / 5), 'id_rsa_'.repeat(size / 7), ' '.repeat(size) + 'x', 'u+w,'.repeat(size / 4), '$env:'.repeat(size / 5), '\\'.repeat(size), 'irm '.repeat(size / 4), 'x'.repeat(size) + '!'];
}

export function tableRegexes(): [string, RegExp][] {
  const out: [string, RegExp][] = [];
  for (const [mod, m] of [['devices', devices], ['secrets', secrets], ['windows', windows]] as const) {
    for (const [k, v] of Object.entries(m)) {
      if (v instanceof RegExp) out.push([`${mod}.${k}`, v]);
      if (Array.isArray(v)) v.forEach((x, i) => x instanceof RegExp && out.push([`${mod}.${k}[${i}]`, x]));
      if (v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof RegExp)) for (const [kk, vv] of Object.entries(v)) if (vv instanceof RegExp) out.push([`${mod}.${k}.${kk}`, vv]);
    }
  }
  const g = globToRegExp('/home/dev/' + '*a'.repeat(30) + '*b');
  if (g) out.push(['globToRegExp(*a*a...*b)', g]);
  return out;
}
