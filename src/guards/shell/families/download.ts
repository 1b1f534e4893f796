// The download-and-run family: a program that fetches a URL (tables/programs.ts
// DOWNLOADERS) whose output becomes code for a shell or interpreter. Forms:
// piped (`curl | bash -s stable`, `| sh -s -- v2`, `| bash -c "$(cat)"`,
// `| python3 -c "exec(sys.stdin.read())"`), substituted (`eval "$(curl)"`,
// `bash -c "$(wget -qO-)"`), process substitution (`bash <(curl)`,
// `bash < <(curl)`), here-strings (`source /dev/stdin <<< "$(curl)"`), and a
// file downloaded then run on the same line (`curl -o i.sh URL && sh i.sh`).
import { posix } from 'node:path';
import type { Analyzer } from '../analyze';
import type { Word } from '../lexer';
import { resolveTarget } from '../path-rules';
import type { Rule, RuleContext } from '../rules';
import { own } from './args';
import { interpreterOf, isDownloader, isRunner, isShell, SHELL_OPTIONS_WITH_ARG } from '../tables/programs';
import { sedRunsInput } from '../escapes';

/** Wrappers skipped to find the program a pipeline stage really runs. */
const STAGE_WRAPPERS = new Set(['sudo', 'doas', 'env', 'command', 'exec', 'nice', 'time', 'nohup', 'stdbuf', 'ionice', 'timeout', 'builtin', 'su', 'runuser', 'busybox', 'toybox', 'unbuffer', 'setsid', 'chrt', 'taskset']);

export function innerName(words: Word[]): { name: string; args: string[]; start: number } {
  let k = 0;
  while (k < words.length && STAGE_WRAPPERS.has(posix.basename(words[k].text))) {
    const w = posix.basename(words[k].text);
    k++;
    while (k < words.length && (words[k].text.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[k].text))) {
      if (/^-[ugCpDrtTsk]$/.test(words[k].text) || words[k].text === '--user') k++;
      k++;
    }
    if (w === 'timeout' && k < words.length) k++;
  }
  return { name: words[k] ? posix.basename(words[k].text) : '', args: words.slice(k + 1).map((w) => w.text), start: k };
}

/** Code that reads its own program from stdin (`exec(sys.stdin.read())`, `eval(fs.readFileSync(0))`): a stdin read and an exec. */
const STDIN_TEXT = /\bstdin\b|\bSTDIN\b|readFileSync\(\s*0|<>|php:\/\/stdin|\bio\.read\b|\binput\(\)|\bgets\b/;
const EXEC_WORD = /\b(?:exec|eval|compile|Function|runInThisContext|instance_eval|loadstring|system|execSync|popen|spawn)\b|`/;
const READS_STDIN_CODE = { test: (code: string): boolean => STDIN_TEXT.test(code) && EXEC_WORD.test(code) };

/**
 * Whether a shell or interpreter invocation takes its program from stdin
 * (no script operand, `-s`, `-`, `/dev/stdin`), or runs code that comes
 * from outside the line (`-c "$(cat)"`, code reading stdin).
 */
export function programFromStdin(name: string, args: string[], words: Word[]): boolean {
  if (isShell(name) || name === 'source' || name === '.') {
    if (name === 'source' || name === '.') return args.length === 0 || args[0] === '/dev/stdin' || args[0] === '-' || args[0].startsWith('/dev/fd/') || args[0].startsWith('/proc/self/fd/');
    for (let k = 0; k < args.length; k++) {
      const a = args[k];
      if (a === '--' || a === '-') return true;
      if (SHELL_OPTIONS_WITH_ARG.includes(a)) {
        k++;
        continue;
      }
      if (/^[-+][A-Za-z]*s[A-Za-z]*$/.test(a)) return true;
      if (/^-[A-Za-z]*c[A-Za-z]*$/.test(a)) {
        const codeWord = words[k + 2];
        return codeWord !== undefined && (codeWord.dynamic || READS_STDIN_CODE.test(codeWord.text));
      }
      if (a.startsWith('-') || a.startsWith('+')) continue;
      return a === '/dev/stdin' || a.startsWith('/dev/fd/') || a.startsWith('/proc/self/fd/');
    }
    return true;
  }
  if (/^(?:pwsh|powershell)(?:\.exe)?$/i.test(name) || name === 'iex' || name === 'Invoke-Expression') return true;
  const spec = interpreterOf(name);
  if (!spec || spec.noStdinProgram) return false;
  if (spec.runSubcommand && args[0] === spec.runSubcommand) return args.slice(1).some((a) => a === '-' || a === '/dev/stdin');
  if (spec.evalSubcommand) return args[0] === spec.evalSubcommand && args.some((a) => READS_STDIN_CODE.test(a));
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    if (a === '-' || a === '/dev/stdin') return true;
    if (!a.startsWith('-')) return false;
    if (spec.codeLong.some((l) => a === l || a.startsWith(l + '='))) return READS_STDIN_CODE.test(a.includes('=') ? a : args[k + 1] ?? '') || (words[k + 2]?.dynamic ?? false);
    if (a.length > 1 && a[1] !== '-') {
      for (let i = 1; i < a.length; i++) {
        if (spec.codeShort.includes(a[i])) {
          const code = i + 1 < a.length ? a.slice(i + 1) : args[k + 1] ?? '';
          return READS_STDIN_CODE.test(code) || (i + 1 >= a.length && (words[k + 2]?.dynamic ?? false));
        }
        if (spec.moduleShort.includes(a[i])) return false;
        if (spec.argShort.includes(a[i])) {
          if (i + 1 >= a.length) k++;
          break;
        }
      }
    }
  }
  return true;
}

export function downloadRuns(a: Analyzer, segment: string, downloader: string, runner: string): void {
  a.hit('pipe-download-to-interpreter', 'deny', segment, `runs what ${downloader} downloads (fed to ${runner})`);
}

/** Whether an upstream pipeline stage reads from the network (a downloader, or a redirect from /dev/tcp). */
function upstreamDownload(r: RuleContext): string | undefined {
  for (const c of r.pipe) {
    if (c.stage >= r.cmd.stage) continue;
    const n = innerName(c.words).name;
    if (isDownloader(n) && isNetworkRead(n, c.words.map((w) => w.text))) return n;
    if (c.redirects.some((x) => /^\/dev\/(?:tcp|udp)\//.test(x.target.text))) return `${n} < /dev/tcp`;
  }
  return undefined;
}

/** Downloaders that are also everyday local tools only count when they read from another host. */
function isNetworkRead(name: string, argv: string[]): boolean {
  if (name === 'openssl') return argv.includes('s_client');
  if (name === 'git') return argv.includes('archive') && argv.some((a) => a.startsWith('--remote'));
  if (name === 'gh') return argv[1] === 'api' || (argv[1] === 'gist' && argv[2] === 'view') || (argv[1] === 'release' && argv[2] === 'download');
  if (name === 'aws' || name === 'gsutil' || name === 'gcloud' || name === 'az' || name === 's3cmd' || name === 'rclone') return argv.some((a) => a === '-' || /^(?:s3|gs|az):\/\//.test(a) || a === 'cat');
  if (name === 'scp' || name === 'rsync') return argv.some((a) => /^[^/\s]+:/.test(a));
  if (name === 'ssh') return true;
  return true;
}

const pipeToInterpreter: Rule = (r) => {
  if (r.cmd.stage === 0 && r.name !== 'sed' && r.name !== 'gsed') return;
  let { name, args, start } = innerName(r.words);
  // xargs / parallel hand the download to a runner: `| xargs -0 -I% bash -c %`, `| xargs sh -c`.
  if (name === 'xargs' || name === 'parallel') {
    let k = start + 1;
    while (k < r.words.length && r.words[k].text.startsWith('-')) {
      if (/^-[IdaLnPsEJ]$/.test(r.words[k].text) || ['--max-args', '--replace', '--delimiter', '--arg-file', '--max-procs'].includes(r.words[k].text)) k++;
      k++;
    }
    const inner = innerName(r.words.slice(k));
    if (!isRunner(inner.name)) return;
    const dl = upstreamDownload(r);
    if (dl) downloadRuns(r.analyzer, r.segment, dl, `${name} ${inner.name}`);
    return;
  }
  // GNU sed's `e` runs its input lines as commands (a known input is judged as a script by the escapes).
  if ((name === 'sed' || name === 'gsed') && sedRunsInput([name, ...args])) {
    const dl = r.cmd.stage > 0 ? upstreamDownload(r) : undefined;
    if (dl) downloadRuns(r.analyzer, r.segment, dl, `${name} e`);
    else if (r.stdin?.kind !== 'static') r.analyzer.hit('dynamic-command', 'ask', r.segment, `${name} e runs its input lines, only known at run time, as commands`);
    return;
  }
  if (r.cmd.stage === 0 || !isRunner(name)) return;
  const dl = upstreamDownload(r);
  if (dl && programFromStdin(name, args, r.words.slice(start))) downloadRuns(r.analyzer, r.segment, dl, name);
};

/** Whether the source of a substitution downloads (its program is a downloader, or it reads /dev/tcp). */
export function isDownloadSource(src: string): boolean {
  if (/\/dev\/(?:tcp|udp)\//.test(src)) return true;
  const words = src.trim().split(/\s+/);
  let k = 0;
  while (k < words.length && (STAGE_WRAPPERS.has(words[k]) || words[k].startsWith('-') || /^[A-Za-z_]\w*=/.test(words[k]))) k++;
  const name = posix.basename(words[k] ?? '');
  return isDownloader(name) && isNetworkRead(name, words.slice(k));
}

/** A shell or interpreter whose script comes from a substitution or a redirect fed by a download. */
const substitutedDownload: Rule = (r) => {
  if (!isRunner(r.name)) return;
  const hasProc = r.words.some((w) => w.text.startsWith('\u0000procsub'));
  const dynScript = r.words.some((w) => w.dynamic);
  const stdinFromSub = r.cmd.redirects.some((rd) => (rd.op === '<' || rd.op === '<<<' || rd.op === '<>') && (rd.target.dynamic || rd.target.text.startsWith('\u0000procsub')));
  if (!hasProc && !dynScript && !stdinFromSub) return;
  r.analyzer.markRunsSubstitution(r.segment, r.name);
};

/** Options naming the folder a downloader saves into. */
const DOWNLOAD_DIR_OPTIONS: Record<string, string[]> = { aria2c: ['-d', '--dir'], wget: ['-P', '--directory-prefix'], wget2: ['-P', '--directory-prefix'], curl: ['--output-dir'] };

// Files a downloader wrote earlier on the line (`curl -o i.sh URL && bash i.sh`).
const downloaded = new WeakMap<Analyzer, Set<string>>();
export const downloadedOnLine: { get(a: Analyzer): Set<string> | undefined } = downloaded;

function downloadTargets(r: RuleContext): string[] {
  const out: string[] = [];
  const argv = r.argv;
  const urls = argv.slice(1).filter((a) => /^[a-z][a-z0-9+.-]*:\/\//i.test(a));
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    if (a === '-o' || a === '--output' || a === '-O' && r.name === 'wget' || a === '--output-document' || a === '--out') out.push(argv[k + 1] ?? '');
    else if (a.startsWith('--output=') || a.startsWith('--output-document=') || a.startsWith('--out=')) out.push(a.slice(a.indexOf('=') + 1));
    else if (/^-[a-zA-Z]*o$/.test(a) && r.name === 'curl') out.push(argv[k + 1] ?? '');
    else if (/^-[a-zA-Z]*O$/.test(a) && r.name === 'wget') out.push(argv[k + 1] ?? '');
    else if (/^-[a-zA-Z]*o./.test(a) && r.name === 'curl') out.push(a.slice(a.indexOf('o') + 1));
    else if (/^-[a-zA-Z]*O./.test(a) && r.name === 'wget') out.push(a.slice(a.indexOf('O') + 1));
  }
  const remoteName = (r.name === 'curl' && r.argv.some((a) => /^-[a-zA-Z]*O[a-zA-Z]*$/.test(a) || a === '--remote-name' || a === '--remote-name-all')) || ((r.name === 'wget' || r.name === 'aria2c' || r.name === 'fetch' || r.name === 'axel') && out.length === 0);
  if (remoteName) for (const u of urls) out.push(posix.basename(u.replace(/[?#].*$/, '')) || 'index.html');
  // The folder the files go to: aria2c -d, wget -P, curl --output-dir.
  const dirOpt = DOWNLOAD_DIR_OPTIONS[r.name];
  let dir: string | undefined;
  if (dirOpt) for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    if (dirOpt.includes(a)) dir = argv[k + 1];
    else if (a.includes('=') && dirOpt.includes(a.slice(0, a.indexOf('=')))) dir = a.slice(a.indexOf('=') + 1);
    else if (dirOpt.some((o) => o.length === 2 && a.startsWith(o) && a.length > 2)) dir = a.slice(2);
  }
  if (dir) for (let i = 0; i < out.length; i++) if (!out[i].startsWith('/')) out[i] = posix.join(dir, out[i]);
  for (const rd of r.cmd.redirects) if ((rd.op === '>' || rd.op === '>>' || rd.op === '>|') && !rd.target.dynamic) out.push(rd.target.text);
  return out.filter((o) => o !== '' && o !== '-' && o !== '/dev/null' && o !== '/dev/stdout');
}

const downloadThenRun: Rule = (r) => {
  if (isDownloader(r.name) && isNetworkRead(r.name, r.argv) && !r.argv.includes('--help')) {
    const files = downloadTargets(r);
    if (files.length) {
      let set = downloaded.get(r.analyzer);
      if (!set) downloaded.set(r.analyzer, (set = new Set()));
      for (const f of files) set.add(resolveTarget(f, r.cwd).abs);
    }
    return;
  }
  const set = downloaded.get(r.analyzer);
  if (!set || set.size === 0) return;
  const direct = set.has(resolveTarget(r.argv[0], r.cwd).abs) && r.argv[0].includes('/');
  const viaRunner = isRunner(r.name) && r.argv.slice(1).some((a) => !a.startsWith('-') && set.has(resolveTarget(a, r.cwd).abs));
  if (direct || viaRunner) r.analyzer.hit('pipe-download-to-interpreter', 'deny', r.segment, 'runs a file downloaded earlier on the same line');
};

/**
 * Runners that fetch and run a program named by a URL in one step (`deno run https://…/x.ts`,
 * `uv run https://…/script.py`, `npx https://gist…`, `npx github:user/repo`): download and run.
 * Per runner (with its subcommand): the options that take a value, so the first operand is found.
 */
export const URL_RUNNERS: Record<string, { sub?: string; withArg: string[] }> = {
  deno: { sub: 'run', withArg: ['--config', '-c', '--import-map', '--lock', '--cert', '--location', '--seed', '--v8-flags', '--env-file', '--allow-read', '--allow-write', '--allow-net', '--allow-env', '--allow-run', '--allow-ffi', '--allow-sys'] },
  uv: { sub: 'run', withArg: ['--with', '--python', '-p', '--project', '--directory', '--env-file', '--index', '--index-url', '--extra-index-url', '--from'] },
  pipx: { sub: 'run', withArg: ['--spec', '--python', '--pip-args', '--index-url'] },
  bun: { sub: 'run', withArg: ['--cwd', '--env-file', '--preload', '-r'] },
  npx: { withArg: ['-p', '--package', '--registry', '--cache', '-c', '--call'] },
  bunx: { withArg: ['-p', '--package'] },
  pnpx: { withArg: [] },
  uvx: { withArg: ['--python', '-p', '--with', '--index', '--index-url'] },
  // helm plugin install URL runs the plugin's install hook; pre-commit try-repo URL runs its hooks.
  helm: { sub: 'plugin install', withArg: ['--version'] },
  'pre-commit': { sub: 'try-repo', withArg: ['--ref', '--rev', '-c', '--config', '--hook-stage'] },
  go: { sub: 'run', withArg: ['-C', '-tags', '-ldflags', '-gcflags', '-mod', '-o', '-p'] },
};
// A URL, a forge shorthand, a git+ URL, or a remote module at a version (`go run example.org/x@latest`).
const FETCHED_PROGRAM = /^(?:https?|ftp):\/\/|^(?:github|gitlab|bitbucket|gist):[\w.-]+\/|^git\+(?:https?|ssh|git):\/\/|^[a-z0-9-]+(?:\.[a-z0-9-]+)+\/[\w.\/-]+@[\w.+-]+$/i;

const runsUrl: Rule = (r) => {
  const spec = own(URL_RUNNERS, r.name);
  if (!spec) return;
  let k = 1;
  if (spec.sub) {
    while (k < r.argv.length && r.argv[k].startsWith('-')) k++;
    const sub = spec.sub.split(' ');
    if (!sub.every((w, i) => r.argv[k + i] === w)) return;
    k += sub.length;
  }
  for (; k < r.argv.length; k++) {
    const a = r.argv[k];
    if (a === '--') continue;
    if (a.startsWith('-')) {
      // --spec URL (pipx), -p URL (npx): the package itself is fetched from there.
      if (/^(?:--spec|--package|-p|--from)$/.test(a) && FETCHED_PROGRAM.test(r.argv[k + 1] ?? '')) break;
      if (spec.withArg.includes(a)) k++;
      continue;
    }
    if (FETCHED_PROGRAM.test(a)) break;
    return;
  }
  if (k < r.argv.length) r.analyzer.hit('pipe-download-to-interpreter', 'deny', r.segment, `${r.name} fetches a program from a URL and runs it`);
};
runsUrl.names = Object.keys(URL_RUNNERS);

/**
 * Programs that run code from a file or folder they are handed, so a download handed to them is the
 * download run (`curl -o x.deb URL && dpkg -i x.deb`, `git clone URL d && make -C d`). Per program:
 * `flags`, options whose value (the next word, or after `=`) is what runs; `action`, a word that makes
 * every operand after it run (`dpkg -i`, `pip install`); `operands`, every operand runs (`insmod`); `inFolder`, the program runs what the folder
 * it works in holds (make's Makefile).
 */
export const FILE_RUNNERS: Record<string, { flags?: string[]; action?: RegExp; operands?: true; inFolder?: boolean }> = {
  java: { flags: ['-jar', '-cp', '-classpath', '--class-path', '-javaagent'] },
  dpkg: { action: /^(?:-i|--install|-[a-zA-Z]*i[a-zA-Z]*)$/ },
  apt: { action: /^(?:install|reinstall)$/ },
  'apt-get': { action: /^(?:install|reinstall)$/ },
  rpm: { action: /^(?:-[a-zA-Z]*[iUF][a-zA-Z]*|--install|--upgrade|--freshen)$/ },
  dnf: { action: /^(?:install|reinstall|localinstall|upgrade)$/ },
  yum: { action: /^(?:install|reinstall|localinstall|upgrade)$/ },
  zypper: { action: /^(?:install|in)$/ },
  pip: { action: /^install$/ },
  pip3: { action: /^install$/ },
  npm: { action: /^(?:install|i|add|exec)$/ },
  pnpm: { action: /^(?:install|i|add|exec)$/ },
  yarn: { action: /^add$/ },
  bun: { action: /^(?:install|i|add)$/ },
  insmod: { operands: true },
  modprobe: { operands: true },
  make: { flags: ['-C', '--directory', '-f', '--file', '--makefile'], inFolder: true },
  gmake: { flags: ['-C', '--directory', '-f', '--file', '--makefile'], inFolder: true },
  cmake: { flags: ['-S', '-P', '-C'] },
  'ansible-playbook': { operands: true },
  vagrant: { action: /^up$/, inFolder: true },
};

/** Environment variables that make any program load code from the file they name. */
const LOADER_VARIABLES = new Set(['LD_PRELOAD', 'LD_AUDIT', 'DYLD_INSERT_LIBRARIES', 'BASH_ENV', 'ENV', 'PYTHONSTARTUP', 'NODE_OPTIONS', 'PERL5OPT', 'RUBYOPT']);

const runsFetchedFile: Rule = (r) => {
  if (!r.fetchedBy) return;
  const fetched = (p: string | undefined) => (p && !p.includes('\u0000') ? r.fetchedBy!(p) : undefined);
  let by: string | undefined;
  // LD_PRELOAD=./x.so ls, env LD_PRELOAD=... ls, NODE_OPTIONS='--require ./x.js' node
  const assigned = [...r.cmd.assignments.map((a) => [a.name, a.value.text] as const), ...(r.name === 'env' ? r.argv.slice(1).filter((a) => /^[A-Za-z_]\w*=/.test(a)).map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] as const) : [])];
  for (const [name, value] of assigned) if (LOADER_VARIABLES.has(name)) for (const part of value.split(/[\s:=]+/)) by ??= fetched(part);
  const spec = own(FILE_RUNNERS, r.name);
  if (spec && !by) {
    const argv = r.argv;
    let acting = spec.operands === true;
    for (let k = 1; k < argv.length && !by; k++) {
      const a = argv[k];
      const eq = a.indexOf('=');
      if (spec.flags?.includes(a)) by = fetched(argv[++k]);
      else if (eq > 0 && a.startsWith('--') && spec.flags?.includes(a.slice(0, eq))) by = fetched(a.slice(eq + 1));
      else if (a.startsWith('-javaagent:')) by = fetched(a.slice(11).split('=')[0]);
      else if (spec.action && !acting && spec.action.test(a)) acting = true;
      else if (acting && !a.startsWith('-')) by = fetched(a);
    }
    if (!by && spec.inFolder) by = fetched('.');
  }
  if (by) r.analyzer.hit('pipe-download-to-interpreter', 'deny', r.segment, `${r.name} runs what ${by} fetched earlier on the line`);
};

export const DOWNLOAD_RULES: Rule[] = [pipeToInterpreter, substitutedDownload, downloadThenRun, runsUrl, runsFetchedFile];
