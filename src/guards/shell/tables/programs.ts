// Which programs download, which run code, and how each interpreter takes
// its code on the command line. Tables only.

/** Programs that fetch a URL (their output may be a script). */
export const DOWNLOADERS = ['curl', 'wget', 'wget2', 'fetch', 'ftp', 'aria2c', 'http', 'https', 'xh', 'xhs', 'httpie', 'lwp-request', 'GET', 'POST', 'lynx', 'w3m', 'links', 'elinks', 'curlie', 'axel', 'tftp', 'Invoke-WebRequest', 'iwr', 'Invoke-RestMethod', 'irm', 'curl.exe', 'wget.exe', 'certutil', 'bitsadmin', 'Start-BitsTransfer', 'nc', 'ncat', 'netcat', 'socat', 'telnet', 'openssl', 'scp', 'ssh', 'rsync', 'tftp', 'gh', 'aws', 'gsutil', 'gcloud', 'az', 's3cmd', 'rclone', 'git'];
/** Downloaders whose output is only a download when they read from the network (openssl s_client, ssh host cat, aws s3 cp - ...): judged by the rules, listed for the piping check. */

/** POSIX shells: `-c` takes a script, otherwise the first operand is a script file, or stdin. */
export const SHELLS = ['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'fish', 'tcsh', 'csh', 'rbash', 'posh', 'busybox', 'osh', 'loksh', 'oksh', 'ksh93', 'pdksh'];

/** Shell options that take the next word as their argument (`bash -o pipefail`, `--rcfile f`). */
export const SHELL_OPTIONS_WITH_ARG = ['-o', '+o', '-O', '+O', '--rcfile', '--init-file'];

export type Language = 'python' | 'node' | 'perl' | 'ruby' | 'php' | 'lua' | 'powershell' | 'applescript' | 'r' | 'tcl' | 'julia';

export interface InterpreterSpec {
  lang: Language;
  /** Program names (matched exactly, after the version suffix rule below). */
  names: string[];
  /** Options whose value is code (`-c`, `-e`, `--eval`). A cluster ending in one of these letters takes the code next. */
  codeShort: string;
  codeLong: string[];
  /** Short options that take an argument (rest of the cluster, or the next word). */
  argShort: string;
  argLong: string[];
  /** Options after which the program runs a module or file, not code from stdin (`python -m`). */
  moduleShort: string;
  /** A first operand that is a subcommand taking code (`deno eval CODE`). */
  evalSubcommand?: string;
  /** A first operand that runs a script operand, read from stdin when that operand is `-` (`deno run -A -`, `bun run -`). */
  runSubcommand?: string;
  /** Never reads its program from stdin (rake runs tasks by name; only its code options take Ruby). */
  noStdinProgram?: boolean;
}

export const INTERPRETERS: InterpreterSpec[] = [
  { lang: 'python', names: ['python', 'python2', 'python3', 'pypy', 'pypy3', 'py', 'python3w', 'ipython', 'ipython3', 'sage'], codeShort: 'c', codeLong: ['--command'], argShort: 'WXQ', argLong: ['--check-hash-based-pycs'], moduleShort: 'm' },
  { lang: 'node', names: ['node', 'nodejs', 'tsx', 'ts-node', 'esno', 'esr'], codeShort: 'ep', codeLong: ['--eval', '--print'], argShort: 'rC', argLong: ['--require', '--import', '--loader', '--experimental-loader', '--input-type', '--conditions', '--env-file', '--title', '--cwd', '--preload', '--config', '--tsconfig'], moduleShort: '' },
  { lang: 'node', names: ['bun'], codeShort: 'ep', codeLong: ['--eval', '--print'], argShort: 'rC', argLong: ['--require', '--import', '--preload', '--config', '--tsconfig', '--cwd', '--env-file'], moduleShort: '', runSubcommand: 'run' },
  { lang: 'node', names: ['deno'], codeShort: '', codeLong: [], argShort: '', argLong: ['--config', '--import-map', '--location', '--cert', '--seed'], moduleShort: '', evalSubcommand: 'eval', runSubcommand: 'run' },
  { lang: 'perl', names: ['perl', 'perl5'], codeShort: 'eE', codeLong: [], argShort: 'IMmxCDFd', argLong: [], moduleShort: '' },
  { lang: 'ruby', names: ['ruby', 'jruby', 'truffleruby', 'irb', 'pry'], codeShort: 'e', codeLong: [], argShort: 'rICEFTx', argLong: ['--encoding', '--external-encoding', '--internal-encoding', '--enable', '--disable', '--dump'], moduleShort: '' },
  // rake's own options: -e/-E/-p run Ruby code with rake's DSL loaded (`sh`, `FileUtils.rm_rf`).
  { lang: 'ruby', names: ['rake'], codeShort: 'eEp', codeLong: ['--execute', '--execute-continue', '--execute-print'], argShort: 'fCIrRjg', argLong: ['--rakefile', '--directory', '--libdir', '--require', '--rakelibdir', '--jobs', '--job-stats'], moduleShort: '', noStdinProgram: true },
  { lang: 'php', names: ['php', 'php-cli', 'php7', 'php8'], codeShort: 'rBRE', codeLong: ['--run', '--process-begin', '--process-code', '--process-end'], argShort: 'dcfFtz', argLong: ['--define', '--php-ini', '--file', '--process-file', '--docroot', '--zend-extension'], moduleShort: '' },
  { lang: 'lua', names: ['lua', 'luajit', 'lua5.1', 'lua5.2', 'lua5.3', 'lua5.4', 'texlua'], codeShort: 'e', codeLong: [], argShort: 'l', argLong: [], moduleShort: '' },
  { lang: 'applescript', names: ['osascript'], codeShort: 'e', codeLong: [], argShort: 'lsi', argLong: [], moduleShort: '' },
  { lang: 'r', names: ['Rscript', 'R'], codeShort: 'e', codeLong: ['--expr'], argShort: '', argLong: [], moduleShort: '' },
  { lang: 'tcl', names: ['tclsh', 'wish'], codeShort: 'c', codeLong: [], argShort: '', argLong: [], moduleShort: '' },
  { lang: 'julia', names: ['julia'], codeShort: 'e', codeLong: ['--eval'], argShort: 'JLCtp', argLong: ['--project', '--threads', '--sysimage', '--load'], moduleShort: '' },
];

/** Options of Perl and Ruby that take the rest of their cluster as an optional value (`-i.bak`, `-0777`, `-l`). */
export const CLUSTER_TAIL = { perl: { i: 'any', '0': 'octal', l: 'octal', C: 'digits' }, ruby: { i: 'any', '0': 'octal', l: '', W: 'digits', K: 'any' } } as const;

const byName = new Map<string, InterpreterSpec>();
for (const s of INTERPRETERS) for (const n of s.names) byName.set(n, s);

/** The interpreter a program name runs (`python3.12`, `/usr/bin/node`, `node20`, `php8.2`). */
const seen = new Map<string, InterpreterSpec | null>();

/**
 * Python's standard modules that are command-line tools (`python3 -m MODULE ARGS`): per module and option, the
 * shell command it amounts to (its operands follow), so the same rules judge it.
 */
export const PYTHON_MODULE_COMMANDS: Record<string, Record<string, string[]>> = {
  zipfile: { '-c': ['zip', '-r'], '--create': ['zip', '-r'], '-e': ['unzip', '-o', '-d'], '--extract': ['unzip', '-o', '-d'] },
  tarfile: { '-c': ['tar', '-cf'], '--create': ['tar', '-cf'], '-e': ['tar', '-xf'], '--extract': ['tar', '-xf'] },
  shutil: {},
  'http.server': { '--directory': ['python-http-server'], '-d': ['python-http-server'] },
};

export function interpreterOf(name: string): InterpreterSpec | undefined {
  const exact = byName.get(name);
  if (exact) return exact;
  let found = seen.get(name);
  if (found === undefined) {
    const m = /^([A-Za-z]+?)(?:-?\d+(?:\.\d+)*)?(?:\.exe)?$/.exec(name);
    found = (m && byName.get(m[1])) || null;
    if (seen.size > 1024) seen.clear();
    seen.set(name, found);
  }
  return found ?? undefined;
}

const DOWNLOADER_SET = new Set(DOWNLOADERS.map((d) => d.toLowerCase()));
const SHELL_SET = new Set(SHELLS);
export const isDownloader = (name: string): boolean => DOWNLOADER_SET.has(name.toLowerCase());
export const isShell = (name: string): boolean => SHELL_SET.has(name);
/** Programs that run the code they are given: shells, interpreters, PowerShell, `source`, `eval`. */
const OTHER_RUNNERS = new Set(['pwsh', 'powershell', 'powershell.exe', 'pwsh.exe', 'iex', 'Invoke-Expression', 'source', '.', 'eval']);
export const isRunner = (name: string): boolean => SHELL_SET.has(name) || OTHER_RUNNERS.has(name) || interpreterOf(name) !== undefined;
