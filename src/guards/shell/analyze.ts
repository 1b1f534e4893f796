// How the shell guard sees a command: tokenize and parse it as bash does,
// then walk it as bash would run it, knowing what ran before on the line
// (variables, cd, functions, aliases, `set --`, loop variables, files just
// written), expanding each word at that moment. Every simple command found,
// however it is reached (wrappers from the table in wrappers.ts, `bash -c`,
// eval, substitutions, text piped or here-stringed into a shell or an
// interpreter, a script written and then run), goes through every rule.
// Each hit names its rule, the action the policy gives it, and the part of
// the command that hit. Depth and work are bounded.
import { posix } from 'node:path';
import type { Decision } from '../../contract/types';
import { actionFor, type Policy } from '../../policy/policy';
import { customRuleHits } from './custom-rules';
import { concatFeeds, downloadedFiles, DOWNLOADERS, NONE, outputOf, printfOut, type Feed } from './feed';
import { downloadedOnLine } from './families/download';
import { globMatch } from './glob';
import { arrayAssocOf, arrayKeysOf, arrayValuesOf, bashOrder, subscriptKey } from './arrays';
import { ansiCWord, expandWord, findSubs, matchParen, plainWord, Lexer, scanState, skipBacktick, SPLIT, type LexContext, type SimpleCommand, type Sub, type Word } from './lexer';
import { parse, type Node, type RedirNode } from './parse';
import { FILE_DESTROYERS, judgeFindDeletes, listsEveryTrackedFile } from './families/delete';
import { arithLoopPasses, forkingCycle, loopPasses, waitsIn } from './families/fork-graph';
import { scanForeignCode } from './families/foreign-code';
import { ENDLESS_DEVICE, endlessOutput, HUGE_LOOP_COUNT } from './tables/fork';
import { listsEveryProcess } from './families/disk';
import { deletesPath, destroysFile, isBlockDevice, readsPath, within, writesPath } from './path-rules';
import { checkWindowsLine, RULES, WINDOWS_HINT, type RuleContext } from './rules';
import { isShellCodeGenerator } from './tables/generators';
import { DISK_ERASERS } from './tables/devices';
import { interpreterOf, PYTHON_MODULE_COMMANDS } from './tables/programs';
import { own } from './families/args';
import { isDownloadSource } from './families/download';
import { LOOM_PACKAGE } from './tables/paths';
import { DELETING_PACKAGES, keysToText, packageCommand, unwrapArgv, wrappedCwd } from './wrappers';
import { clip } from '../../util/clip';
import { patchProgram } from './patch-commands';
import { patchEffects } from '../../contract/tools';
import { debuggerCommandLaunches, exCommandLaunches, launchesOf, recipeScript, shq, tclLaunches, type Launch } from './launchers';
import { expandRecipeDirs, programEscapes } from './escapes';
import { awkCommands as awkCommandsOf } from './awk';
import { fishToPosix } from './fish';
import { analyzeInterpreterCode, analyzeIpythonCode } from './families/interpreters';
import { COST, overBudget, work, WORK_BUDGET } from './work';
import { ScopeMap } from './scope';
import { DEFAULT_PATH_DIRS } from './tables/paths';
import { ENV_CODE, ENV_LOADERS_OF_CODE, envAssignment, exportedFunctionName } from './tables/env-code';
import { gitConfigKey, gitConfigWrites, gitKeyIn, pushToNewPlace, pushWithConfig, storedPushConfig } from './families/git';
import { GIT_COMMAND_URL_PREFIXES, GIT_EXT_ALLOW, GIT_FETCHING_SUBS, GIT_GLOBAL_WITH_ARG, GIT_LINE_CONFIG_KEYS, GIT_LINE_CONFIG_MAX, GIT_OPTIONS } from './tables/git';

export const MAX_DEPTH = 8;
export const MAX_COMMAND_LENGTH = 256 * 1024;
/** Simple commands one analysis may visit (loops and functions multiply them). */
const MAX_VISITS = 4000;
/** Values a `for` loop is analysed with. */
const MAX_LOOP_VALUES = 16;
/** Loop-body walks one analysis may make in all. */
const MAX_LOOP_WALKS = 96;
/** A command whose redirected output is nothing: `> f`, `: > f`, `true > f`, `cat /dev/null > f`. */
function emptiesFile(c: SimpleCommand): boolean {
  const argv = c.words.map((w) => w.text);
  if (argv.length === 0) return true;
  const [name, ...args] = argv;
  if (args.length === 0 && (name === ':' || name === 'true' || name === 'false' || name === 'echo')) return true;
  if (name === 'cat') return args.length > 0 && args.every((x) => x === '/dev/null');
  // `printf ''`, `echo -n ""`, `echo ''`: nothing (or one newline) is written.
  if (name === 'printf') return args.length > 0 && args[0] === '' || args[0] === '--' && args[1] === '';
  if (name === 'echo') return args.every((x) => x === '' || /^-[neE]+$/.test(x));
  // `head -c 0 /dev/zero`, `tail -n0 f`: no byte of the input is kept.
  if (name === 'head' || name === 'tail') return args.some((x, i) => /^(?:-[cn]0+|--(?:bytes|lines)=0+)$/.test(x) || (/^-[cn]$|^--(?:bytes|lines)$/.test(x) && /^0+$/.test(args[i + 1] ?? '')));
  return false;
}

/** Wrappers around one command (`sudo env nice timeout ...`): each is a level of the walk's recursion. */
const MAX_WRAP_DEPTH = 4 * MAX_DEPTH;
/** Entries of the `pushd` stack kept. */
const MAX_DIR_STACK = 64;
/** Source characters one analysis may read in all (nested scripts included). */
const MAX_SOURCE_TOTAL = 4 * MAX_COMMAND_LENGTH;

export interface Hit {
  rule: string;
  action: Decision;
  segment: string;
  detail: string;
}

export interface FoundCommand {
  argv: string[];
  depth: number;
  via: string;
}

export interface Analysis {
  decision: Decision;
  hits: Hit[];
  commands: FoundCommand[];
  reason: string;
}

export interface AnalyzeOptions {
  projectDir: string;
  cwd: string;
  home: string;
  tmp: string;
  policy: Policy;
  /** Pack root and loom state dirs, protected from modification. */
  protectedPaths: string[];
  /** Current branch of the project, when known (for pushes without a refspec). */
  currentBranch?: string;
}

/** What the walk knows at a point of the line, as bash would. */
export interface Env {
  vars: Map<string, string>;
  positional?: string[];
  /** `$0`: the name a `sh -c` was given after its text (else the shell's own), when known. */
  arg0?: string;
  funcs: Map<string, Node>;
  aliases: Map<string, string>;
  cwd: string;
  oldpwd?: string;
  dirStack: string[];
  /** Files written earlier on the line (absolute path), with what was written. */
  files: Map<string, Feed>;
  /** Bodies of the functions being called: a body already on the stack is recursion (a name is not: `f(){ f(){ ...; }; f; }` redefines f and runs the new body). */
  calls: Node[];
  /** Other folders the walk may be in: a `cd` whose failure does not stop what follows leaves the shell where it was. */
  cwdAlts?: string[];
  /** Other values a variable may hold: one set in a branch that may not run keeps its old value there (undefined: only known at run time). */
  varAlts?: { name: string; value: string | undefined }[];
  /** Input descriptors opened by `exec 3<<<text` / `exec 3< file` earlier on the line. */
  fds?: Map<number, Feed>;
}

export interface RunIO {
  stdin: Feed;
  env?: Env;
  /** Output of each process substitution word of the command being run. */
  procsubs?: Map<Word, Feed>;
  /** Reached through a package runner (npx): package commands are mapped. */
  viaPackageRunner?: boolean;
  /** What each input descriptor reads (`bash /dev/fd/3 3<<<text`). */
  fds?: Map<number, Feed>;
}

interface PipeCtx {
  pipe: SimpleCommand[];
  pipeline: number;
  stage: number;
  bg: boolean;
}

const RANK: Record<Decision, number> = { allow: 0, ask: 1, deny: 2 };
/** Functions the shell calls by itself: command_not_found_handle (bash), command_not_found_handler (zsh), precmd/preexec (zsh). */
const SELF_CALLED_FUNCTIONS = ['command_not_found_handle', 'command_not_found_handler', 'precmd', 'preexec', 'chpwd', 'TRAPEXIT', 'TRAPERR', 'TRAPDEBUG', 'TRAPZERR'];
/** A function name as bash reads it: `$'\x3a'` and quotes removed (`$'\x3a'(){ :|:& };:` defines `:`). */
const functionName = (w: string): string => w.replace(/\$'((?:[^'\\]|\\.)*)'/g, (_m, b: string) => ansiCWord(b)).replace(/'([^']*)'|"([^"$`\\]*)"|\\(.)/g, (_m, a, b, c) => a ?? b ?? c);
export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'yash', 'posh', 'fish', 'rbash', 'tcsh', 'csh', 'osh', 'loksh', 'oksh', 'ksh93', 'pdksh']);
const INTERPRETERS: Record<string, string[]> = {
  python: ['-c'], python3: ['-c'], python2: ['-c'], node: ['-e', '--eval', '-p', '--print'], nodejs: ['-e'], perl: ['-e', '-E'], ruby: ['-e'], php: ['-r'], deno: ['eval'], bun: ['-e', '--eval'],
};
const STDIN_PATHS = new Set(['-', '/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);
/** Names a glob in a command name is matched against (`/bin/r?` is rm). */
const DANGEROUS_NAMES = ['rm', 'rmdir', 'unlink', 'shred', 'dd', 'mkfs', 'mke2fs', 'mkswap', 'wipefs', 'fdisk', 'sfdisk', 'parted', 'chmod', 'chown', 'chgrp', 'find', 'git', 'curl', 'wget', 'bash', 'sh', 'zsh', 'dash', 'ksh', 'python', 'python3', 'perl', 'ruby', 'node', 'sudo', 'doas', 'su', 'mv', 'cp', 'rsync', 'tee', 'truncate', 'sqlite3', 'kill', 'pkill', 'killall', 'eval', 'xargs', 'env', 'shutdown', 'reboot', 'halt', 'poweroff', 'base64', 'cat', 'scp', 'nc', 'tar'];

/** Lexer errors that are only a quote left open at the end of the text. */
/** Names a glob in a command name is matched against: the dangerous programs and every disk eraser's spelling (mkfs.ext4). */
const GLOB_CANDIDATES = [...new Set([...DANGEROUS_NAMES, ...DISK_ERASERS, ...['ext2', 'ext3', 'ext4', 'xfs', 'btrfs', 'vfat', 'fat', 'ntfs', 'exfat', 'f2fs', 'msdos'].map((f) => `mkfs.${f}`), 'dcfldd', 'dc3dd', 'blkdiscard', 'srm', 'wipe'])];
const QUOTE_ONLY = /^unterminated ["']$/;

export { quoteArgv } from './quote-argv';
import { quoteArgv } from './quote-argv';
import { diskScript, isShellScript, scriptLanguage } from './disk-scripts';

const lit = (text: string): Word => ({ text, dynamic: false, quoted: false, glob: false });

/** Sets a variable as an assignment does: unknown values unset it (run-time), arrays keep their elements. */
/** Alternative folders kept per walk: each doubles the work of every later command. */
const MAX_CWD_ALTS = 4;

/** The walk may be in `dir` as well as where it thinks it is (a cd that may have failed). */
function mayStayIn(env: Env, dir: string): void {
  if (dir === env.cwd || env.cwdAlts?.includes(dir)) return;
  const alts = env.cwdAlts ?? [];
  if (alts.length < MAX_CWD_ALTS) env.cwdAlts = [...alts, dir];
}

/** Options of `deno run` that take the next word as their value. */
const DENO_RUN_ARG_OPTIONS = ['--config', '-c', '--import-map', '--location', '--cert', '--seed'];

/**
 * The fields `read` assigns to `n` names, as bash splits a line: IFS white space runs and single other IFS
 * characters end a field; the last name takes the rest of the line, less trailing IFS white space.
 */
export function readFields(text: string, ifs: string, n: number): string[] {
  const isWs = (c: string) => (c === ' ' || c === '\t' || c === '\n') && ifs.includes(c);
  const isIfs = (c: string) => ifs.includes(c);
  const out: string[] = [];
  let i = 0;
  while (i < text.length && isWs(text[i])) i++;
  for (let f = 0; f < n - 1 && i < text.length; f++) {
    const start = i;
    while (i < text.length && !isIfs(text[i])) i++;
    out.push(text.slice(start, i));
    while (i < text.length && isWs(text[i])) i++;
    if (i < text.length && isIfs(text[i]) && !isWs(text[i])) i++;
    while (i < text.length && isWs(text[i])) i++;
  }
  let end = text.length;
  while (end > i && isWs(text[end - 1])) end--;
  let rest = text.slice(i, end);
  // One field and one delimiter left (`a,b,` into two names): bash drops that delimiter; more stay (`b,,`).
  let j = 0;
  while (j < rest.length && !isIfs(rest[j])) j++;
  if (j < rest.length) {
    let k = j;
    while (k < rest.length && isWs(rest[k])) k++;
    if (k < rest.length && isIfs(rest[k]) && !isWs(rest[k])) k++;
    while (k < rest.length && isWs(rest[k])) k++;
    if (k === rest.length) rest = rest.slice(0, j);
  }
  if (i < text.length || out.length < n) out.push(rest);
  return out;
}

/** A state the walk may be in instead: another folder, or a variable's other value. */
type Alt = { cwd: string } | { name: string; value: string | undefined };

function applyAlt(env: Env, a: Alt): void {
  if ('cwd' in a) mayStayIn(env, a.cwd);
  else mayHold(env, a.name, a.value);
}

/** A variable may also hold `value` (a branch that set it may not have run). */
function mayHold(env: Env, name: string, value: string | undefined): void {
  const alts = env.varAlts ?? [];
  if (alts.some((a) => a.name === name && a.value === value) || alts.length >= MAX_CWD_ALTS * 2) return;
  env.varAlts = [...alts, { name, value }];
}

/** A `cd` to a folder that always exists (`cd`, `cd ..`, `cd /`, `cd ~`): its failure is not a way to stay put. */
function cdCannotFail(node: Node, home: string): boolean {
  if (node.t !== 'cmd' || (node.words[0] !== 'cd' && node.words[0] !== 'pushd') || node.redirs.length) return false;
  const args = node.words.slice(1).filter((w) => w !== '--' && !/^-[LPe@]+$/.test(w));
  return args.length === 0 || (args.length === 1 && ['/', '.', '..', '~', '~/', '$HOME', '"$HOME"', '${HOME}', '"${HOME}"', home].includes(args[0]));
}

/** Where a variable's case attribute (declare -l / -u) is kept among the variables: no name holds this character. */
const CASE_ATTR = '\u0002case:';
/** Programs xargs feeds that are judged by what feeds them (its paths, its pids), not as a command with unknown arguments. */
const XARGS_DELETERS = Object.keys(FILE_DESTROYERS);
const XARGS_SIGNALLERS = ['kill', 'pkill'];
/** `declare -n R=NAME` before NAME is set: R follows NAME's later assignments (bash resolves a nameref when it is used). */
const NAMEREF_OF = '\u0002nameref:';

/** A value as a variable with a case attribute stores it. */
function casedValue(env: Env, name: string, text: string): string {
  const attr = env.vars.get(CASE_ATTR + name);
  return attr === 'l' ? text.toLowerCase() : attr === 'u' ? text.toUpperCase() : text;
}

function setVar(env: Env, name: string, value: Word): void {
  // Set for sure: what it may have held before no longer matters.
  if (env.varAlts?.some((a) => a.name === name)) env.varAlts = env.varAlts.filter((a) => a.name !== name);
  env.vars.delete(arrayValuesOf(name));
  env.vars.delete(arrayKeysOf(name));
  if (value.dynamic) env.vars.delete(name);
  else {
    env.vars.set(name, casedValue(env, name, value.text));
    if (value.array) env.vars.set(arrayValuesOf(name), value.array.join(SPLIT));
    if (value.array && value.arrayKeys) env.vars.set(arrayKeysOf(name), value.arrayKeys.join(SPLIT));
  }
  const refs = env.vars.get(NAMEREF_OF + name);
  if (refs) for (const ref of refs.split(',')) if (ref !== name) setVar(env, ref, value);
}

/** Builtins whose arguments become environment variables (a substitution's output loaded, not shown). */
const ENV_LOADERS = new Set(['export', 'declare', 'typeset', 'readonly', 'local']);

/**
 * Whether every run-time part of a word is one of its `$(...)` substitutions, in order: no
 * variable, `${...}`, arithmetic or backtick could have left a placeholder of its own.
 */
function onlySubsAreRuntime(w: Word): boolean {
  let rest = w.raw ?? '';
  for (const sub of w.subs ?? []) {
    if (sub.kind !== '$(') return false;
    const at = rest.indexOf(`$(${sub.src})`);
    if (at < 0) return false;
    rest = rest.slice(0, at) + rest.slice(at + sub.src.length + 3);
  }
  return !/[$`]/.test(rest);
}

/**
 * Whether a script starts itself again without waiting: its own name (`$0`, `$BASH_SOURCE`, the path it was
 * run by) or its own text (`bash -c "$BASH_EXECUTION_STRING"`) run in the background or in a pipe.
 */
export function spawnsItself(text: string, path?: string): boolean {
  if (text.length > 64 * 1024) return false;
  const names = ['\\$0', '\\$\\{0\\}', '\\$\\{?BASH_SOURCE(?:\\[0\\])?\\}?', '\\$\\{?BASH_EXECUTION_STRING\\}?'];
  // The script by the path it was run with, by its name, or as ./name.
  if (path) for (const p of new Set([path, posix.basename(path), './' + posix.basename(path)])) names.push(p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const self = `["']?(?:${names.join('|')})["']?`;
  // The reference as the command (or a shell's script operand), then `&` or `|` before the statement ends.
  const re = new RegExp(`(?:^|[;&|({\\n]|\\b(?:then|do|else))\\s*(?:(?:exec\\s+)?(?:ba|da|k|z)?sh\\s+(?:-c\\s+)?)?${self}[^;&|\\n]{0,200}(?:&(?!&)|\\|(?!\\|))`);
  return re.test(text);
}

export class Analyzer {
  /** Above 0 while the words of `export`/`declare` are expanded: an env file read there is loaded, not shown. */
  loadingEnv = 0;
  /** A secret file (.env) was loaded into the environment earlier on the line: its variables are secrets where they are sent. */
  secretsLoaded = false;
  /** The line writes a package.json (sed -i, jq > + mv, an interpreter): with loom's package name on the line, it removes loom. */
  packageJsonWritten = false;
  /** Files this line filled with the whole environment (`env > e.txt`): sending one sends every token. */
  readonly envFiles = new Set<string>();
  /** The raw words of each stage of the pipeline being walked (what later stages do with a stage's output). */
  pipeAhead: string[][] | undefined;
  /** The pipeline being walked writes its output to a file, not to the transcript. */
  pipeQuiet = false;
  /** Names and paths that run another program (`hash -p /bin/rm ls`, `ln -s /bin/rm /tmp/x`, `cp /bin/rm ./tidy`). */
  readonly programAliases = new Map<string, string>();
  /** Folders this line filled from the network (git clone, scp from a host, a download extracted): running from them runs the download. */
  readonly downloadedDirs = new Map<string, string>();
  /** Fifos made on the line (mkfifo, mknod NAME p): a reader of one blocks until a later command writes it. */
  private readonly fifos = new Set<string>();
  /** Git config files an earlier `git config include.path FILE` on the line made git read (escapes.ts). */
  private readonly gitIncludes = new Set<string>();
  /** Nesting of commands run in the background (`cmd &`): they run alongside what follows them on the line. */
  private inBackground = 0;
  /**
   * Scripts read from a file nothing on the line has written yet, by a reader that waits for it or runs
   * alongside the rest of the line (`bash < fifo &`, `sh < f & echo CMD > f`): what a later command writes
   * there is the script (judged when it is written).
   */
  /** Coprocesses that are shells reading their input, by name (COPROC unless named). */
  private readonly coprocShells = new Set<string>();
  /** Judging a command in a folder an earlier cd may have failed to leave (no alternatives of alternatives). */
  private inAltWalk = false;
  private altCwd: string | undefined;
  private readonly waitingReaders: { path: string; lang: string; segment: string; depth: number; via: string; cwd: string; done?: boolean }[] = [];
  readonly hits: Hit[] = [];
  readonly commands: FoundCommand[] = [];
  private seenHit = new Set<string>();
  private nestedStack: string[][] = [];
  private visits = 0;
  private sourceChars = 0;
  private exhausted = false;
  private loopWalks = 0;
  /** Texts whose only flaw is a quote left open at the end, judged harmless (bash runs none of it). */
  private openQuoteTexts = new Set<string>();
  /** git config written earlier on the line (keys of GIT_LINE_CONFIG_KEYS, bounded by GIT_LINE_CONFIG_MAX). */
  private gitConfig = new Map<string, string[]>();

  /** Start-up scripts and git hooks the line writes, until what it writes into them is known (contentWritten). */
  private startupWrites: { abs: string; segment: string; judged: boolean }[] = [];
  private startupDepth = 0;

  constructor(readonly opts: AnalyzeOptions) {}

  /** A write into a start-up script or hook: persistence (ask) whatever it holds, and what it holds judged too (contentWritten). */
  startupScriptWrite(abs: string, segment: string, detail: string): void {
    this.hit('persistence', 'ask', segment, detail);
    if (this.startupWrites.length < 16) this.startupWrites.push({ abs, segment, judged: false });
  }

  /**
   * What a redirection or tee wrote into `abs`. Into a start-up script or hook, a text known on the line is the code
   * that runs there later (`echo 'rm -rf ~' >> ~/.bashrc` is that delete, deferred): judged as that code, its aliases
   * and functions too (they run when their names are typed), in the language of its `#!` line; a download written
   * there is a download a shell runs.
   */
  private contentWritten(abs: string, feed: Feed, cwd: string): void {
    const w = [...this.startupWrites].reverse().find((x) => x.abs === abs && !x.judged);
    if (!w || this.startupDepth >= MAX_DEPTH) return;
    // A download appended to a start-up file is a download run by a shell, later.
    if (feed.kind === 'download') {
      w.judged = true;
      return this.runsScript(feed, 'sh', w.segment, 1, posix.basename(abs), cwd);
    }
    if (feed.kind !== 'static') return;
    w.judged = true;
    const via = `${posix.basename(abs)} (runs later)`;
    this.startupDepth++;
    try {
      const lang = scriptLanguage(feed.text);
      if (lang !== 'sh') return this.runsScript(feed, lang, w.segment, 1, via, cwd);
      const env = this.newEnv(cwd);
      this.analyzeSource(feed.text, 1, via, cwd, undefined, { env });
      for (const [name, body] of env.aliases) this.analyzeSource(body, 2, `${via} > alias ${name}`, cwd);
      for (const [name, body] of env.funcs) this.walk(body, this.newEnv(cwd), 2, `${via} > ${name}()`, NONE, { pipe: [], pipeline: 0, stage: 0, bg: false });
    } finally {
      this.startupDepth--;
    }
  }

  hit(rule: string, fallback: Decision, segment: string, detail: string): void {
    const action = actionFor(this.opts.policy, rule, fallback);
    const key = `${rule}\u0001${segment}`;
    if (this.seenHit.has(key)) return;
    this.seenHit.add(key);
    if (this.altCwd !== undefined) detail += ` (if the cd before it fails, it runs in ${this.altCwd})`;
    this.hits.push({ rule, action, segment: clip(segment, 200), detail });
  }

  newEnv(cwd: string, vars = new Map<string, string>(), positional?: string[], arg0?: string): Env {
    return { vars, positional, arg0, funcs: new Map(), aliases: new Map(), cwd, dirStack: [], files: new Map(), calls: [] };
  }

  /** A program's own process: no functions or shell variables of the line, but the files the line wrote (`gpg.program=/tmp/g` after `printf ... > /tmp/g`). */
  /** Code a variable of this command makes its programs load first (tables/env-code.ts ENV_LOADERS_OF_CODE), judged in its language. */
  private loadedCode(c: SimpleCommand, name: string, cwd: string, io: RunIO, depth: number, via: string, segment: string, vars: Map<string, string>): void {
    for (const [v, spec] of Object.entries(ENV_LOADERS_OF_CODE)) {
      const set = c.assignments.find((a) => a.name === v)?.value;
      const value = set?.text ?? vars.get(v);
      if (value === undefined || value === '' || (spec.programs && !spec.programs.test(name))) continue;
      const how = `${via} > ${v}`;
      if (set?.text.startsWith('\u0000procsub:<(')) {
        this.runsScript((set.subOut?.[0] as Feed | undefined) ?? { kind: 'runtime', why: 'a process substitution' }, spec.lang, segment, depth, how, cwd);
        continue;
      }
      const words = value.split(/\s+/).filter(Boolean).slice(0, 32);
      if (spec.options) {
        for (let k = 0; k < words.length; k++) {
          const w = words[k];
          const opt = spec.options.find((o) => w === o || w.startsWith(o + '=') || (o.length === 2 && w.startsWith(o) && w.length > 2));
          if (!opt) continue;
          const file = w === opt ? words[++k] : w.startsWith(opt + '=') ? w.slice(opt.length + 1) : w.slice(opt.length);
          if (file) this.runsScript(this.scriptFeed(lit(file), io, cwd), spec.lang, segment, depth, `${how} ${opt} ${file}`, cwd);
        }
      } else if (spec.inFolder) {
        for (const dir of value.split(':').filter(Boolean).slice(0, 16)) for (const f of spec.inFolder) {
          const feed = io.env?.files.get(posix.resolve(cwd, dir, f));
          if (feed) this.runsScript(feed, spec.lang, segment, depth, `${how} (${posix.join(dir, f)})`, cwd);
        }
      } else if (spec.code) {
        // -MModule=args;code: the module is loaded with `use`, and what follows it (to the end: read whole) runs with it.
        const at = words.findIndex((w) => spec.code!.some((o) => w.startsWith(o) && w.length > o.length));
        if (at >= 0) {
          const rest = value.slice(value.indexOf(words[at]) + 2);
          this.runsScript({ kind: 'static', text: `use ${rest.replace(/=/, ' ')};` }, spec.lang, segment, depth, `${how} ${words[at].slice(0, 2)}`, cwd);
        }
      } else this.runsScript(this.scriptFeed(lit(value), io, cwd), spec.lang, segment, depth, how, cwd);
    }
  }

  private launchedEnv(env: Env | undefined, cwd: string, positional?: string[]): Env {
    const e = this.newEnv(cwd, new Map(), positional);
    if (env) e.files = env.files;
    return e;
  }

  /** A subshell's copy: changes inside do not reach the parent. */
  private fork(env: Env): Env {
    work.units += 1 + env.dirStack.length;
    return { ...env, vars: new ScopeMap(env.vars), funcs: new ScopeMap(env.funcs), aliases: new ScopeMap(env.aliases), dirStack: [...env.dirStack], files: env.files };
  }

  private ctxOf(env: Env): LexContext {
    return { home: this.opts.home, cwd: env.cwd, tmp: this.opts.tmp, vars: env.vars, positional: env.positional, arg0: env.arg0, oldpwd: env.vars.get('OLDPWD') ?? env.oldpwd };
  }

  /** Analyzes a command line (or script) found at `depth`, running in `cwd`; returns what it writes to stdout. */
  analyzeSource(src: string, depth: number, via: string, cwd: string, vars = new Map<string, string>(), io?: { stdin?: Feed; env?: Env; positional?: string[]; arg0?: string; subBody?: boolean }): Feed {
    if (depth > MAX_DEPTH) {
      this.hit('unparseable', 'ask', src.slice(0, 80), `nested more than ${MAX_DEPTH} levels deep`);
      return { kind: 'runtime', why: 'too deep' };
    }
    this.sourceChars += src.length;
    if (this.sourceChars > MAX_SOURCE_TOTAL || overBudget()) {
      this.exhaust(src, this.sourceChars > MAX_SOURCE_TOTAL ? `more than ${MAX_SOURCE_TOTAL} characters of script in all` : undefined);
      return { kind: 'runtime', why: 'too large' };
    }
    if (/[\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/.test(src)) this.hit('invisible-characters', 'ask', src.slice(0, 80), 'the command contains invisible or bidirectional control characters');
    this.arithmeticSubscripts(src, depth, via, cwd);
    const env = io?.env ?? this.newEnv(cwd, vars, io?.positional, io?.arg0);
    const lexer = new Lexer(src, this.ctxOf(env));
    lexer.subBody = io?.subBody === true;
    const tokens = lexer.tokens();
    const { node, errors } = parse(tokens);
    // An unterminated quote or substitution hides where commands end: ask. A grammar slip
    // (a missing `then`) still leaves every simple command found and analyzed.
    const problem = lexer.errors[0];
    if (problem) {
      if (lexer.errors.every((e) => QUOTE_ONLY.test(e)) && this.quoteBlindReadingIsHarmless(src, depth, cwd)) this.openQuoteTexts.add(src.trimEnd());
      else this.hit('unparseable', 'ask', src.slice(0, 80), `cannot parse: ${problem}`);
    }
    void errors;
    // PowerShell or cmd text in the line is read as such, unless every command is one that only prints or searches
    // its static words (`echo 'irm x | iex' | grep -c irm`): then the text is data, and nothing runs it.
    // At this script's depth: text the Windows reading hands back (wsl CMD) is nested one deeper, never back at the top.
    if (WINDOWS_HINT.test(src) && !(problem === undefined && onlyDataCommands(node))) checkWindowsLine(this, src, depth);
    return this.walk(node, env, depth, via, io?.stdin ?? NONE, { pipe: [], pipeline: 0, stage: 0, bg: false });
  }

  /**
   * Bash evaluates an array subscript wherever it does arithmetic (`let`, `(( ))`, `[[ x -eq y ]]`,
   * `declare -i`, a variable's value re-read by `$(( x ))`), and a `$( )` in the subscript runs then,
   * quoted or not: `x='a[$(rm -rf ~)]'; echo $(( x ))`. Any such substitution in the text is judged as run.
   */
  private arithmeticSubscripts(src: string, depth: number, via: string, cwd: string): void {
    if (!src.includes('[$(') && !src.includes('[`') && !/\[[^\]\n]{1,40}(?:\$\(|`)/.test(src)) return;
    let found = 0;
    for (const m of src.matchAll(/[A-Za-z_]\w*\[[^\]\n$`]{0,40}(\$\(|`)/g)) {
      if (++found > 8) break;
      const at = (m.index ?? 0) + m[0].length;
      const end = m[1] === '`' ? skipBacktick(src, at) : matchParen(src, at);
      if (end < 0) continue;
      const inner = src.slice(at, end - 1);
      if (inner.trim()) this.analyzeSource(inner, depth + 1, `${via} > arithmetic subscript`, cwd, new Map());
    }
  }

  /**
   * Bash refuses a command whose quote never closes (`ls "C:\\dir\\"`, where `\\"` escapes the quote):
   * nothing from that command on runs, and the lines before it were analysed above. The one risk
   * left is a quote loom pairs differently from bash, with commands hidden in the gap; so the text
   * is read once more with every quote and backslash as a blank, which exposes every command word
   * any pairing could make. Harmless in that reading too: no ask.
   */
  private quoteBlindReadingIsHarmless(src: string, depth: number, cwd: string): boolean {
    if (this.exhausted) return false;
    const blind = new Analyzer(this.opts);
    blind.sourceChars = this.sourceChars;
    blind.analyzeSource(src.replace(/["'`\\]/g, ' '), depth, 'quote-blind reading', cwd, new Map());
    return !blind.exhausted && blind.hits.every((h) => h.action === 'allow');
  }

  /** Gives up on a command past a budget: a block with the budget named, never a guess. */
  private exhaust(src: string, why = `more than ${WORK_BUDGET} steps of analysis`): void {
    if (this.exhausted) return;
    this.exhausted = true;
    this.hit('too-complex', 'deny', src.slice(0, 80), `the command is too large to analyse in full (${why})`);
  }

  /** Walks a parsed node as bash runs it; returns its output. */
  private walk(node: Node, env: Env, depth: number, via: string, stdin: Feed, pc: PipeCtx): Feed {
    work.units++;
    if (!this.exhausted && overBudget()) this.exhaust(node.t === 'cmd' ? node.words.join(' ') : node.t);
    if (this.exhausted) return { kind: 'runtime', why: 'not analyzed' };
    switch (node.t) {
      case 'cmd':
        return this.walkCmd(node, env, depth, via, stdin, pc);
      case 'pipe': {
        const pipe: SimpleCommand[] = [];
        let feed = stdin;
        // The raw words of every stage, for rules that look at what reads their output (`| docker login --password-stdin`).
        const ahead = this.pipeAhead;
        this.pipeAhead = node.cmds.map((c) => (c.t === 'cmd' ? c.words : []));
        // Whether the pipeline's output goes to a file (or nowhere) rather than to the transcript.
        const last = node.cmds[node.cmds.length - 1];
        const quiet = this.pipeQuiet;
        this.pipeQuiet = !!last && 'redirs' in last && (last.redirs ?? []).some((r) => !r.heredoc && (r.op === '>' || r.op === '>>' || r.op === '>|' || r.op === '&>') && (r.fd === undefined || r.fd === 1));
        node.cmds.forEach((c, stage) => {
          // Each stage of a pipeline runs in a subshell.
          feed = this.walk(c, node.cmds.length > 1 ? this.fork(env) : env, depth, via, feed, { pipe, pipeline: pc.pipeline + 1, stage, bg: pc.bg });
        });
        this.pipeAhead = ahead;
        this.pipeQuiet = quiet;
        return feed;
      }
      case 'list': {
        const outs: Feed[] = [];
        // What the walk may also be when a command failed or was skipped (a cd that failed, a branch that did not
        // run): the `&&` commands after it do not run then, so it matters again after `||` or the list's end.
        let gated: Alt[] = [];
        node.items.forEach((item, i) => {
          if (item.op === '||') {
            for (const a of gated) applyAlt(env, a);
            gated = [];
          }
          const before = env.cwd;
          const ipc = { ...pc, bg: pc.bg || item.bg };
          outs.push(item.op ? this.walkMaybe(item.node, env, depth, via, stdin, ipc, gated) : this.walk(item.node, env, depth, via, stdin, ipc));
          if (env.cwd !== before && !cdCannotFail(item.node, this.opts.home)) {
            if (node.items[i + 1]?.op === '&&') gated.push({ cwd: before });
            else mayStayIn(env, before);
          }
        });
        for (const a of gated) applyAlt(env, a);
        return outs.length ? concatFeeds(outs) : { kind: 'static', text: '' };
      }
      case 'sub':
      case 'group': {
        const inner = node.t === 'sub' ? this.fork(env) : env;
        const io = this.redirectFeeds(node.redirs, env, depth, via, stdin, undefined, true);
        this.checkCompoundRedirects(node.redirs, io.targets, env.cwd, node.t === 'sub' ? '( ... )' : '{ ...; }');
        const out = this.walk(node.body, inner, depth, via, io.stdin, pc);
        return this.writeRedirects(node.redirs, env, out, '');
      }
      case 'block': {
        const io = this.redirectFeeds(node.redirs, env, depth, via, stdin, undefined, true);
        this.checkCompoundRedirects(node.redirs, io.targets, env.cwd, `${node.kind} ...`);
        // The first part (a condition, a case subject) always runs; the others may not.
        node.parts.forEach((p, i) => (i === 0 ? this.walk(p, env, depth, via, io.stdin, pc) : this.walkMaybe(p, env, depth, via, io.stdin, pc)));
        // `yes | while read; do sleep 9 & done`, `while read; do ...; done < /dev/zero`: a read loop over endless input never ends.
        const endlessRead = node.kind === 'while' && readsLines(node.parts[0]) && (endlessFeed(io.stdin) || endlessStages(pc));
        if ((node.infinite || endlessRead) && this.spawns(node.parts[node.parts.length - 1], false)) this.hit('fork-bomb', 'deny', `${node.kind} loop`, endlessRead ? 'a loop over endless input starts processes in the background: a fork bomb' : 'an endless loop starts processes in the background: a fork bomb');
        else if (node.kind === 'for((' && node.parts[0].t === 'arith' && arithLoopPasses(node.parts[0].src) >= HUGE_LOOP_COUNT && this.spawns(node.parts[1], false) && !waitsIn(node.parts[1])) this.hit('fork-bomb', 'deny', 'for (( )) loop', `a loop of ${arithLoopPasses(node.parts[0].src)} passes starts a background job on each without waiting: process exhaustion, a fork bomb`);
        return { kind: 'runtime', why: `the output of a ${node.kind} block` };
      }
      case 'for': {
        if (node.redirs.length) this.checkCompoundRedirects(node.redirs, this.redirectFeeds(node.redirs, env, depth, via, stdin, undefined, true).targets, env.cwd, `for ${node.name} ...`);
        // Its words expand before the body runs: `cd /tmp/x; for d in ~+; do rm -rf $d; done` in each folder the walk may be in.
        if (!this.inAltWalk && (env.cwdAlts?.length || env.varAlts?.length)) this.walkAlternatives(env, (node.words ?? ['$@']).join(' '), false, (alt) => this.walk(node, alt, depth, via, stdin, pc));
        const passes = node.words ? loopPasses(node.words) : 0;
        if (passes >= HUGE_LOOP_COUNT && this.spawns(node.body, false) && !waitsIn(node.body)) this.hit('fork-bomb', 'deny', `for ${node.name} loop`, `a loop of ${passes === Infinity ? 'endless' : passes} passes starts a background job on each without waiting: process exhaustion, a fork bomb`);
        let values: string[] | undefined;
        let known = true;
        if (node.words === null) values = env.positional ?? undefined;
        else {
          values = [];
          for (const raw of node.words) {
            const ws = this.expandRaw(raw, env, depth, via, stdin);
            for (const w of ws) {
              if (w.dynamic) known = false;
              values.push(w.text);
            }
          }
        }
        if (!values || !known || values.length === 0) {
          env.vars.delete(node.name);
          this.walkMaybe(node.body, env, depth, via, stdin, pc);
        } else {
          // Nested loops multiply: past the budget a loop is walked with its first value only.
          const n = Math.max(1, Math.min(MAX_LOOP_VALUES, MAX_LOOP_WALKS - this.loopWalks));
          this.loopWalks += n;
          for (const v of values.slice(0, n)) {
            env.vars.set(node.name, v);
            this.walk(node.body, env, depth, via, stdin, pc);
          }
        }
        return { kind: 'runtime', why: 'the output of a loop' };
      }
      case 'func':
        env.funcs.set(node.name, node.body);
        // Functions bash calls on its own (command_not_found_handle on any unknown command): judged as run.
        if (SELF_CALLED_FUNCTIONS.includes(node.name)) this.walk(node.body, this.fork(env), depth, `${via} > ${node.name}`, NONE, pc);
        if (this.callsItselfInParallel(node.body, node.name)) this.hit('fork-bomb', 'deny', `${node.name}()`, `function ${node.name} calls itself in a pipe or in the background: a fork bomb`);
        else {
          // Mutual recursion (a calls b, b calls a) with a call in a pipe or the background on the way (families/fork-graph.ts).
          const cycle = forkingCycle(env.funcs, node.name, functionName);
          if (cycle) this.hit('fork-bomb', 'deny', `${node.name}()`, `functions ${cycle.join(' -> ')} call each other in a pipe or in the background: a fork bomb`);
        }
        return { kind: 'static', text: '' };
      case 'coproc': {
        // A shell reading its input (`coproc bash`): what the line writes to ${NAME[1]} is its script.
        let inner: Node = node.body;
        while (inner.t === 'group' || inner.t === 'sub') inner = inner.body;
        const b = inner.t === 'cmd' ? inner.words : [];
        if (b.length && SHELLS.has(posix.basename(b[0])) && !b.slice(1).some((w) => /^-[a-z]*c|^[^-]/.test(w))) this.coprocShells.add(node.name);
        return this.walk(node.body, this.fork(env), depth, via, stdin, { ...pc, bg: true });
      }
      case 'arith': {
        const subs: Sub[] = [];
        findSubs(node.src, subs);
        this.runSubs(subs, env, depth, via, stdin);
        return { kind: 'static', text: '' };
      }
      case 'test':
        for (const raw of node.words) if (raw.includes('$') || raw.includes('`') || raw.includes('(')) this.expandRaw(raw, env, depth, via, stdin);
        return { kind: 'static', text: '' };
    }
  }

  /**
   * Judges a command again in each state the walk may be in instead: `cd build; rm -rf *` when build is
   * missing deletes from where the shell was; `true || X=ls; $X rm -rf ~` runs with X as it was. A variable's
   * other value matters only where its name appears (or code runs that may read it).
   */
  private walkAlternatives(env: Env, text: string, callsCode: boolean, walkIn: (alt: Env) => void): void {
    this.inAltWalk = true;
    try {
      for (const cwd of env.cwdAlts ?? []) {
        this.altCwd = cwd;
        walkIn({ ...this.fork(env), cwd, cwdAlts: undefined, varAlts: undefined });
      }
      this.altCwd = undefined;
      for (const alt of env.varAlts ?? []) {
        if (!callsCode && !text.includes(alt.name)) continue;
        const forked = { ...this.fork(env), cwdAlts: undefined, varAlts: undefined };
        if (alt.value === undefined) forked.vars.delete(alt.name);
        else forked.vars.set(alt.name, alt.value);
        walkIn(forked);
      }
    } finally {
      this.inAltWalk = false;
      this.altCwd = undefined;
    }
  }

  /**
   * Walks a part that may not run (after `&&` / `||`, a branch of if or case, a loop body): what it
   * changes holds afterwards, and what was there before stays possible (a variable's old value, the folder).
   */
  private walkMaybe(node: Node, env: Env, depth: number, via: string, stdin: Feed, pc: PipeCtx, deferred?: Alt[]): Feed {
    const parent = env.vars;
    const layer = new ScopeMap(parent);
    const cwd = env.cwd;
    env.vars = layer;
    try {
      return this.walk(node, env, depth, via, stdin, pc);
    } finally {
      const vars = env.vars === layer ? parent : env.vars;
      env.vars = vars;
      const { set, gone } = layer.ownChanges();
      for (const [k, v] of set) {
        const old = parent.get(k);
        vars.set(k, v);
        if (old !== v && !k.endsWith(']')) {
          if (deferred) deferred.push({ name: k, value: old });
          else mayHold(env, k, old);
        }
      }
      for (const k of gone) vars.delete(k);
      if (env.cwd !== cwd) {
        if (deferred) deferred.push({ cwd });
        else mayStayIn(env, cwd);
      }
    }
  }

  /** Does this body start processes in the background (or in a pipe, for `spawnInPipe`)? */
  private spawns(node: Node, inPipe: boolean): boolean {
    switch (node.t) {
      case 'list':
        return node.items.some((i) => i.bg || this.spawns(i.node, inPipe));
      case 'pipe':
        return inPipe || node.cmds.some((c) => this.spawns(c, inPipe));
      case 'sub':
      case 'group':
        return this.spawns(node.body, inPipe);
      case 'block':
        return node.parts.some((p) => this.spawns(p, inPipe));
      case 'for':
        return this.spawns(node.body, inPipe);
      case 'coproc':
        return true;
      default:
        return false;
    }
  }

  /** Structural fork-bomb test: the function calls itself inside a pipe or a background job. */
  private callsItselfInParallel(body: Node, name: string): boolean {
    // Names compared as bash reads them: `$'\x3a'(){ :|:& };:` defines and calls `:`.
    const unquote = functionName;
    const me = unquote(name);
    const self = (raw: string | undefined) => raw !== undefined && (raw === name || unquote(raw) === me || /^"?\$\{?FUNCNAME(?:\[0\])?\}?"?$/.test(raw));
    const visit = (n: Node, parallel: boolean): boolean => {
      switch (n.t) {
        case 'cmd':
          return parallel && self(n.words[0]);
        case 'pipe':
          return n.cmds.some((c) => visit(c, true));
        case 'list':
          return n.items.some((i) => visit(i.node, parallel || i.bg));
        case 'sub':
        case 'group':
          return visit(n.body, parallel);
        case 'block':
          return n.parts.some((p) => visit(p, parallel));
        case 'for':
          return visit(n.body, parallel);
        case 'coproc':
          return visit(n.body, true);
        default:
          return false;
      }
    };
    return visit(body, false);
  }

  /**
   * The elements of an array literal `(a b c)`, or undefined when one is only known at run time. Elements given
   * with a key (`([k]=v [5]=w)`, an associative array's or a sparse one's) come with every element's key, as do an
   * associative array's key-value pairs (`declare -A m=(k v)`).
   */
  private arrayElements(inner: string, env: Env, depth: number, via: string, stdin: Feed, assoc = false): (string[] & { named?: string[] }) | undefined {
    if (inner.length > 4096) return undefined;
    const lx = new Lexer(inner, this.ctxOf(env));
    const toks = lx.tokens();
    if (lx.errors.length) return undefined;
    const values: string[] = [];
    const keys: string[] = [];
    const put = (key: string, value: string) => {
      const at = keys.indexOf(key);
      if (at >= 0) values[at] = value;
      else {
        keys.push(key);
        values.push(value);
      }
    };
    const plain: string[] = [];
    let keyed = false;
    let next = 0;
    for (const t of toks) {
      if (t.kind !== 'word') {
        if (t.kind === 'op' && t.value === '\n') continue;
        return undefined;
      }
      const raw = t.raw ?? t.value;
      const kv = /^\[([^\]]{1,256})\]=([\s\S]*)$/.exec(raw);
      if (kv) {
        // A keyed element's value is an assignment's: not brace-expanded.
        const v = kv[2] === '' ? [lit('')] : this.expandRaw(kv[2], env, depth, via, stdin, undefined, undefined, false);
        if (v.some((x) => x.dynamic)) return undefined;
        let key: string | undefined;
        if (assoc) {
          const k = this.expandRaw(kv[1], env, depth, via, stdin);
          key = k.length === 1 && !k[0].dynamic ? k[0].text : undefined;
        } else key = subscriptKey(kv[1], false, (n) => env.vars.get(n));
        if (key === undefined) return undefined;
        if (!assoc) next = Number(key) + 1;
        put(key, v.map((x) => x.text).join(' '));
        keyed = true;
        continue;
      }
      for (const w of this.expandRaw(raw, env, depth, via, stdin)) {
        if (w.dynamic) return undefined;
        if (w.vanished) continue;
        if (assoc) plain.push(w.text);
        else put(String(next++), w.text);
      }
    }
    // An associative array given words without keys takes them as key-value pairs (bash 5.1 and later).
    if (assoc && plain.length) {
      if (keyed) return undefined;
      for (let i = 0; i < plain.length; i += 2) put(plain[i], plain[i + 1] ?? '');
      keyed = true;
    }
    return this.arrayOf(values, keys, assoc || keyed, assoc);
  }

  /** Elements and their keys as the analyzer stores them: an indexed array in index order, keys dropped when dense. */
  private arrayOf(values: string[], keys: string[], keep: boolean, assoc = false): string[] & { named?: string[] } {
    const order = assoc ? keys.map((_, i) => i) : bashOrder(keys, false);
    const out: string[] & { named?: string[] } = order.map((i) => values[i]).slice(0, 256);
    const named = order.map((i) => keys[i]).slice(0, 256);
    if (keep && (assoc || named.some((k, i) => k !== String(i)))) out.named = named;
    return out;
  }

  /**
   * `a[k]=v` (or `a[k]+=v`): the array with that element set, as bash sets it. A subscript only known at run
   * time leaves the whole array unknown.
   */
  private setElement(env: Env, name: string, subRaw: string, value: Word, appending: boolean): Word {
    const assoc = env.vars.get(arrayAssocOf(name)) === 'A';
    const held = env.vars.get(arrayValuesOf(name));
    const values = held !== undefined ? (held === '' ? [] : held.split(SPLIT)) : env.vars.has(name) ? [env.vars.get(name)!] : [];
    const heldKeys = env.vars.get(arrayKeysOf(name));
    const keys = heldKeys !== undefined ? (heldKeys === '' ? [] : heldKeys.split(SPLIT)) : values.map((_, i) => String(i));
    const key = subscriptKey(subRaw, assoc, (n) => env.vars.get(n));
    if (value.dynamic || key === undefined || values.length >= 256) return { ...lit(''), dynamic: true };
    const at = keys.indexOf(key);
    if (at >= 0) values[at] = appending ? values[at] + value.text : value.text;
    else {
      keys.push(key);
      values.push(value.text);
    }
    const elems = this.arrayOf(values, keys, true, assoc);
    const out: Word = { ...lit(elems[(elems.named ?? []).indexOf('0')] ?? (elems.named ? '' : elems[0] ?? '')), array: elems };
    if (elems.named) out.arrayKeys = elems.named;
    return out;
  }

  /** Expands one word's source in the walk's current state; its substitutions are analyzed. */
  private expandRaw(raw: string, env: Env, depth: number, via: string, stdin: Feed, procsubs?: Map<Word, Feed>, errors?: string[], braces = true): Word[] {
    // A plain word needs neither the walk's context nor a closure (most words are plain).
    const plain = plainWord(raw);
    if (plain) {
      work.units += raw.length;
      return [plain];
    }
    const words = expandWord(raw, this.ctxOf(env), (src) => this.evalStatic(src, env, 0), errors, braces);
    const seen = new Set<Sub[]>();
    for (const w of words) {
      if (!w.subs?.length || seen.has(w.subs)) continue;
      seen.add(w.subs);
      const outs = this.runSubs(w.subs, env, depth, via, stdin);
      for (const x of words) if (x.subs === w.subs) x.subOut = outs;
      if (procsubs && w.text.startsWith('\u0000procsub:<(')) procsubs.set(w, outs[0] ?? NONE);
    }
    return words.some((w) => w.vanished) ? words.filter((w) => !w.vanished) : words;
  }

  /** Analyzes substitutions (they run, in a subshell, with the command's stdin); returns each one's output. */
  private runSubs(subs: Sub[], env: Env, depth: number, via: string, stdin: Feed, outStdin?: Feed): Feed[] {
    const outs: Feed[] = [];
    for (const s of subs.slice(0, 32)) {
      const feedIn = s.kind === '>(' ? (outStdin ?? { kind: 'runtime', why: 'what the command writes' }) : stdin;
      outs.push(this.analyzeSource(s.src, depth + 1, `${via} > ${s.kind === '$((' ? '$((...))' : s.kind === '`' ? '`...`' : `${s.kind}...)`}`, env.cwd, undefined, { stdin: feedIn, env: this.fork(env), subBody: s.kind === '$(' || s.kind === '<(' || s.kind === '>(' }));
    }
    return outs;
  }

  /**
   * The static output of a command substitution ($(printf '\x72\x6d'),
   * $(echo cm0= | base64 -d)), or undefined when it is only known at run
   * time. Side-effect free: the substitution is analyzed on its own.
   */
  evalStatic(src: string, env: Env, level: number): string | undefined {
    if (level > 3 || src.length > 4096) return undefined;
    const lexer = new Lexer(src, this.ctxOf(env));
    // A substitution's text (a backtick's too: reading more commands there is only stricter).
    lexer.subBody = true;
    const tokens = lexer.tokens();
    if (lexer.errors.length) return undefined;
    const { node, errors } = parse(tokens);
    if (errors.length) return undefined;
    // `$(cd ..; pwd)`, `$(cd ~ && pwd)`: a list whose cd moves the folder the next commands print.
    if (node.t === 'list') {
      if (node.items.length > 8) return undefined;
      let cwd = env.cwd;
      let out = '';
      for (const [i, item] of node.items.entries()) {
        if (item.bg || item.op === '||') return undefined;
        const here = { ...env, cwd };
        const n = item.node;
        if (n.t === 'cmd' && n.words[0] === 'cd' && n.assigns.length === 0) {
          // `$(cd /tmp/gone; pwd)` prints where the shell was when the cd fails: only known at run time.
          if (node.items[i + 1] && node.items[i + 1].op !== '&&' && !cdCannotFail(n, this.opts.home)) return undefined;
          const args = n.words.slice(1).flatMap((raw) => expandWord(raw, this.ctxOf(here), (s) => this.evalStatic(s, here, level + 1)));
          const target = args.filter((w) => w.text !== '--' && !/^-[LP]+$/.test(w.text));
          if (target.some((w) => w.dynamic) || target.length > 1 || target[0]?.text === '-') return undefined;
          cwd = posix.resolve(cwd, target[0]?.text ?? this.opts.home);
          continue;
        }
        const t = this.evalStaticNode(n, here, level);
        if (t === undefined) return undefined;
        out += t;
      }
      return out;
    }
    return this.evalStaticNode(node, env, level);
  }

  private evalStaticNode(node: Node, env: Env, level: number): string | undefined {
    const stages = node.t === 'pipe' ? node.cmds : [node];
    let feed: Feed = NONE;
    for (const st of stages) {
      if (st.t !== 'cmd' || st.assigns.length) return undefined;
      const words: Word[] = [];
      for (const raw of st.words) {
        for (const w of expandWord(raw, this.ctxOf(env), (s) => this.evalStatic(s, env, level + 1))) {
          if (w.subs?.some((s) => s.kind === '<(' || s.kind === '>(')) return undefined;
          if (!w.vanished) words.push(w);
        }
      }
      for (const r of st.redirs) {
        if (r.heredoc) feed = r.heredoc.quoted || !/[$`]/.test(r.heredoc.body) ? { kind: 'static', text: r.heredoc.body } : { kind: 'runtime', why: 'heredoc' };
        else if (r.op === '<<<' && r.raw !== undefined) {
          const w = expandWord(r.raw, this.ctxOf(env), (s) => this.evalStatic(s, env, level + 1));
          feed = w.length && !w.some((x) => x.dynamic) ? { kind: 'static', text: w.map((x) => x.text).join(' ') + '\n' } : { kind: 'runtime', why: 'here-string' };
        } else if (r.op !== '>&' && r.op !== '<&' && !(r.raw === '/dev/null' && r.fd === 2)) return undefined;
      }
      if (!words.length || words[0].dynamic) return undefined;
      let k = 0;
      // `command ls` runs ls; `command -v ls` (a lookup) is evaluated as itself.
      while (k < words.length - 1 && (words[k].text === 'command' || words[k].text === 'builtin') && !/^-[a-zA-Z]*[vV]/.test(words[k + 1].text)) k++;
      feed = outputOf(posix.basename(words[k].text), words.slice(k), { stdin: feed, fileFeed: () => undefined, procsubFeed: () => ({ kind: 'runtime', why: '' }), cwd: env.cwd, toplevel: within(env.cwd, this.opts.projectDir) ? this.opts.projectDir : undefined });
      if (feed.kind !== 'static') return undefined;
    }
    return feed.kind === 'static' ? feed.text : undefined;
  }

  /** stdin given by a node's redirections (heredoc, here-string, < file), else the inherited one. */
  private redirectFeeds(redirs: RedirNode[], env: Env, depth: number, via: string, stdin: Feed, procsubs?: Map<Word, Feed>, compound = false): { stdin: Feed; targets: (Word | undefined)[]; fds: Map<number, Feed> } {
    // What each input file descriptor reads: `3<<<text`, `exec 3< f`, then `<&3` makes it stdin.
    const fds = new Map<number, Feed>(env.fds ?? []);
    // A pipe's stdin wins over what `exec < file` gave the shell.
    if (stdin.kind !== 'none' || !fds.has(0)) fds.set(0, stdin);
    const targets: (Word | undefined)[] = [];
    for (const r of redirs) {
      const fd = r.fd ?? 0;
      if (r.heredoc) {
        targets.push(undefined);
        if (r.heredoc.quoted) fds.set(fd, { kind: 'static', text: r.heredoc.body });
        else {
          const lx = new Lexer(r.heredoc.body, this.ctxOf(env), (s) => this.evalStatic(s, env, 0));
          const w = lx.expandInDouble();
          if (w.subs?.length) this.runSubs(w.subs, env, depth, via, stdin);
          fds.set(fd, w.dynamic ? { kind: 'runtime', why: 'a heredoc with run-time values', text: w.text } : { kind: 'static', text: w.text });
        }
        continue;
      }
      const ws = this.expandRaw(r.raw ?? '', env, depth, via, stdin, procsubs);
      const target = ws.length === 1 ? ws[0] : ws.length === 0 ? lit('') : { ...ws[0], text: ws.map((w) => w.text).join(' '), dynamic: true };
      targets.push(target);
      if (r.op === '<<<') {
        const why = 'a here-string with run-time values';
        const f = target.dynamic ? this.dynamicFeed(target, stdin, why) : { kind: 'static' as const, text: target.text + '\n' };
        fds.set(fd, f.kind === 'runtime' && f.why === why ? { ...f, text: target.text.replace(/\u0000procsub:.\(/g, '\u0000') + '\n' } : f);
      } else if (r.op === '<' || r.op === '<>') {
        let f: Feed;
        if (target.text.startsWith('\u0000procsub:<(')) f = procsubs?.get(target) ?? { kind: 'runtime', why: 'a process substitution' };
        else if (STDIN_PATHS.has(target.text)) f = stdin;
        else if (target.dynamic) f = { kind: 'runtime', why: 'a file named at run time' };
        else f = env.files.get(posix.resolve(env.cwd, target.text)) ?? { kind: 'file', path: target.text };
        // `while read l; do ...; done < .env` reads the file as surely as `cat .env` (simple commands: checkRedirects).
        if (f.kind === 'file' && !target.dynamic && compound) this.readsPath(target.text, env.cwd, `< ${target.text}`);
        fds.set(fd, f);
      } else if (r.op === '<&') {
        const from = /^\d+$/.test(target.text) ? fds.get(Number(target.text)) : undefined;
        fds.set(fd, from ?? (target.dynamic ? { kind: 'runtime', why: 'a descriptor named at run time' } : NONE));
      }
    }
    return { stdin: fds.get(0) ?? stdin, targets, fds };
  }

  /** A run-time value: a download when one of its substitutions downloads, stdin when it is `$(cat)`. */
  private dynamicFeed(w: Word, stdin: Feed, why: string): Feed {
    const outs = w.subOut as Feed[] | undefined;
    if (outs?.length) {
      const dl = outs.find((f) => f.kind === 'download');
      if (dl) return dl;
      // More unknown parts than substitutions: a variable is part of it.
      let markers = 0;
      for (const ch of w.text) if (ch === '\u0000') markers++;
      if (markers > outs.length) return { kind: 'runtime', why };
      // Every substitution's output known (`bash -c "$(cat)"` fed a static text): the word is that text.
      if (markers === outs.length && outs.every((f) => f.kind === 'static') && !w.text.includes('\u0000procsub') && onlySubsAreRuntime(w)) {
        let k = 0;
        return { kind: 'static', text: w.text.replace(/\u0000/g, () => (outs[k++] as { text: string }).text.replace(/\n+$/, '')) };
      }
      const rt = outs.find((f) => f.kind === 'runtime');
      if (rt) return rt;
      if (outs.every((f) => f.kind === 'program' || f.kind === 'file')) return outs[0];
      return { kind: 'runtime', why };
    }
    for (const s of w.subs ?? []) {
      const first = /^\s*(?:sudo\s+|command\s+|exec\s+)?([\w./-]+)/.exec(s.src)?.[1] ?? '';
      const name = posix.basename(first);
      if (DOWNLOADERS.has(name) && /https?:|ftp:|\w\.\w/.test(s.src)) return { kind: 'download', by: name };
      if (/^\s*(?:cat(?:\s+(?:-|\/dev\/stdin))?|head\s+-c\s*\d+|dd(?:\s+status=none)?)\s*$/.test(s.src)) return stdin;
      if (/\|\s*(?:base64|xxd|openssl|gunzip|zcat|rev|xz|bzip2|gzip)\b/.test(s.src) || /^\s*(?:base64|xxd|openssl|gunzip|zcat|rev)\b/.test(s.src)) return { kind: 'runtime', why: `decoded at run time (\`${s.src.trim().slice(0, 40)}\`)` };
    }
    return { kind: 'runtime', why };
  }

  /** Output redirections: the file now holds the command's output (for a script run later on the line). */
  private writeRedirects(redirs: RedirNode[], env: Env, out: Feed, segment: string, targets?: (Word | undefined)[]): Feed {
    let result = out;
    redirs.forEach((r, i) => {
      if (r.heredoc || r.op.startsWith('<') || r.op === '<<<') return;
      const t = targets?.[i];
      if (!t || t.dynamic || t.text === '' || /^\d+$/.test(t.text)) return;
      if (r.fd === 2) return;
      const abs = posix.resolve(env.cwd, t.text);
      const prev = env.files.get(abs);
      env.files.set(abs, r.op === '>>' && prev ? concatFeeds([prev, out]) : out);
      this.contentWritten(abs, out, env.cwd);
      result = NONE;
    });
    void segment;
    return result;
  }

  private walkCmd(node: Extract<Node, { t: 'cmd' }>, env: Env, depth: number, via: string, stdin: Feed, pc: PipeCtx): Feed {
    if (++this.visits > MAX_VISITS) {
      this.exhaust(node.words.join(' '), `more than ${MAX_VISITS} simple commands`);
      return { kind: 'runtime', why: 'not analyzed' };
    }
    if (!this.inAltWalk && (env.cwdAlts?.length || env.varAlts?.length)) {
      const text = [...node.words, ...node.assigns, ...node.redirs.map((r) => r.raw ?? '')].join(' ');
      const callsCode = node.words[0] !== undefined && (env.funcs.has(node.words[0]) || env.aliases.has(node.words[0]));
      this.walkAlternatives(env, text, callsCode, (alt) => this.walkCmd(node, alt, depth, via, stdin, { ...pc, pipe: [...pc.pipe] }));
    }
    // Alias expansion happens before anything else, on the unquoted first word.
    const first = node.words[0];
    if (first !== undefined && env.aliases.has(first)) {
      const value = env.aliases.get(first)!;
      const inner = { ...env, aliases: new ScopeMap(env.aliases) };
      inner.aliases.delete(first);
      // An alias whose value ends in a blank has the next word alias-expanded too (`alias nice='nice '; nice cleanup`).
      let head = value;
      let k = 1;
      while (/[ \t]$/.test(head) && k < node.words.length && k < 8 && env.aliases.has(node.words[k]) && node.words[k] !== first) head += env.aliases.get(node.words[k++])!;
      const src = [head, ...node.words.slice(k)].join(' ');
      // bash may also run the name unexpanded (an alias defined in the same compound command is not in
      // effect there yet): that command is judged in full too, its substitutions with it (`alias a='#'` hides nothing).
      this.walkCmd(node, inner, depth, via, stdin, pc);
      return this.analyzeSource(src, depth + 1, `${via} > alias ${first}`, env.cwd, undefined, { stdin, env: { ...inner, vars: env.vars, funcs: env.funcs, files: env.files } });
    }
    const errors: string[] = [];
    const assignments: { name: string; value: Word }[] = [];
    for (const raw of node.assigns) {
      const eq = raw.indexOf('=');
      const name = raw.slice(0, eq).replace(/\+$/, '').replace(/\[.*$/, '');
      const appending = raw[eq - 1] === '+';
      const vraw = raw.slice(eq + 1);
      if (vraw.startsWith('(') && vraw.endsWith(')') && !raw.slice(0, eq).includes('[')) {
        // An array: its elements as bash expands them (`a=(rm -rf ~); "${a[@]}"`).
        const added = this.arrayElements(vraw.slice(1, -1), env, depth, via, stdin, env.vars.get(arrayAssocOf(name)) === 'A');
        // a+=(m) appends to what the array (or the plain variable, its element 0) held.
        const held = env.vars.get(arrayValuesOf(name));
        const before = !appending ? [] : held !== undefined ? (held === '' ? [] : held.split(SPLIT)) : env.vars.has(name) ? [env.vars.get(name)!] : [];
        // Keys appended to keyed elements are not worked out: the array is then only known at run time.
        const elems = added && (added.named && before.length ? undefined : [...before, ...added]);
        const value: Word = elems ? { ...lit(elems[0] ?? ''), array: elems } : { ...lit(vraw), dynamic: true };
        if (elems && added?.named) {
          value.arrayKeys = added.named;
          value.text = elems[added.named.indexOf('0')] ?? '';
        }
        assignments.push({ name, value });
        continue;
      }
      const ws = vraw.startsWith('(') ? [{ ...lit(vraw), dynamic: true }] : this.expandRaw(vraw, env, depth, via, stdin, undefined, errors, false);
      let value: Word = ws.length === 1 ? ws[0] : { ...lit(ws.map((w) => w.text).join(' ')), dynamic: ws.some((w) => w.dynamic) };
      // a[k]=v sets one element of the array a (a plain variable is its element 0).
      const element = /^[A-Za-z_]\w*\[([^\]]{1,256})\]\+?$/.exec(raw.slice(0, eq));
      if (element) {
        assignments.push({ name, value: this.setElement(env, name, element[1], value, appending) });
        continue;
      }
      // X+=m appends to X's value (one only known at run time stays so).
      if (appending && !raw.slice(0, eq).includes('[')) value = env.vars.has(name) ? { ...value, text: env.vars.get(name)! + value.text } : { ...value, dynamic: true };
      assignments.push({ name, value });
    }
    // The segment once, not per assignment (a join per assignment made 30,000 of them quadratic).
    const assignSegment = assignments.length ? node.assigns.slice(0, 16).join(' ').slice(0, 80) : '';
    for (const a of assignments) this.envCode(a.name, a.value, env.cwd, depth, via, assignSegment);
    const procsubs = new Map<Word, Feed>();
    const words: Word[] = [];
    // `export $(cat .env | xargs)` loads an env file into the environment, as `set -a; . .env` does: not a read of it
    // (sending a loaded secret anywhere is judged where it is sent).
    const exporting = ENV_LOADERS.has(node.words[0] ?? '');
    // `declare -A m=(...)`: an associative array's literal (its keys are strings, not arithmetic).
    const declaresAssoc = exporting && node.words.slice(1).some((w) => /^-[a-zA-Z]*A/.test(w));
    for (const raw of node.words) {
      const own: string[] = [];
      // `declare -a a=(x y)`: an array assignment of a declaration builtin (its elements, as in `a=(x y)`).
      const arr = exporting && raw !== node.words[0] ? /^([A-Za-z_][A-Za-z0-9_]*)\+?=\(([\s\S]*)\)$/.exec(raw) : null;
      if (arr) {
        const elems = this.arrayElements(arr[2], env, depth, via, stdin, declaresAssoc);
        const first = elems?.named ? elems[elems.named.indexOf('0')] : elems?.[0];
        words.push(elems ? { ...lit(`${arr[1]}=${first ?? ''}`), array: elems, ...(elems.named ? { arrayKeys: elems.named } : {}) } : { ...lit(`${arr[1]}=`), dynamic: true });
        continue;
      }
      if (exporting && raw !== node.words[0]) this.loadingEnv++;
      try {
        for (const w of this.expandRaw(raw, env, depth, via, stdin, procsubs, own)) words.push(w);
      } finally {
        if (exporting && raw !== node.words[0]) this.loadingEnv--;
      }
      // The word that runs to the end of a text whose open quote was judged harmless above.
      if (own.length && own.every((e) => QUOTE_ONLY.test(e)) && [...this.openQuoteTexts].some((t) => t.endsWith(raw))) continue;
      errors.push(...own);
    }
    const io = this.redirectFeeds(node.redirs, env, depth, via, stdin, procsubs);
    if (overBudget()) {
      this.exhaust(node.words.join(' '));
      return { kind: 'runtime', why: 'not analyzed' };
    }
    if (errors.length) this.hit('unparseable', 'ask', node.words.join(' ').slice(0, 80), `cannot parse: ${errors[0]}`);
    const redirects = node.redirs.flatMap((r, i) => (r.heredoc ? [] : [{ op: r.op, target: io.targets[i] ?? lit(''), fd: r.fd }]));
    const heredocNode = node.redirs.find((r) => r.heredoc);
    const c: SimpleCommand = { words, assignments, redirects, pipeline: pc.pipeline, stage: pc.stage, background: pc.bg, heredoc: heredocNode ? lit(heredocNode.heredoc!.body) : undefined };
    pc.pipe.push(c);
    // `exec` with only redirections opens them for the rest of the shell.
    if (words.length === 1 && words[0].text === 'exec' && node.redirs.length) env.fds = io.fds;
    if (words.length === 0) {
      // A line of only assignments sets variables for what follows (X=rm; $X -rf /).
      for (const a of assignments) setVar(env, a.name, a.value);
      this.checkRedirects(c, env.cwd, '');
      // `$(< file)` is the file's content, as `$(cat file)` is.
      const readOnly = node.redirs.length > 0 && node.redirs.every((r) => r.op === '<') && assignments.length === 0;
      return this.writeRedirects(node.redirs, env, readOnly ? (io.stdin.kind === 'file' ? { kind: 'runtime', why: `the content of ${io.stdin.path}` } : io.stdin) : { kind: 'static', text: '' }, '', io.targets);
    }
    // A function defined earlier on the line: its body runs with these arguments.
    const fname = words[0].dynamic ? undefined : words[0].text;
    if (fname !== undefined && env.funcs.has(fname) && !words[0].quoted) {
      this.commands.push({ argv: words.map((w) => w.text), depth, via });
      const body = env.funcs.get(fname)!;
      if (env.calls.includes(body) || env.calls.length >= MAX_DEPTH) return { kind: 'runtime', why: 'recursion' };
      const callEnv: Env = { ...env, positional: words.slice(1).map((w) => w.text), calls: [...env.calls, body] };
      this.checkRedirects(c, env.cwd, quoteArgv(words.map((w) => w.text)));
      const out = this.walk(body, callEnv, depth + 1, `${via} > ${fname}()`, io.stdin, { ...pc, pipe: [] });
      env.cwd = callEnv.cwd;
      env.cwdAlts = callEnv.cwdAlts;
      return this.writeRedirects(node.redirs, env, out, '', io.targets);
    }
    this.nestedStack.push(words.flatMap((w) => (w.subs ?? []).map((s) => s.src)));
    if (pc.bg) this.inBackground++;
    let out: Feed;
    try {
      out = this.analyzeCommand(c, depth, via, env.cwd, pc.pipe, env.vars, { stdin: io.stdin, env, procsubs, fds: io.fds });
    } finally {
      if (pc.bg) this.inBackground--;
    }
    this.nestedStack.pop();
    // Process substitutions written to (tee >(sh), > >(sh)) read what the command writes.
    for (const w of words) {
      if (w.text.startsWith('\u0000procsub:>(') && w.subs) this.runSubs(w.subs.filter((s) => s.kind === '>('), env, depth, via, stdin, posix.basename(words[0].text) === 'tee' ? io.stdin : out);
    }
    node.redirs.forEach((r, i) => {
      const t = io.targets[i];
      if (t?.text.startsWith('\u0000procsub:>(') && t.subs) this.runSubs(t.subs.filter((s) => s.kind === '>('), env, depth, via, stdin, out);
    });
    // `echo 'rm -rf .git' >&"${COPROC[1]}"`: the text goes to the coprocess shell, which runs it.
    if (this.coprocShells.size) {
      for (const r of node.redirs) {
        const m = /\$\{?([A-Za-z_]\w*)\[1\]\}?/.exec(r.raw ?? '');
        if (r.op.startsWith('>') && m && this.coprocShells.has(m[1])) this.runsScript(out, 'sh', node.words.join(' ').slice(0, 80), depth, `${via} > coproc ${m[1]}`, env.cwd);
      }
    }
    const result = this.writeRedirects(node.redirs, env, out, '', io.targets);
    if (this.waitingReaders.length) this.wakeReaders(env);
    return result;
  }

  /** A reader waiting on a file (waitingReaders) runs what the command just judged wrote there. */
  private wakeReaders(env: Env): void {
    for (const w of this.waitingReaders) {
      if (w.done) continue;
      const feed = env.files.get(w.path);
      if (!feed || feed.kind === 'none' || feed.kind === 'file') continue;
      w.done = true;
      this.runsScript(feed, w.lang, w.segment, w.depth, `${w.via} (written later to ${w.path})`, w.cwd);
    }
  }

  /** A shell builtin that changes the walk's state (cd, set --, export, alias, ...). */
  private builtinEffects(name: string, words: Word[], env: Env, prefix: { name: string; value: Word }[] = [], stdin: Feed = NONE): void {
    const argv = words.map((w) => w.text);
    switch (name) {
      case 'printf': {
        // printf -v NAME FORMAT ARGS: the variable holds what printf would print.
        const k = argv.indexOf('-v');
        if (k < 1 || !/^[A-Za-z_]\w*$/.test(argv[k + 1] ?? '')) return;
        const rest = words.slice(k + 2);
        const text = rest.some((w) => w.dynamic) ? undefined : printfOut(rest.map((w) => w.text));
        setVar(env, argv[k + 1], text === undefined ? { ...lit(''), dynamic: true } : lit(text));
        return;
      }
      case 'cd':
      case 'pushd':
      case 'popd': {
        if (name === 'popd') {
          const back = env.dirStack.pop();
          if (back) env.cwd = back;
          return;
        }
        let k = 1;
        while (k < argv.length && /^-[LPe@]+$/.test(argv[k])) k++;
        if (argv[k] === '--') k++;
        const t = words[k];
        const prev = env.cwd;
        if (!t) env.cwd = env.vars.get('HOME') ?? this.opts.home;
        else if (t.dynamic) return;
        else if (t.text === '-') {
          const old = env.vars.get('OLDPWD') ?? env.oldpwd;
          if (!old) return;
          env.cwd = old;
        } else if (/^[+-]\d+$/.test(t.text)) return;
        else {
          const cdpath = prefix.find((a) => a.name === 'CDPATH')?.value.text ?? env.vars.get('CDPATH');
          const relative = !t.text.startsWith('/') && !/^\.\.?(?:\/|$)/.test(t.text);
          const base = cdpath && relative ? cdpath.split(':').find((p) => p !== '') ?? env.cwd : env.cwd;
          env.cwd = posix.resolve(base, t.text);
          // In a folder the walk may be in instead, the same cd leads elsewhere (or fails and stays: kept).
          if (env.cwdAlts && !t.text.startsWith('/')) for (const a of env.cwdAlts) mayStayIn(env, posix.resolve(a, t.text));
        }
        if (name === 'pushd') {
          // A stack is copied into every subshell: past MAX_DIR_STACK the oldest entry goes.
          if (env.dirStack.length >= MAX_DIR_STACK) env.dirStack.shift();
          env.dirStack.push(prev);
        }
        env.oldpwd = prev;
        env.vars.delete('OLDPWD');
        return;
      }
      case 'set': {
        const dd = argv.indexOf('--');
        if (dd >= 0) env.positional = argv.slice(dd + 1);
        else if (argv.length > 1 && !argv[1].startsWith('-') && !argv[1].startsWith('+')) env.positional = argv.slice(1);
        return;
      }
      case 'shift':
        if (env.positional) env.positional = env.positional.slice(Number(argv[1] ?? 1) || 1);
        return;
      case 'export':
      case 'declare':
      case 'typeset':
      case 'local':
      case 'readonly': {
        // declare -n R=NAME: R is another name for NAME ($R reads NAME's value).
        const nameref = argv.slice(1).some((a) => /^-[a-zA-Z]*n/.test(a));
        // declare -l / -u: the variable's values are lower- or upper-cased on every assignment (`typeset -l X=RM; $X`); given both, bash keeps the first.
        const caseFlag = argv.slice(1).filter((a) => /^-[a-zA-Z]*[lu]/.test(a)).map((a) => a[a.slice(1).search(/[lu]/) + 1]).shift();
        const assoc = argv.slice(1).some((a) => /^-[a-zA-Z]*A/.test(a));
        for (const w of words.slice(1)) {
          if (caseFlag && /^[A-Za-z_]\w*(?:=|$)/.test(w.text)) env.vars.set(CASE_ATTR + w.text.split('=')[0], caseFlag);
          if (assoc && /^[A-Za-z_]\w*(?:=|$)/.test(w.text)) env.vars.set(arrayAssocOf(w.text.split('=')[0]), 'A');
          const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(w.text);
          if (!m) continue;
          if (w.dynamic) env.vars.delete(m[1]);
          else if (w.array) setVar(env, m[1], w);
          else if (nameref) {
            const target = /^[A-Za-z_]\w*$/.test(m[2]) ? (env.vars.get(m[2]) ?? ({ HOME: this.opts.home, PWD: env.cwd, TMPDIR: this.opts.tmp } as Record<string, string | undefined>)[m[2]]) : undefined;
            if (target === undefined) env.vars.delete(m[1]);
            else env.vars.set(m[1], target);
            if (/^[A-Za-z_]\w*$/.test(m[2]) && m[2] !== m[1]) env.vars.set(NAMEREF_OF + m[2], [...(env.vars.get(NAMEREF_OF + m[2])?.split(',') ?? []), m[1]].slice(-8).join(','));
          } else env.vars.set(m[1], casedValue(env, m[1], m[2]));
        }
        return;
      }
      case 'unset':
        for (const a of argv.slice(1)) if (!a.startsWith('-')) env.vars.delete(a);
        return;
      case 'read': {
        // `read -r a b <<< "text"`: fields of the first line, the last name taking the rest.
        const names: string[] = [];
        for (let k = 1; k < argv.length; k++) {
          if (/^-[^-]*[pdntuaNi]$/.test(argv[k])) k++;
          else if (!argv[k].startsWith('-') && /^[A-Za-z_]\w*$/.test(argv[k])) names.push(argv[k]);
        }
        const raw = argv.some((a) => /^-[a-zA-Z]*r/.test(a));
        const line = stdin.kind === 'static' ? stdin.text.split('\n')[0] : undefined;
        // `read -a NAME <<< "text"`: every field of the first line, as an array.
        const aAt = argv.findIndex((a) => /^-[a-zA-Z]*a$/.test(a));
        const arrayName = aAt > 0 ? argv[aAt + 1] : undefined;
        if (arrayName !== undefined && /^[A-Za-z_]\w*$/.test(arrayName) && !argv.some((a) => /^-[a-zA-Z]*d/.test(a))) {
          if (line === undefined) env.vars.delete(arrayName);
          else {
            const ifs = prefix.find((a) => a.name === 'IFS')?.value.text ?? env.vars.get('IFS') ?? ' \t\n';
            const fields = readFields(raw ? line : line.replace(/\\(.)/g, '$1'), ifs, MAX_LOOP_VALUES).filter((f, i, all) => f !== '' || i < all.length - 1);
            setVar(env, arrayName, { ...lit(fields[0] ?? ''), array: fields });
          }
          return;
        }
        if (line === undefined || names.length === 0 || argv.some((a) => /^-[a-zA-Z]*[ad]/.test(a))) {
          for (const a of names.length ? names : ['REPLY']) env.vars.delete(a);
          return;
        }
        const text = raw ? line : line.replace(/\\(.)/g, '$1');
        // `IFS=: read a b` splits at the IFS given to read itself.
        const ifs = prefix.find((a) => a.name === 'IFS')?.value.text ?? env.vars.get('IFS') ?? ' \t\n';
        const fields = readFields(text, ifs, names.length);
        names.forEach((n, i) => setVar(env, n, lit(fields[i] ?? '')));
        return;
      }
      case 'mapfile':
      case 'readarray': {
        // `mapfile -t NAME <<EOF`: one element per line of a known stdin (-t drops each line's end); the default name is MAPFILE.
        let name = 'MAPFILE';
        let simple = true;
        for (let k = 1; k < argv.length; k++) {
          if (/^-[^-]*[dnOsuCc]$/.test(argv[k])) {
            simple = false;
            k++;
          } else if (argv[k] === '-t') continue;
          else if (/^[A-Za-z_]\w*$/.test(argv[k])) name = argv[k];
          else simple = false;
        }
        if (!simple || stdin.kind !== 'static') {
          env.vars.delete(name);
          return;
        }
        const strip = argv.includes('-t');
        const lines = stdin.text.split('\n');
        if (lines[lines.length - 1] === '') lines.pop();
        const items = lines.slice(0, MAX_LOOP_VALUES).map((l) => (strip ? l : l + '\n'));
        setVar(env, name, { ...lit(items[0] ?? ''), array: items });
        return;
      }
      case 'alias':
        for (const w of words.slice(1)) {
          const m = /^([^=\s]+)=(.*)$/s.exec(w.text);
          if (m) env.aliases.set(m[1], m[2]);
        }
        return;
      case 'unalias':
        for (const a of argv.slice(1)) env.aliases.delete(a);
        return;
    }
  }

  /** Runs the rules over one simple command and follows what it runs; returns what it writes to stdout. */
  analyzeCommand(c: SimpleCommand, depth: number, via: string, cwd: string, pipe: SimpleCommand[], vars: Map<string, string>, io: RunIO = { stdin: NONE }): Feed {
    const words = c.words;
    if (words.length === 0) {
      this.checkRedirects(c, cwd, '');
      return NONE;
    }
    const argv = words.map((w) => w.text);
    const segment = quoteArgv(argv);
    if (depth > MAX_WRAP_DEPTH) {
      this.hit('unparseable', 'ask', segment.slice(0, 80), `wrapped more than ${MAX_WRAP_DEPTH} levels deep`);
      return { kind: 'runtime', why: 'too deep' };
    }
    work.units += COST.command;
    if (overBudget()) {
      this.exhaust(segment);
      return { kind: 'runtime', why: 'not analyzed' };
    }
    this.commands.push({ argv, depth, via });
    if (words[0].dynamic) {
      if (words[0].text.startsWith('\u0000procsub')) return { kind: 'runtime', why: 'a process substitution' };
      const feed = this.dynamicFeed(words[0], io.stdin, 'the command name is only known when it runs');
      if (feed.kind === 'download') this.hit('pipe-download-to-interpreter', 'deny', segment, `runs a command downloaded by ${feed.by}`);
      else this.hit('dynamic-command', 'ask', segment, 'the command name is only known when it runs');
      return { kind: 'runtime', why: 'a command only known at run time' };
    }
    // A glob in the command name runs whatever it matches: match it against the dangerous names.
    if (words[0].glob && !words[0].quoted) {
      const pattern = posix.basename(argv[0]);
      const names = GLOB_CANDIDATES.filter((n) => globMatch(pattern, n)).slice(0, 4);
      for (const n of names) this.analyzeCommand({ ...c, words: [{ ...words[0], text: n, glob: false }, ...words.slice(1)] }, depth, `${via} > glob ${argv[0]}`, cwd, pipe, vars, io);
      if (names.length) return { kind: 'runtime', why: 'a globbed command' };
    }
    let name = posix.basename(argv[0]);
    // zsh's `=rm` is the path of rm; a name or copy made earlier on the line runs the program it names.
    const zshPath = /^=[\w.+-]+$/.test(argv[0]) ? argv[0].slice(1) : undefined;
    const aliased = zshPath ?? this.programAliases.get(argv[0].includes('/') ? posix.resolve(cwd, argv[0]) : argv[0]);
    if (aliased && aliased !== argv[0] && depth < MAX_WRAP_DEPTH) {
      return this.analyzeCommand({ ...c, words: [{ ...words[0], text: aliased }, ...words.slice(1)] }, depth + 1, `${via} > ${argv[0]} (${aliased})`, cwd, pipe, vars, io);
    }
    this.noteProgramCopies(name, argv, cwd);
    // `deno run npm:rimraf ~` runs the package's command, as npx does.
    if (name === 'deno' && argv[1] === 'run' && depth < MAX_WRAP_DEPTH) {
      let k = 2;
      while (k < argv.length && argv[k].startsWith('-') && argv[k] !== '-') k += DENO_RUN_ARG_OPTIONS.includes(argv[k]) ? 2 : 1;
      if (argv[k]?.startsWith('npm:')) return this.analyzeCommand({ ...c, words: [lit(packageCommand(argv[k].slice(4))), ...words.slice(k + 1)] }, depth + 1, `${via} > deno run ${argv[k]}`, cwd, pipe, vars, { ...io, viaPackageRunner: true });
    }
    // Deleting packages run through a package runner (npx rimraf ~) are rm -rf.
    const pkg = Object.hasOwn(DELETING_PACKAGES, name) ? DELETING_PACKAGES[name] : undefined;
    if (pkg && (io.viaPackageRunner || name === 'rimraf' || name === 'del-cli')) {
      return this.analyzeCommand({ ...c, words: [...pkg.map(lit), ...words.slice(1)] }, depth, `${via} > ${name}`, cwd, pipe, vars, { ...io, viaPackageRunner: false });
    }
    const rctx: RuleContext = { analyzer: this, opts: this.opts, cmd: c, words, argv, name, segment, cwd, pipe, depth, via, vars, stdin: io.stdin, fileFeed: (p) => io.env?.files.get(posix.resolve(cwd, p)), fetchedBy: (p) => this.fetchedBy(posix.resolve(cwd, p), io) };
    this.checkRedirects(c, cwd, segment);
    for (const rule of RULES) rule(rctx);
    if (own(FILE_DESTROYERS, name)) this.listedOperands(rctx, words);
    if (overBudget()) {
      this.exhaust(segment);
      return { kind: 'runtime', why: 'not analyzed' };
    }
    customRuleHits(this, argv, segment, io.stdin?.kind === 'static' ? io.stdin.text : undefined);
    const env = io.env;
    if (env) this.builtinEffects(name, words, env, c.assignments, io.stdin);
    if (ENV_LOADERS.has(name)) {
      // `export PS4='$(...)'`, `declare -x PROMPT_COMMAND=...`: code the shell runs later (tables/env-code.ts).
      for (const w of words.slice(1)) {
        const m = envAssignment(w.text);
        if (m) this.envCode(m.name, { ...w, text: m.value }, cwd, depth, via, segment);
      }
      // `export -f NAME` (`declare -fx NAME`): every child shell gets the function and runs it by that name.
      const opts = argv.slice(1).filter((a) => a.startsWith('-'));
      const exportsFns = opts.some((a) => /^-[a-zA-Z]*f/.test(a)) && (name === 'export' || opts.some((a) => /^-[a-zA-Z]*x/.test(a)));
      if (exportsFns && env) for (const fn of argv.slice(1).filter((a) => !a.startsWith('-') && env.funcs.has(a)).slice(0, 8)) this.analyzeSource(quoteArgv([fn]), depth + 1, `${via} > export -f ${fn}`, cwd, undefined, { env: this.fork(env) });
    }
    // `command -v NAME` prints where NAME is; it runs nothing (the wrapper table would read it as `command NAME`).
    const leading = argv.slice(1, Math.max(1, argv.findIndex((x, i) => i > 0 && !x.startsWith('-')))).filter((x) => x.startsWith('-'));
    if ((name === 'command' && leading.some((x) => /^-[a-zA-Z]*[vV]/.test(x))) || (name === 'type' && leading.some((x) => /^-[a-zA-Z]*[pP]/.test(x)))) {
      return outputOf(name, words, { stdin: io.stdin, fileFeed: () => undefined, procsubFeed: () => ({ kind: 'runtime', why: '' }), toplevel: within(cwd, this.opts.projectDir) ? this.opts.projectDir : undefined });
    }
    if (name === 'direnv' && argv[1] === 'exec' && argv[2]) this.runsScript(this.scriptFeed(lit(posix.join(argv[2], '.envrc')), io, cwd), 'sh', segment, depth, `${via} > direnv exec (.envrc)`, cwd);
    this.loadedCode(c, name, cwd, io, depth, via, segment, vars);
    // A program written on the line and run by its path (/tmp/sh, ./git): that file runs, whatever its name says.
    // (Before its name is read: the wrappers and shells below would take /tmp/sh for sh.)
    if (env && argv[0].includes('/')) {
      const path = posix.resolve(cwd, argv[0].replace(/^~(?=\/|$)/, this.opts.home));
      const written = env.files.get(path);
      if (written) this.runsScript(written, 'sh', segment, depth, `${via} > ${argv[0]}`, cwd, argv.slice(1));
      else {
        // A script already on disk, run by its path (./clean.sh): a shell runs its text.
        const text = diskScript(path, this);
        if (text !== undefined && isShellScript(text)) this.runsScript({ kind: 'static', text }, 'sh', segment, depth, `${via} > ${argv[0]}`, cwd, argv.slice(1));
      }
    } else if (env && env.files.size) {
      // A program written on the line into a folder searched first (PATH=/tmp/x:$PATH ls, or ~/.local/bin, which
      // the usual profiles put first): the bare name runs that file.
      const path = c.assignments.find((a) => a.name === 'PATH')?.value.text ?? vars.get('PATH');
      const known = path === undefined ? [] : path.split(':').slice(0, 16);
      const cut = known.findIndex((d) => d.includes('\u0000'));
      const dirs = [...(cut < 0 ? known : known.slice(0, cut)), posix.join(this.opts.home, '.local/bin'), posix.join(this.opts.home, 'bin')];
      for (const dir of dirs) {
        const written = dir ? env.files.get(posix.resolve(cwd, dir.replace(/^~(?=\/|$)/, this.opts.home), argv[0])) : undefined;
        if (written) {
          this.runsScript(written, 'sh', segment, depth, `${via} > ${posix.join(dir, argv[0])} (found on PATH)`, cwd, argv.slice(1));
          break;
        }
      }
    }
    const inner = this.unwrap(rctx, io);
    if (inner) return inner;
    if (env && name !== 'cd') {
      // Files downloaded on the line: running them later is running the download.
      if (name === 'curl' || name === 'wget') for (const f of downloadedFiles(name, argv)) env.files.set(posix.resolve(cwd, f), { kind: 'download', by: name });
      if ((name === 'mkfifo' || (name === 'mknod' && argv.includes('p'))) && this.fifos.size < 16) for (const a of argv.slice(1, name === 'mknod' ? 2 : undefined)) if (!a.startsWith('-') && !a.includes('\u0000')) this.fifos.add(posix.resolve(cwd, a));
      this.noteDownloadedDirs(name, argv, cwd, io, env);
      // `npm pkg set scripts.NAME=TEXT`: package.json gets that script (what a later `npm run NAME` runs).
      if (name === 'npm' && argv[1] === 'pkg' && argv[2] === 'set') {
        const path = posix.resolve(cwd, 'package.json');
        const before = env.files.get(path);
        let pkg: { scripts?: Record<string, string> } = {};
        try {
          if (before?.kind === 'static') pkg = JSON.parse(before.text) as typeof pkg;
        } catch {
          pkg = {};
        }
        let set = false;
        for (const w of words.slice(3)) {
          const m = /^scripts\.([^=]+)=([\s\S]*)$/.exec(w.text);
          if (!m || w.dynamic || typeof pkg !== 'object' || pkg === null) continue;
          pkg.scripts = { ...(typeof pkg.scripts === 'object' && pkg.scripts ? pkg.scripts : {}), [m[1]]: m[2] };
          set = true;
        }
        if (set) env.files.set(path, { kind: 'static', text: JSON.stringify(pkg) });
      }
      if (name === 'tee') {
        for (const w of words.slice(1)) {
          if (w.text.startsWith('-') || w.dynamic) continue;
          env.files.set(posix.resolve(cwd, w.text), io.stdin);
          this.contentWritten(posix.resolve(cwd, w.text), io.stdin, cwd);
        }
      }
      // find -fprint / -fprintf / -fls FILE write the matches (a script of them with -fprintf 'rm -rf %p'): known only at run time.
      if (name === 'find' || name === 'gfind') {
        for (let k = 1; k < argv.length - 1; k++) {
          if (!/^-f(?:print0?|printf|ls)$/.test(argv[k]) || words[k + 1].dynamic) continue;
          env.files.set(posix.resolve(cwd, argv[k + 1]), { kind: 'runtime', why: `the output of find ${argv[k]}` });
          this.writesPath(argv[k + 1], cwd, segment);
        }
      }
      if (name === 'dd') for (const a of argv.slice(1)) if (a.startsWith('of=') && !a.includes('\u0000')) env.files.set(posix.resolve(cwd, a.slice(3)), argv.some((x) => x.startsWith('if=')) ? { kind: 'runtime', why: 'dd of a file' } : io.stdin);
      if ((name === 'cp' || name === 'mv' || name === 'install') && words.length >= 3) {
        // The source may be stdin (`cp /dev/stdin f <<< text`) or a process substitution.
        const from = words[words.length - 2];
        const src = STDIN_PATHS.has(from.text) ? io.stdin : from.text.startsWith('\u0000procsub:<(') ? io.procsubs?.get(from) : env.files.get(posix.resolve(cwd, from.text));
        if (src) env.files.set(posix.resolve(cwd, argv[argv.length - 1]), src);
      }
    }
    name = posix.basename(argv[0]);
    return outputOf(name, words, {
      stdin: io.stdin,
      fileFeed: (p) => env?.files.get(posix.resolve(cwd, p)),
      procsubFeed: (w) => io.procsubs?.get(w) ?? { kind: 'runtime', why: 'a process substitution' },
      toplevel: within(cwd, this.opts.projectDir) ? this.opts.projectDir : undefined,
    });
  }

  /** The redirections of a compound command (`{ ...; } > f`, `( ... ) 1<> f`, `done > f`): judged as a simple command's are. */
  private checkCompoundRedirects(redirs: RedirNode[], targets: (Word | undefined)[], cwd: string, label: string): void {
    const list = redirs.flatMap((r, i) => (r.heredoc || !targets[i] ? [] : [{ op: r.op, target: targets[i]!, fd: r.fd }]));
    // Its body writes what it writes, so the file is not merely emptied (words stand for that body).
    if (list.length) this.checkRedirects({ words: [lit(label)], assignments: [], redirects: list, pipeline: 0, stage: 0, background: false } as SimpleCommand, cwd, `${label} ${redirs.map((r, i) => `${r.op}${targets[i]?.text ?? ''}`).join(' ')}`);
  }

  private checkRedirects(c: SimpleCommand, cwd: string, segment: string): void {
    // Once per command, not per redirection: a command of 40,000 `a>b` was 40,000 x 40,000 word reads.
    const empties = emptiesFile(c);
    // The same redirection twice is judged once.
    const seen = new Set<string>();
    for (const r of c.redirects) {
      if (r.op === '<<<') continue;
      const key = `${r.op}\0${r.target.dynamic ? '\u0001' : ''}${r.target.text}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (r.op === '<' || r.op === '<>') {
        // A target only partly known is judged by what is known of it (`< /proc/$PPID/environ` is another process's environment).
        if (!r.target.dynamic || r.target.text.includes('\u0000')) this.readsPath(r.target.text, cwd, segment || `< ${r.target.text}`);
        // `<>` opens for writing too: `{ echo x; } 1<>settings.json` overwrites it in place.
        if (r.op === '<' || r.target.dynamic || /^\d+$/.test(r.target.text)) continue;
        this.writesPath(r.target.text, cwd, segment || `<> ${r.target.text}`, {});
        continue;
      }
      if (r.target.dynamic || r.target.text === '' || /^\d+$/.test(r.target.text) || r.target.text === '-') continue;
      this.writesPath(r.target.text, cwd, segment || `> ${r.target.text}`, { append: r.op === '>>' });
      // `> f`, `: > f`, `cat /dev/null > f`: the file is emptied (a file in home outside the project too: it is lost).
      if ((r.op === '>' || r.op === '>|') && empties) destroysFile(this, r.target.text, cwd, segment || `> ${r.target.text}`, { verb: 'empties', home: true });
      if (isBlockDevice(r.target.text)) this.hit('disk-destroy', 'deny', segment || `> ${r.target.text}`, `writes straight to the block device ${r.target.text}`);
    }
  }

  /**
   * A destroyer whose operands a listing prints (`rm -f $(find . -name journal.log)`, `shred $(git ls-files -o -i)`):
   * the paths are the listing's, judged as `find ... -delete` and `git ls-files ... | xargs rm` are.
   */
  private listedOperands(r: RuleContext, words: Word[]): void {
    for (const w of words.slice(1)) {
      for (const sub of w.subs ?? []) {
        const argv = simpleArgv(sub.src);
        if (!argv.length) continue;
        if (posix.basename(argv[0]) === 'find') judgeFindDeletes(r, argv, `${r.name} $(find …)`);
        else if (posix.basename(argv[0]) === 'git' && argv.includes('ls-files')) this.lsFilesDeleted(r, argv, `${r.name} $(git ls-files …)`);
      }
    }
  }

  /** `git ls-files` output deleted: every tracked file, or (with --others and ignored files listed) loom's own state, which the project ignores. */
  lsFilesDeleted(r: RuleContext, argv: string[], how: string): void {
    if (listsEveryTrackedFile(argv)) this.hit('rm-recursive-project-root', 'deny', r.segment, `deletes every tracked file of the project (${how})`);
    const others = argv.some((a) => a === '--others' || /^-[a-zA-Z]*o/.test(a));
    const ignored = argv.some((a) => a === '--ignored' || /^-[a-zA-Z]*i/.test(a)) || !argv.some((a) => a.startsWith('--exclude'));
    if (others && ignored) this.hit('modify-loom', 'deny', r.segment, `deletes the files git ignores (${how}), loom's ledger among them`);
  }

  /** A shell or interpreter whose script comes from a substitution: deny when that substitution downloads. */
  markRunsSubstitution(segment: string, name: string): void {
    const nested = this.nestedStack[this.nestedStack.length - 1] ?? [];
    const dl = nested.find(isDownloadSource);
    if (dl) this.hit('pipe-download-to-interpreter', 'deny', segment, `${name} runs a script downloaded by \`${dl.trim().slice(0, 60)}\``);
  }

  /** Sources of the substitutions on the line being analysed ($(...), <(...)). */
  currentNested(): string[] {
    return this.nestedStack[this.nestedStack.length - 1] ?? [];
  }

  readsPath(path: string, cwd: string, segment: string): void {
    readsPath(this, path, cwd, segment);
  }

  writesPath(path: string, cwd: string, segment: string, o: { append?: boolean } = {}): void {
    writesPath(this, path, cwd, segment, o);
  }

  /**
   * A script fed to a shell (lang 'sh') or an interpreter: a static text is
   * analyzed as a script; a text known only at run time asks; a download is
   * denied.
   */
  /**
   * A variable set to code a shell runs later (tables/env-code.ts): a prompt
   * string's substitutions, PROMPT_COMMAND, an exported function's body. A
   * known value is judged where it is set; one only known at run time asks.
   */
  private envCode(name: string, value: Word, cwd: string, depth: number, via: string, segment: string): void {
    const fn = exportedFunctionName(name);
    const spec = fn === undefined && Object.hasOwn(ENV_CODE, name) ? ENV_CODE[name] : undefined;
    if (fn === undefined && !spec) return;
    const how = `${via} > ${name}=`;
    if (value.dynamic && !value.array) {
      // A downloaded value is the download run; another run-time value asks.
      if (fn !== undefined || spec?.runs === 'script') this.runsScript(this.dynamicFeed(value, NONE, `${name}, code the shell runs (${fn !== undefined ? `the exported function ${fn}` : spec!.when}), set to a value only known at run time`), 'sh', segment, depth, how, cwd);
      return;
    }
    if (fn !== undefined) {
      // The value is `() { BODY; }`: bash defines the function in every child shell, which runs it by that name.
      if (/^\(\)\s*[{(]/.test(value.text)) this.analyzeSource(`__loom_exported_fn${value.text}\n__loom_exported_fn`, depth + 1, `${how} (exported function ${fn})`, cwd, new Map());
      return;
    }
    if (spec!.runs === 'script') {
      for (const text of value.array ?? [value.text]) this.analyzeSource(text, depth + 1, how, cwd, new Map());
      return;
    }
    // A prompt is expanded as an unquoted here-document body is: its $(...) and backticks run, quotes stay literal.
    let end = 'LOOM_PROMPT';
    while (value.text.includes(end)) end += '_';
    if (/[$`]/.test(value.text)) this.analyzeSource(`: <<${end}\n${value.text}\n${end}\n`, depth + 1, how, cwd, new Map());
  }

  runsScript(feed: Feed, lang: string, segment: string, depth: number, via: string, cwd: string, positional?: string[]): void {
    switch (feed.kind) {
      case 'static':
        if (lang === 'sh') this.analyzeSource(feed.text, depth + 1, via, cwd, undefined, { positional });
        else {
          // A script the line wrote, run by its interpreter (`cat > run.py <<EOF ... EOF; python3 run.py`): read in its language.
          const spec = interpreterOf(lang);
          if (spec) analyzeInterpreterCode(spec.lang, feed.text, { analyzer: this, cwd, depth: depth + 1, via, segment });
          else this.scanCode(feed.text, depth, via, cwd);
        }
        return;
      case 'runtime':
        this.hit('dynamic-command', 'ask', segment, `${lang === 'sh' ? 'a shell' : lang} runs a script only known at run time (${feed.why})`);
        if (lang === 'sh' && feed.text !== undefined) this.analyzeWithPlaceholders(feed.text, depth, via, cwd, { positional, stdin: NONE });
        return;
      case 'download':
        this.hit('pipe-download-to-interpreter', 'deny', segment, `${lang === 'sh' ? 'a shell' : lang} runs what ${feed.by} downloads`);
        return;
      case 'file': {
        const path = posix.resolve(cwd, feed.path);
        if ((this.inBackground > 0 || this.fifos.has(path)) && this.waitingReaders.length < 16) this.waitingReaders.push({ path, lang, segment, depth, via, cwd });
        return;
      }
      case 'program':
        // Only a known generator of shell code (tables/generators.ts) prints code meant to be run.
        if (!isShellCodeGenerator(feed.argv ?? [feed.name])) this.hit('dynamic-command', 'ask', segment, `${lang === 'sh' ? 'a shell' : lang} runs the output of ${feed.name}, code only known at run time (not a known generator of shell code)`);
        return;
      default:
    }
  }

  /**
   * A script partly known only at run time (`bash -c "cd $D && rm -rf ~"`) already asks; its
   * static parts are analysed too, each run-time part standing for any text, so a dangerous
   * static command in it is denied.
   */
  private analyzeWithPlaceholders(text: string, depth: number, via: string, cwd: string, io: { positional?: string[]; stdin: Feed }): void {
    const src = text.replace(/\u0000procsub:.\(/g, '\u0000');
    if (src.replace(/\u0000/g, '').trim() === '') return;
    this.analyzeSource(src, depth + 1, `${via} (run-time parts as placeholders)`, cwd, new Map(), io);
  }

  /** The script a shell-like command reads from a file operand: a file written on the line, a process substitution, stdin. */
  private scriptFeed(w: Word, io: RunIO, cwd: string): Feed {
    if (STDIN_PATHS.has(w.text)) return io.stdin;
    const fd = /^\/(?:dev\/fd|proc\/self\/fd|proc\/\$\$\/fd)\/(\d+)$/.exec(w.text);
    if (fd) return io.fds?.get(Number(fd[1])) ?? { kind: 'runtime', why: `a script read from descriptor ${fd[1]}` };
    if (w.text.startsWith('\u0000procsub:<(')) return io.procsubs?.get(w) ?? { kind: 'runtime', why: 'a process substitution' };
    // "$DIR/script.sh" is a script file; only a substitution can hand over text.
    if (w.dynamic) return w.subs?.length ? this.dynamicFeed(w, io.stdin, 'a script named at run time') : { kind: 'file', path: w.text };
    const abs = posix.resolve(cwd, w.text.replace(/^~(?=\/|$)/, this.opts.home));
    const by = io.env?.files.has(abs) ? undefined : this.downloadedBy(abs);
    const written = io.env?.files.get(abs);
    if (written || by) return written ?? { kind: 'download', by: by! };
    // A script already on disk: its text is what the shell reads.
    const text = diskScript(abs, this);
    return text !== undefined ? { kind: 'static', text } : { kind: 'file', path: w.text };
  }

  /** `hash -p /bin/rm ls`, `ln -s /usr/bin/rm x`, `cp /bin/rm ./tidy`: the new name runs that program. */
  private noteProgramCopies(name: string, argv: string[], cwd: string): void {
    if (this.programAliases.size > 32) return;
    const system = (p: string) => /^\/(?:usr\/)?(?:local\/)?s?bin\/[\w.+-]+$/.test(p) || /^\/(?:usr\/)?lib\/[\w./+-]*\/[\w.+-]+$/.test(p);
    if (name === 'hash') {
      const at = argv.indexOf('-p');
      if (at > 0 && argv[at + 1] && argv[at + 2]) this.programAliases.set(argv[at + 2], posix.basename(argv[at + 1]));
      return;
    }
    if (name !== 'ln' && name !== 'cp' && name !== 'install') return;
    const ops = argv.slice(1).filter((a) => !a.startsWith('-'));
    if (ops.length < 2) return;
    const dest = posix.resolve(cwd, ops[ops.length - 1]);
    for (const src of ops.slice(0, -1)) {
      if (!system(src)) continue;
      const prog = posix.basename(src);
      this.programAliases.set(dest, prog);
      this.programAliases.set(posix.join(dest, prog), prog);
    }
  }

  /** The program that filled the folder holding `abs` from the network on this line, if one did. */
  /** The file a bare command name runs, among those written on the line, looked up along PATH (as set on the line, or the usual folders). */
  private onPath(name: string, env: Env, cwd: string): [string, Feed] | undefined {
    const set = env.vars.get('PATH');
    const dirs = set !== undefined ? set.split(':').slice(0, 32) : DEFAULT_PATH_DIRS;
    for (const d of dirs) {
      if (d === '' || d.includes('\u0000')) continue;
      const dir = d === '~' || d.startsWith('~/') ? this.opts.home + d.slice(1) : d;
      const path = posix.resolve(cwd, dir, name);
      const feed = env.files.get(path);
      if (feed && feed.kind !== 'none') return [path, feed];
    }
    // PATH set on the line to a value only known at run time (`export PATH=/tmp/t:$PATH`): a download of that name anywhere is what runs.
    // (A folder an archive was extracted into is not searched: which names it holds is not known.)
    if (set === undefined) for (const [path, feed] of env.files) if (feed.kind === 'download' && posix.basename(path) === name) return [path, feed];
    return undefined;
  }

  private fetchedBy(abs: string, io: RunIO): string | undefined {
    const f = io.env?.files.get(abs);
    if (f) return f.kind === 'download' ? f.by : undefined;
    return this.downloadedBy(abs) ?? ((downloadedOnLine.get(this)?.has(abs) ?? false) ? 'a download' : undefined);
  }

  private downloadedBy(abs: string): string | undefined {
    for (const [dir, by] of this.downloadedDirs) if (within(abs, dir)) return by;
    return undefined;
  }

  /** git clone URL DIR, scp HOST:PATH DIR, a download extracted by tar or unzip: the folder now holds fetched code. */
  private noteDownloadedDirs(name: string, argv: string[], cwd: string, io: RunIO, env: Env): void {
    if (this.downloadedDirs.size > 32) return;
    const ops = (from: number, withArg: RegExp) => {
      const out: string[] = [];
      for (let k = from; k < argv.length; k++) {
        if (argv[k] === '--') {
          out.push(...argv.slice(k + 1));
          break;
        }
        if (argv[k].startsWith('-')) {
          if (withArg.test(argv[k])) k++;
          continue;
        }
        out.push(argv[k]);
      }
      return out;
    };
    const remote = (x: string) => /^(?:[a-z][a-z0-9+.-]*:\/\/|[^/:]+@?[^/:]*:)/i.test(x) && !x.startsWith('./');
    if (name === 'git') {
      const at = argv.indexOf('clone');
      if (at < 0) return;
      const o = ops(at + 1, /^(?:-b|--branch|-o|--origin|--depth|-c|--config|--reference|--reference-if-able|--template|-u|--upload-pack|--separate-git-dir|-j|--jobs|--filter|--shallow-since|--shallow-exclude|--server-option|--bundle-uri)$/);
      const url = o[0];
      if (!url || !remote(url)) return;
      const dir = o[1] ?? url.replace(/\/+$/, '').replace(/\.git$/, '').split(/[/:]/).pop() ?? '';
      if (dir && !dir.includes('\u0000')) this.downloadedDirs.set(posix.resolve(cwd, dir), 'git clone');
      return;
    }
    if (name === 'scp' || name === 'rsync' || name === 'sftp') {
      const o = ops(1, /^-[A-Za-z]*[iFPlocSJeT]$|^--(?:rsh|exclude|include|filter|port|chmod)$/);
      if (o.length >= 2 && o.slice(0, -1).some(remote) && !remote(o[o.length - 1])) {
        const dest = posix.resolve(cwd, o[o.length - 1]);
        this.downloadedDirs.set(dest, name);
        env.files.set(dest, { kind: 'download', by: name });
      }
      return;
    }
    const extracting = (name === 'tar' || name === 'bsdtar' || name === 'gtar') && argv.some((x, i) => x === '-x' || x === '--extract' || (i === 1 && /^-?[A-Za-z]*x/.test(x) && !x.startsWith('--')) || /^-[A-Za-z]*x[A-Za-z]*$/.test(x));
    if (extracting || name === 'unzip' || name === '7z' || name === 'bsdtar') {
      const fIdx = argv.findIndex((x, i) => i > 0 && (x === '-f' || x === '--file' || (/^-?[A-Za-z]*f$/.test(x) && !x.startsWith('--'))));
      const archive = name === 'unzip' ? ops(1, /^-[dPx]$/)[0] : name === '7z' ? ops(2, /^$/)[0] : fIdx > 0 ? argv[fIdx + 1] : undefined;
      const fromNet = archive === undefined || archive === '-' ? io.stdin.kind === 'download' : env.files.get(posix.resolve(cwd, archive))?.kind === 'download';
      if (!fromNet) return;
      const d = argv.findIndex((x) => x === '-C' || x === '--directory' || x === '-d');
      const o7 = argv.find((x) => name === '7z' && x.startsWith('-o'));
      const dir = d > 0 ? argv[d + 1] : o7 ? o7.slice(2) : '.';
      this.downloadedDirs.set(posix.resolve(cwd, dir ?? '.'), `the download extracted by ${name}`);
    }
  }

  private unwrap(r: RuleContext, io: RunIO): Feed | undefined {
    const { argv, name, depth, via, cwd, words } = r;
    const env = io.env;
    const next = (rest: Word[], how: string, extra?: Partial<RunIO>, dir = cwd, assignments: SimpleCommand['assignments'] = []): Feed | undefined => {
      if (rest.length === 0) return undefined;
      const c2: SimpleCommand = { ...r.cmd, words: rest, assignments, redirects: [] };
      return this.analyzeCommand(c2, depth + 1, `${via} > ${how}`, dir, r.pipe, r.vars, { ...io, ...extra });
    };
    // Programs that run a command given in an option, a config value, the environment or a recipe (launchers.ts).
    const env1 = (v: string) => r.cmd.assignments.find((a) => a.name === v)?.value.text ?? r.vars.get(v);
    for (const l of launchesOf({ name, argv, cwd, home: this.opts.home, env: env1 })) this.runLaunch(l, r, io);
    if (SHELLS.has(name) || (name === 'busybox' && (argv[1] === 'sh' || argv[1] === 'ash'))) {
      // BASH_ENV (bash) / ENV (sh in POSIX mode) names a file every non-interactive shell runs first (`direnv exec`: DIR/.envrc).
      for (const v of ['BASH_ENV', 'ENV']) {
        const set = r.cmd.assignments.find((a) => a.name === v)?.value;
        // BASH_ENV=<(echo ...): the file is the process substitution's output, the text it prints is the script.
        if (set?.text.startsWith('\u0000procsub:<(')) {
          this.runsScript((set.subOut?.[0] as Feed | undefined) ?? { kind: 'runtime', why: 'a process substitution' }, 'sh', r.segment, depth, `${via} > ${v}=<(...)`, cwd);
          continue;
        }
        if (set?.dynamic) {
          this.runsScript(this.dynamicFeed(set, io.stdin, `${v} names a file only known at run time`), 'sh', r.segment, depth, `${via} > ${v}=`, cwd);
          continue;
        }
        const file = set?.text ?? r.vars.get(v);
        if (file) this.runsScript(this.scriptFeed(lit(file), io, cwd), 'sh', r.segment, depth, `${via} > ${v}=${file}`, cwd);
      }
      const from = name === 'busybox' ? 2 : 1;
      let code: Word | undefined;
      let readStdin = false;
      let k = from;
      for (; k < argv.length; k++) {
        const a = argv[k];
        if (a === '--' || a === '-') {
          if (a === '--') k++;
          break;
        }
        if (/^--(?:rcfile|init-file)$/.test(a)) {
          // The file an interactive shell runs first (`bash --rcfile <(echo ...) -i`).
          const rc = words[k + 1];
          if (rc) this.runsScript(this.scriptFeed(rc, io, cwd), 'sh', r.segment, depth, `${via} > ${name} ${a}`, cwd);
          k++;
          continue;
        }
        if (a.startsWith('--')) continue;
        if (!/^[-+][A-Za-z]+$/.test(a)) break;
        if (a[0] === '-' && a.includes('c')) code = lit('');
        if (a[0] === '-' && a.includes('s')) readStdin = true;
        // -o OPTION / +O OPTION take an argument.
        if (/[oO]$/.test(a)) k++;
      }
      const operands = words.slice(k);
      if (code) {
        const script = operands[0];
        if (!script) return undefined;
        const positional = operands.slice(2).map((w) => w.text);
        if (script.dynamic) {
          const feed = this.dynamicFeed(script, io.stdin, 'a script only known at run time');
          this.runsScript(feed, 'sh', r.segment, depth, `${via} > ${name} -c`, cwd, positional);
          if (feed.kind !== 'static') this.analyzeWithPlaceholders(script.text, depth, `${via} > ${name} -c`, cwd, { positional, stdin: io.stdin });
        } else {
          if (spawnsItself(script.text)) this.hit('fork-bomb', 'deny', r.segment, `${name} -c runs its own text again in the background or a pipe: a fork bomb`);
          this.analyzeSource(name === 'fish' ? fishToPosix(script.text) : script.text, depth + 1, `${via} > ${name} -c`, cwd, new Map(), { positional, arg0: operands[1] && !operands[1].dynamic ? operands[1].text : operands[1] ? undefined : name, stdin: io.stdin });
        }
        return { kind: 'runtime', why: `the output of ${name} -c` };
      }
      if (readStdin || operands.length === 0) this.runsScript(io.stdin, 'sh', r.segment, depth, `${via} > ${name} <stdin`, cwd, operands.map((w) => w.text));
      else {
        const feed = this.scriptFeed(operands[0], io, cwd);
        if (feed.kind === 'static' && spawnsItself(feed.text, operands[0].text)) this.hit('fork-bomb', 'deny', r.segment, `the script ${operands[0].text} starts itself again in the background or a pipe: a fork bomb`);
        this.runsScript(feed, 'sh', r.segment, depth, `${via} > ${name} ${quoteArgv([operands[0].text])}`, cwd, operands.slice(1).map((w) => w.text));
      }
      return { kind: 'runtime', why: `the output of ${name}` };
    }
    if (name === 'source' || name === '.') {
      const file = words[1];
      if (!file) return undefined;
      if (/^\.env(?:\.|$)/.test(posix.basename(file.text)) && !/\.(?:example|sample|template)$/.test(file.text)) this.secretsLoaded = true;
      const feed = this.scriptFeed(file, io, cwd);
      // A sourced script runs in this shell: what it sets stays set.
      if (feed.kind === 'static') this.analyzeSource(feed.text, depth + 1, `${via} > ${name}`, cwd, undefined, { env, stdin: io.stdin });
      else this.runsScript(feed, 'sh', r.segment, depth, `${via} > ${name}`, cwd);
      return undefined;
    }
    if (name === 'eval') {
      const args = words.slice(1);
      const dyn = args.find((w) => w.dynamic);
      if (dyn) {
        const feed = this.dynamicFeed(dyn, io.stdin, 'eval of a value only known at run time');
        this.runsScript(feed, 'sh', r.segment, depth, `${via} > eval`, cwd);
        if (feed.kind !== 'static') this.analyzeWithPlaceholders(args.map((w) => w.text).join(' '), depth, `${via} > eval`, cwd, { stdin: io.stdin });
      } else this.analyzeSource(args.map((w) => w.text).join(' '), depth + 1, `${via} > eval`, cwd, undefined, { env, stdin: io.stdin });
      return undefined;
    }
    this.programEscapes(r, io);
    this.patchWrites(r, io);
    if (name === 'git') return this.gitAlias(r, io);
    if (name === 'awk' || name === 'gawk' || name === 'mawk' || name === 'nawk' || name === 'busybox-awk') {
      this.awkCommands(r);
      return undefined;
    }
    const u = unwrapArgv(name, argv);
    // The folder the wrapped command runs in (`env -C /`, `sudo -D DIR`, `npm --prefix DIR exec`): the row's chdir options.
    const dir = u.kind === 'none' ? cwd : wrappedCwd(u.spec, argv.slice(1, u.kind === 'code' ? u.rest : u.kind === 'stdin' ? argv.length : u.start), cwd, this.opts.home, posix.resolve);
    switch (u.kind) {
      case 'argv': {
        let rest = u.program !== undefined ? [lit(u.program), ...words.slice(u.start)] : words.slice(u.start);
        if (u.spec.packageSpec && rest[0]) rest = [{ ...rest[0], text: packageCommand(rest[0].text) }, ...rest.slice(1)];
        if (u.spec.envPrefix && rest[0]) rest = [{ ...rest[0], text: rest[0].text.replace(u.spec.envPrefix, '') }, ...rest.slice(1)];
        if (u.spec.prefix) rest = [...u.spec.prefix.map(lit), ...rest];
        if (name === 'xargs') return this.xargs(r, io, rest);
        // `env NAME=VALUE CMD`: the settings reach CMD as a prefix assignment would (BASH_ENV, PS4, BASH_FUNC_x%%).
        const settings: SimpleCommand['assignments'] = [];
        if (u.spec.assignments) {
          for (const w of words.slice(1, u.start)) {
            const m = envAssignment(w.text);
            if (!m) continue;
            const value = { ...w, text: m.value };
            settings.push({ name: m.name, value });
            this.envCode(m.name, value, dir, depth, via, r.segment);
          }
        }
        return next(rest, u.how, { viaPackageRunner: !!u.spec.packageSpec }, dir, settings);
      }
      case 'joined': {
        let rest = words.slice(u.start).map((w) => w.text);
        if (name === 'parallel') {
          this.endlessFanOut(r, argv.some((a, i) => a === '-j0' || a === '--jobs=0' || a === '-P0' || ((a === '-j' || a === '--jobs' || a === '-P') && argv[i + 1] === '0')));
          const sep = rest.findIndex((x) => /^:::[:+]*$/.test(x));
          if (sep === 0) {
            // No command: every input is a command of its own.
            for (const input of rest.slice(1).filter((x) => !/^:::/.test(x)).slice(0, MAX_LOOP_VALUES)) this.analyzeSource(input, depth + 1, `${via} > parallel`, dir, new Map());
            return undefined;
          }
          // Without `:::` the inputs are stdin's lines: known when stdin is, else a value only known at run time.
          const stdinLines = io.stdin.kind === 'static' ? io.stdin.text.split('\n').filter(Boolean).map((l) => quoteArgv([l])) : io.stdin.kind === 'none' ? ['{}'] : ['"$LOOM_RUNTIME_INPUT"'];
          const inputs = sep >= 0 ? rest.slice(sep + 1).filter((x) => x !== ':::') : stdinLines;
          rest = sep >= 0 ? rest.slice(0, sep) : rest;
          // --quote / -q: each word is passed quoted, as argv, not re-read by the shell.
          const script = argv.some((a) => a === '--quote' || /^-[a-zA-Z]*q[a-zA-Z]*$/.test(a)) ? rest.map(shq).join(' ') : rest.join(' ');
          for (const input of inputs.length ? inputs.slice(0, MAX_LOOP_VALUES) : ['{}']) {
            this.analyzeSource(script.includes('{}') ? script.split('{}').join(input) : `${script} ${input}`, depth + 1, `${via} > parallel`, dir, new Map());
          }
          return undefined;
        }
        this.analyzeSource(rest.join(' '), depth + 1, `${via} > ${u.how}`, dir, new Map());
        return undefined;
      }
      case 'each':
        for (const w of words.slice(u.start)) if (!w.text.startsWith('-')) this.analyzeSource(w.text, depth + 1, `${via} > ${u.how}`, dir, new Map());
        return undefined;
      case 'keys':
        // screen's `stuff` reads ^M, \n and octal escapes as the keys they name; tmux send-keys names keys.
        this.analyzeSource(u.spec.keysCommand ? words.slice(u.start).map((w) => w.text).join(' ').replace(/\^[MJ]|\\[nr]|\\0?1[25]/g, '\n') : keysToText(words.slice(u.start).map((w) => w.text)), depth + 1, `${via} > ${u.how}`, dir, new Map());
        return undefined;
      case 'code':
        // The variables set so far are known to the script (trap 'rm -rf "$tmp"' EXIT after tmp=$(mktemp -d)); its own effects stay inside.
        this.analyzeSource(u.code, depth + 1, `${via} > ${u.how}`, dir, new Map(), { positional: argv.slice(u.rest), env: env ? { ...this.fork(env), cwd: dir } : undefined, stdin: io.stdin });
        return undefined;
      case 'stdin':
        this.runsScript(u.file ? this.scriptFeed(lit(u.file), io, dir) : io.stdin, 'sh', r.segment, depth, `${via} > ${u.how}`, dir);
        return undefined;
      case 'none':
        // parallel with neither command nor `:::`: every line of its input is a command.
        if (name === 'parallel' && !argv.some((a) => /^:::/.test(a)) && !argv.some((a) => /^--(?:dry-run|help|version|number-of-)/.test(a))) this.runsScript(io.stdin, 'sh', r.segment, depth, `${via} > parallel <stdin`, cwd);
        break;
    }
    // python3 -m zipfile -c OUT SRC...: a standard module used as a command is judged as that command.
    const mAt = /^python[\d.]*$/.test(name) ? argv.indexOf('-m') : -1;
    const moduleCmd = mAt > 0 ? own(PYTHON_MODULE_COMMANDS, argv[mAt + 1] ?? '') : undefined;
    if (moduleCmd) {
      const optAt = argv.findIndex((a, i) => i > mAt + 1 && Object.hasOwn(moduleCmd, a));
      if (optAt > 0) {
        const equivalent = moduleCmd[argv[optAt]];
        const rest = argv.slice(optAt + 1);
        if (equivalent[0] === 'python-http-server') {
          if (rest[0] && (rest[0] === '/' || rest[0].startsWith('~') || rest[0] === this.opts.home)) this.hit('read-secret-file', 'deny', r.segment, `python -m http.server serves ${rest[0]} (its keys and credentials) to the network`);
        } else next([...equivalent, ...rest].map(lit), `python -m ${argv[mAt + 1]}`);
      }
    }
    if (Object.hasOwn(INTERPRETERS, name)) {
      const flags = INTERPRETERS[name];
      const k = argv.findIndex((a: string, i: number) => i > 0 && flags.includes(a));
      if (k <= 0) {
        // No code flag: the program is the first operand, or stdin.
        const op = words.slice(1).find((w) => !w.text.startsWith('-') || w.text === '-');
        const feed = op ? this.scriptFeed(op, io, cwd) : io.stdin;
        // A file not written on the line is judged only if a later command writes it while this one waits (runsScript).
        this.runsScript(feed, name, r.segment, depth, `${via} > ${name}`, cwd);
      }
    }
    // A file written or downloaded earlier on the line and run by a bare name found in a PATH folder
    // (`curl -o ~/.local/bin/tool URL && chmod +x ~/.local/bin/tool && tool`).
    if (env && !argv[0].includes('/') && env.files.size > 0) {
      const found = this.onPath(argv[0], env, cwd);
      if (found) {
        const [path, feed] = found;
        if (feed.kind === 'download') this.hit('pipe-download-to-interpreter', 'deny', r.segment, `runs ${argv[0]} (${path}), which ${feed.by} fetched earlier on the line`);
        else this.runsScript(feed, 'sh', r.segment, depth, `${via} > ${argv[0]} (${path})`, cwd, argv.slice(1));
      }
    }
    // A script written earlier on the line and run by path (./x.sh).
    // (A file the line wrote was judged before its name was read.) One in a folder a download filled:
    if (env && argv[0].includes('/') && !env.files.has(posix.resolve(cwd, argv[0]))) {
      const by = this.downloadedBy(posix.resolve(cwd, argv[0]));
      if (by) this.hit('pipe-download-to-interpreter', 'deny', r.segment, `runs ${argv[0]}, which ${by} fetched earlier on the line`);
    }
    return undefined;
  }

  /** A command another program launches (launchers.ts): judged as a script, its feed read in its own language. */
  private runLaunch(l: Launch, r: RuleContext, io: RunIO, nested = 0): void {
    const { depth, via, cwd, segment } = r;
    switch (l.kind) {
      case 'script':
        this.analyzeSource(l.text, depth + 1, `${via} > ${l.how}`, l.cwd ?? cwd, new Map(), { stdin: l.stdin ? io.stdin : NONE, positional: l.positional, env: this.launchedEnv(io.env, l.cwd ?? cwd, l.positional) });
        return;
      case 'feed': {
        const src = l.source;
        const feed = src === 'stdin' ? io.stdin : 'word' in src ? (r.words[src.word] ? this.scriptFeed(r.words[src.word], io, cwd) : NONE) : this.scriptFeed(lit(src.path), io, cwd);
        if (l.format === 'sh' || feed.kind !== 'static') {
          this.runsScript(feed, 'sh', segment, depth, `${via} > ${l.how}`, l.cwd ?? cwd);
          return;
        }
        const inner: Launch[] = [];
        if (l.format === 'ex') exCommandLaunches(feed.text, l.how, inner);
        else if (l.format === 'gdb') debuggerCommandLaunches(r.name, feed.text, l.how, inner);
        else if (l.format === 'tcl') tclLaunches(feed.text, l.how, inner, { HOME: this.opts.home, PWD: l.cwd ?? cwd });
        else {
          // Template variables naming the recipe file's folder, where the runner started, home: their values.
          const file = src === 'stdin' ? undefined : 'word' in src ? r.words[src.word]?.text : src.path;
          const text = expandRecipeDirs(feed.text, l.format, { file: file ? posix.dirname(posix.resolve(l.cwd ?? cwd, file)) : (l.cwd ?? cwd), invocation: cwd, home: this.opts.home });
          inner.push({ kind: 'script', text: recipeScript(l.format, text), how: l.how, cwd: l.cwd });
        }
        if (nested < 2) for (const x of inner) this.runLaunch(x, r, io, nested + 1);
        return;
      }
      case 'hooks':
        for (const [path, feed] of io.env?.files ?? []) if (l.names.includes(posix.basename(path))) this.runsScript(feed, 'sh', segment, depth, `${via} > ${l.how} ${posix.basename(path)}`, cwd);
        return;
      case 'ask':
        this.hit('dynamic-command', 'ask', segment, `${l.how}: ${l.why}`);
        return;
      case 'read':
        this.readsPath(l.path, cwd, segment);
        return;
    }
  }

  /** Shell commands a program runs from its own syntax (editor `-c '!cmd'`, `man -P`, `ssh HOST CMD`, a Makefile written on the line): escapes.ts. */
  private programEscapes(r: RuleContext, io: RunIO): void {
    const files = io.env?.files;
    const found = programEscapes(r.name, r.argv, {
      cwd: r.cwd,
      home: this.opts.home,
      fileText: (abs) => {
        const f = files?.get(abs);
        return f?.kind === 'static' ? f.text : undefined;
      },
      filesIn: (dir) => [...(files ?? [])].filter(([p, f]) => f.kind === 'static' && within(p, dir)).slice(0, 32).map(([p, f]) => [p, (f as { text: string }).text]),
      stdin: io.stdin.kind === 'static' ? io.stdin.text : undefined,
      assignments: r.cmd.assignments.map((a) => ({ name: a.name, value: a.value.text })),
      gitIncludes: this.gitIncludes,
    });
    for (const e of found.slice(0, 20)) {
      if (e.bomb) {
        this.hit('fork-bomb', 'deny', r.segment, e.bomb);
        continue;
      }
      const cwd = e.cwd ?? r.cwd;
      const ctx = { analyzer: this, cwd, depth: r.depth + 1, via: `${r.via} > ${e.how}`, segment: r.segment };
      if (e.lang === 'sh') this.analyzeSource(e.code, r.depth + 1, `${r.via} > ${e.how}`, cwd, new Map());
      else if (e.lang === 'ipython') analyzeIpythonCode(e.code, ctx);
      else if (e.lang === 'foreign') scanForeignCode({ ...r, cwd, via: `${r.via} > ${e.how}` }, e.code, e.how);
      else analyzeInterpreterCode(e.lang, e.code, ctx);
    }
  }

  /**
   * A fan-out with no limit on parallel jobs (`xargs -P 0`, `parallel -j0`) fed by input that never ends
   * (`yes`, `seq inf`, `cat /dev/zero`): a new process for every line, without end, is a fork bomb.
   */
  private endlessFanOut(r: RuleContext, unlimited: boolean): void {
    if (!unlimited) return;
    const endless = r.pipe.some((c) => {
      if (c.stage >= r.cmd.stage || !c.words[0]) return false;
      return endlessOutput(c.words.map((x) => x.text));
    });
    // `yes | head -n 5 | xargs -P0`: a stage that stops after N lines bounds it.
    const bounded = r.pipe.some((c) => c.stage < r.cmd.stage && c.words[0] && /^(?:head|timeout)$/.test(posix.basename(c.words[0].text)));
    if (endless && !bounded) this.hit('fork-bomb', 'deny', r.segment, `${r.name} starts a process for every line of an endless input with no limit on parallel jobs: a fork bomb`);
  }

  /** A patch applied from the line (apply_patch, git apply, patch): each file it writes or deletes, judged as that write or delete. */
  private patchWrites(r: RuleContext, io: RunIO): void {
    const p = patchProgram(r.name, r.argv);
    if (!p) return;
    const text = p.from === 'operand' ? p.operand : io.stdin.kind === 'static' ? io.stdin.text : undefined;
    if (text === undefined) return;
    const { writes, deletes } = patchEffects(text);
    // At most 200 files of each: a patch of thousands is judged by its first.
    writes.length = Math.min(writes.length, 200);
    deletes.length = Math.min(deletes.length, 200);
    const how = `${r.via} > ${r.name === 'git' ? 'git apply' : r.name}`;
    for (const f of writes) this.analyzeSource(`cp -- patch-hunk ${quoteArgv([f])}`, r.depth + 1, how, r.cwd, new Map());
    for (const f of deletes) this.analyzeSource(`rm -- ${quoteArgv([f])}`, r.depth + 1, how, r.cwd, new Map());
  }

  /** xargs: the command gets its arguments from stdin; a static stdin is known. */
  private xargs(r: RuleContext, io: RunIO, inner: Word[]): Feed | undefined {
    const { argv, depth, via, cwd } = r;
    this.endlessFanOut(r, argv.some((a, i) => a === '-P0' || a === '--max-procs=0' || ((a === '-P' || a === '--max-procs') && argv[i + 1] === '0')));
    if (inner.length === 0) inner = [lit('echo')];
    const replaceAt = argv.findIndex((a) => a === '-I' || a.startsWith('-I') || a.startsWith('-i') || a.startsWith('--replace'));
    const ra = replaceAt < 0 ? '' : argv[replaceAt];
    // -I R, -IR, -i[R], --replace[=R]: R replaces (default {}).
    const token = replaceAt < 0 ? undefined : ra === '-I' ? argv[replaceAt + 1] : ra.startsWith('-I') || ra.startsWith('-i') ? ra.slice(2) || '{}' : ra.startsWith('--replace=') ? ra.slice(10) || '{}' : '{}';
    // Items come from stdin or from `-a FILE`; `-0` splits them at NUL only, `-d C` at C only.
    const fileAt = argv.findIndex((a) => a === '-a' || a === '--arg-file' || a.startsWith('--arg-file=') || /^-a./.test(a));
    const argFile = fileAt < 0 ? undefined : argv[fileAt] === '-a' || argv[fileAt] === '--arg-file' ? argv[fileAt + 1] : argv[fileAt].startsWith('--') ? argv[fileAt].slice(11) : argv[fileAt].slice(2);
    const input: Feed = argFile === undefined ? io.stdin : STDIN_PATHS.has(argFile) ? io.stdin : (io.env?.files.get(posix.resolve(cwd, argFile)) ?? { kind: 'runtime', why: `items read from ${argFile}` });
    const delimAt = argv.findIndex((a) => a === '-d' || a.startsWith('--delimiter'));
    const delim = argv.some((a) => a === '-0' || a === '--null') ? '\u0000' : delimAt < 0 ? undefined : argv[delimAt] === '-d' ? argv[delimAt + 1] : argv[delimAt].slice(12);
    // `xargs sh -c` (the item is the script) or `-I{} sh -c '{}'` (the item starts the script): a command only known at run time.
    const cAt = inner[0] !== undefined && SHELLS.has(posix.basename(inner[0].text)) ? inner.findIndex((w, i) => i > 0 && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(w.text)) : -1;
    const script = cAt > 0 ? inner[cAt + 1]?.text : undefined;
    if (input.kind !== 'static' && input.kind !== 'none' && cAt > 0 && (script === undefined || (token !== undefined && script.trim().startsWith(token)))) {
      this.hit('dynamic-command', 'ask', r.segment, 'xargs builds a shell script from items only known at run time');
    }
    if (input.kind === 'static') {
      const items = (delim !== undefined && delim !== '' ? input.text.split(delim.replace(/^\\n$/, '\n')) : token !== undefined ? input.text.split('\n') : input.text.split(/\s+/)).filter(Boolean).slice(0, MAX_LOOP_VALUES);
      if (token !== undefined) {
        for (const item of items) this.analyzeCommand({ ...r.cmd, words: inner.map((w) => ({ ...w, text: w.text.split(token).join(item) })), assignments: [], redirects: [] }, depth + 1, `${via} > xargs`, cwd, r.pipe, r.vars, { stdin: NONE });
      } else this.analyzeCommand({ ...r.cmd, words: [...inner, ...items.map(lit)], assignments: [], redirects: [] }, depth + 1, `${via} > xargs`, cwd, r.pipe, r.vars, { stdin: NONE });
      return undefined;
    }
    // Pids on stdin from a listing of every process (`ps -e -o pid= | xargs kill`): every process is signalled.
    if (inner[0] && XARGS_SIGNALLERS.includes(posix.basename(inner[0].text))) {
      const upstream = r.pipe.filter((c) => c.stage < r.cmd.stage).map((c) => c.words.map((w) => w.text).join(' ')).join(' | ');
      if (upstream && listsEveryProcess(upstream)) this.hit('kill-all', 'deny', r.segment, `xargs kill of every process listed by \`${upstream.slice(0, 60)}\``);
    }
    // The deleted paths arrive on stdin: from an upstream find, its roots; otherwise unknown.
    const destroyer = inner[0] ? posix.basename(inner[0].text) : '';
    const destroyerOps = own(FILE_DESTROYERS, destroyer) ? inner.slice(1).filter((w, i, all) => !w.text.startsWith('-') && !FILE_DESTROYERS[destroyer].includes(all[i - 1]?.text ?? '')) : undefined;
    if (destroyerOps && destroyerOps.length === 0) {
      const finder = r.pipe.find((c) => c.stage < r.cmd.stage && c.words[0] && posix.basename(c.words[0].text) === 'find');
      const recursive = inner.some((w) => /^-[a-zA-Z]*[rR]/.test(w.text) || w.text === '--recursive');
      // `git ls-files | xargs rm`: every tracked file of the project (a pathspec narrows it).
      const lister = r.pipe.find((c) => c.stage < r.cmd.stage && c.words[0] && posix.basename(c.words[0].text) === 'git' && c.words.some((w) => w.text === 'ls-files'));
      if (finder) judgeFindDeletes(r, finder.words.map((w) => w.text), 'find | xargs rm');
      else if (lister) this.lsFilesDeleted(r, lister.words.map((w) => w.text), 'git ls-files | xargs rm');
      else if (recursive) this.hit('rm-unknown-target', 'ask', r.segment, 'xargs feeds paths from its input to rm -r');
    }
    // Items only known at run time: they stand where they go (the replace string, else after the command), as
    // values loom cannot read: `git ls-files -m | xargs git checkout --` discards whatever files arrive.
    const unknown: Word = { text: '\u0000', dynamic: true, quoted: false, glob: false };
    const fed = token !== undefined ? inner.map((w) => (w.text.includes(token) ? { ...w, text: w.text.split(token).join('\u0000'), dynamic: true } : w)) : [...inner, unknown];
    // A shell script the items go into (`-I{} sh -c 'head {}'`) was judged above: only an item that starts it is a command.
    const asIs = input.kind === 'none' || cAt > 0 || (inner[0] && [...XARGS_DELETERS, ...XARGS_SIGNALLERS].includes(posix.basename(inner[0].text)));
    const c2: SimpleCommand = { ...r.cmd, words: asIs ? inner : fed, assignments: [], redirects: [] };
    this.analyzeCommand(c2, depth + 1, `${via} > xargs`, cwd, r.pipe, r.vars, { stdin: NONE });
    return undefined;
  }

  /**
   * git config on this line, as git reads it: values given by `-c` on the command, and values written by
   * an earlier `git config` of the line (git writes them to disk, so every later git command reads them,
   * in a subshell or a nested script too). Aliases (`alias.NAME`, a shell script after `!`, otherwise a git
   * command), pushes that config redirects (remote.R.push, remote.R.mirror, push.default=matching), and
   * the ext:: transport allowed for URLs not on the line (tables/git.ts).
   */
  private gitAlias(r: RuleContext, io: RunIO): Feed | undefined {
    const { argv, depth, via, cwd } = r;
    const here = new Map<string, string[]>();
    let k = 1;
    while (k < argv.length && argv[k].startsWith('-')) {
      const a = argv[k];
      const v = a === '-c' ? argv[k + 1] : a.startsWith('-c') ? a.slice(2) : undefined;
      if (v !== undefined && v.includes('=')) {
        const key = gitConfigKey(v.slice(0, v.indexOf('=')));
        here.set(key, [...(here.get(key) ?? []), v.slice(v.indexOf('=') + 1)]);
      }
      if (GIT_GLOBAL_WITH_ARG.includes(a)) k++;
      k++;
    }
    const cfg = (key: string): string[] => [...(this.gitConfig.get(gitConfigKey(key)) ?? []), ...(here.get(gitConfigKey(key)) ?? [])];
    // Config written now: remembered for the rest of the line; push config is judged as the push it makes.
    for (const w of gitConfigWrites(argv, cwd)) {
      const stored = storedPushConfig(w);
      if (stored) this.analyzeSource(quoteArgv(stored.argv), depth + 1, `${via} > ${stored.why} (the push a later git push makes)`, cwd, new Map());
      if (!gitKeyIn(GIT_LINE_CONFIG_KEYS, w.key)) continue;
      if (w.mode === 'unset') this.gitConfig.delete(w.key);
      else if (this.gitConfig.size < GIT_LINE_CONFIG_MAX.keys || this.gitConfig.has(w.key)) this.gitConfig.set(w.key, [...(w.mode === 'add' ? (this.gitConfig.get(w.key) ?? []) : []), w.value!].slice(-GIT_LINE_CONFIG_MAX.values));
    }
    const sub = argv[k];
    if (sub === undefined) return undefined;
    // The ext:: transport allowed while the URLs come from elsewhere (.gitmodules, a remote's config): any command may run.
    const allowed = GIT_EXT_ALLOW.keys.some((key) => GIT_EXT_ALLOW.value.test(cfg(key).at(-1) ?? '')) || GIT_EXT_ALLOW.envValue.test(r.cmd.assignments.find((a) => a.name === GIT_EXT_ALLOW.env)?.value.text ?? r.vars.get(GIT_EXT_ALLOW.env) ?? '');
    if (allowed && GIT_FETCHING_SUBS.includes(sub) && !argv.some((a) => GIT_COMMAND_URL_PREFIXES.some((p) => a.includes(p)))) this.hit('dynamic-command', 'ask', r.segment, `git ${sub} with the ext:: transport allowed runs any command a submodule or remote URL names`);
    const alias = cfg(`alias.${sub}`).at(-1);
    const rest = argv.slice(k + 1);
    if (alias !== undefined && !own(GIT_OPTIONS, sub)) {
      if (alias.startsWith('!')) this.analyzeSource(`${alias.slice(1)} ${quoteArgv(rest)}`.trim(), depth + 1, `${via} > git alias ${sub}`, cwd, new Map(), { positional: rest });
      else {
        // The other global options stay (-C, -c of other keys); the alias's own -c goes.
        const globals: string[] = [];
        for (let j = 1; j < k; j++) {
          if (argv[j] === '-c' && /^alias\./i.test(argv[j + 1] ?? '')) j++;
          else if (!/^-calias\./i.test(argv[j])) globals.push(argv[j]);
        }
        this.analyzeSource(`${quoteArgv(['git', ...globals])} ${alias} ${quoteArgv(rest)}`.trim(), depth + 1, `${via} > git alias ${sub}`, cwd, new Map());
      }
      return undefined;
    }
    const newPlace = pushToNewPlace(argv, cwd, (key) => this.gitConfig.get(gitConfigKey(key)) ?? []);
    if (newPlace !== undefined) this.hit('git-push-new-remote', 'ask', r.segment, `git push sends the repository to ${newPlace.slice(0, 80)}, a destination set on this line, not one the repository already had`);
    for (const p of pushWithConfig(argv, cwd, cfg, this.opts.currentBranch)) this.analyzeSource(quoteArgv(p.argv), depth + 1, `${via} > git push with ${p.why}`, cwd, new Map());
    void io;
    return undefined;
  }

  /** awk programs run shell commands through system("..."), print | "cmd" and "cmd" | getline. */
  private awkCommands(r: RuleContext): void {
    const ops = r.argv.slice(1);
    const preset = new Map<string, string>();
    let k = 0;
    while (k < ops.length && ops[k].startsWith('-') && ops[k] !== '--') {
      if (ops[k] === '-f' || ops[k].startsWith('--file')) return;
      const v = ops[k] === '-v' || ops[k] === '--assign' ? ops[++k] : /^-v./.test(ops[k]) ? ops[k].slice(2) : undefined;
      if (v !== undefined && /^[A-Za-z_]\w*=/.test(v)) preset.set(v.slice(0, v.indexOf('=')), v.slice(v.indexOf('=') + 1));
      else if (/^-[F]$/.test(ops[k])) k++;
      k++;
    }
    if (ops[k] === '--') k++;
    const prog = ops[k];
    if (!prog) return;
    const commands = awkCommandsOf(prog, preset);
    // `getline line < ".env"` reads a file as surely as an operand does.
    for (const m of prog.matchAll(/\bgetline\b[^<;}\n]{0,64}<\s*"([^"\n]{1,500})"/g)) this.readsPath(m[1], r.cwd, r.segment);
    // `print ... > "file"` / `printf "" >> "file"` write that file (a literal name; a `>` inside a string or a comparison in a condition has no string after it).
    for (const m of prog.matchAll(/\b(?:print|printf)\b[^;}\n"]{0,200}(?:"(?:[^"\\\n]|\\.){0,500}"[^;}\n"]{0,200}){0,16}?>>?\s*"([^"\n]{1,500})"/g)) this.writesPath(m[1], r.cwd, r.segment);
    // An endless loop that starts background commands (`while(1) system("x &")`) is a fork bomb.
    // gawk's fork extension (`@load "fork"`) starts a process with every fork() call.
    const forks = /@load\s+"fork"/.test(prog) && /\bfork\s*\(\s*\)/.test(prog);
    if (/\bwhile\s*\(\s*(?:1|!0|"[^"]+")\s*\)|\bfor\s*\(\s*;\s*;\s*\)|\bdo\b[\s\S]*\bwhile\s*\(\s*1\s*\)/.test(prog) && (forks || commands.some((c) => /&\s*$/.test(c.code) && !/&&\s*$/.test(c.code)))) {
      this.hit('fork-bomb', 'deny', r.segment, 'awk starts background commands in an endless loop: a fork bomb');
    }
    for (const c of commands) {
      // `curl URL | awk '{print | "sh"}'`: awk hands its input lines to the shell; that input is the script.
      if (c.script !== undefined && /^\s*(?:ba|da|z|k)?sh\b/.test(c.code) && r.stdin && r.stdin.kind !== 'none' && /\$(?:0|\d)|print\s*\|/.test(prog)) this.runsScript(r.stdin, 'sh', r.segment, r.depth, `${r.via} > awk print | ${c.code}`, r.cwd);
      // A run-time part stands for any text: the command asks (dynamic); its static commands are still judged.
      if (c.script !== undefined) this.runsScript(c.script.includes('"$__awk_value"') ? { kind: 'runtime', why: 'text awk builds at run time', text: c.script.replace(/"\$__awk_value"/g, '\u0000') } : { kind: 'static', text: c.script }, 'sh', r.segment, r.depth, `${r.via} > awk print | ${c.code}`, r.cwd);
      else this.analyzeSource(c.code, r.depth + 1, `${r.via} > awk system()`, r.cwd, new Map());
    }
  }

  /** Code given to an interpreter: its string literals that look like shell commands are analyzed. */
  private scanCode(code: string, depth: number, via: string, cwd: string): void {
    const literals = code.match(/"(?:[^"\\\n]|\\.){1,2000}"|'(?:[^'\\\n]|\\.){1,2000}'|`[^`]{1,2000}`/g) ?? [];
    for (const lit of literals.slice(0, 50)) {
      const body = lit.slice(1, -1);
      if (/^\s*(?:sudo\s+)?(?:rm|git|curl|wget|dd|mkfs|chmod|chown|find|cat|bash|sh|sudo)\b/.test(body)) this.analyzeSource(body, depth + 1, via, cwd, new Map());
    }
    if (/\bshutil\.rmtree\(|\bfs\.rmSync\(|\brmdirSync\(|\bFileUtils\.rm_rf\b|\bremove_tree\b/.test(code)) {
      const m = /(?:rmtree|rmSync|rmdirSync|rm_rf|remove_tree)\(\s*(?:r?["'`]([^"'`]{1,500})["'`]|os\.path\.expanduser\(\s*["']([^"']{1,500})["']\s*\))/.exec(code);
      const target = m ? (m[1] ?? m[2]) : undefined;
      if (target) {
        const resolved = target.startsWith('~') ? this.opts.home + target.slice(1) : target;
        deletesPath(this, resolved, cwd, `${via}: ${code.slice(0, 80)}`, { recursive: true });
      }
    }
  }
}

export function analyzeCommand(input: string, opts: AnalyzeOptions): Analysis {
  const a = new Analyzer(opts);
  // A NUL byte is no character to bash: reading a script (stdin, a file, a persistent shell) it drops them, so
  // `rm -rf\0 /` runs as `rm -rf /`. Judged as bash would run it (and the lexer's own run-time marks stay its own).
  const command = input.includes('\u0000') ? input.replace(/\u0000/g, '') : input;
  // One budget for the whole analysis (nested scripts, loops, functions, aliases included). It is set
  // afresh, never narrowed from what is left: a watchdog that stops an analysis midway (loom serve's
  // vm timeout ends it without running `finally`) must not leave the next analysis out of budget.
  const outer = work.limit;
  work.limit = work.units + WORK_BUDGET;
  // Likewise the scanners' nesting count: an analysis starts at the top level.
  scanState.nest = 0;
  try {
    if (command.length > MAX_COMMAND_LENGTH) a.hit('too-complex', 'deny', command.slice(0, 80), `the command is longer than ${MAX_COMMAND_LENGTH} characters: too large to analyse`);
    else a.analyzeSource(command, 0, 'command', opts.cwd, new Map());
    if (a.packageJsonWritten && command.includes(LOOM_PACKAGE)) a.hit('modify-loom', 'deny', command.slice(0, 80), `edits package.json on a line that names ${LOOM_PACKAGE}: taking loom out of the project's dependencies switches off its hooks`);
  } finally {
    work.limit = outer === Number.POSITIVE_INFINITY || outer > work.units ? outer : Number.POSITIVE_INFINITY;
  }
  let decision: Decision = 'allow';
  for (const h of a.hits) if (RANK[h.action] > RANK[decision]) decision = h.action;
  const top = a.hits.filter((h) => h.action === decision && decision !== 'allow');
  const reason = top.map((h) => `${h.rule}: ${h.detail} (\`${h.segment}\`)`).join('; ');
  return { decision, hits: a.hits, commands: a.commands, reason };
}

/** A loop condition that is a `read` of the loop's input (`while read`, `while IFS= read -r line`). */
function readsLines(cond: Node): boolean {
  const c = cond.t === 'list' && cond.items.length === 1 ? cond.items[0].node : cond;
  if (c.t !== 'cmd') return false;
  return c.words[0] === 'read';
}

/** Input that never ends: an endless program's output, or an endless device. */
function endlessFeed(f: Feed): boolean {
  if (f.kind === 'program') return endlessOutput([f.name, ...(f.argv ?? [])]);
  if (f.kind === 'file') return ENDLESS_DEVICE.test(f.path);
  return false;
}

/** An earlier stage of this pipeline prints without end and no stage between stops it (`yes | head -n 5 | ...` is bounded). */
function endlessStages(pc: PipeCtx): boolean {
  const before = pc.pipe.filter((c) => c.stage < pc.stage && c.words[0]);
  return before.some((c) => endlessOutput(c.words.map((w) => w.text))) && !before.some((c) => /^(?:head|timeout)$/.test(posix.basename(c.words[0].text)));
}

/** Programs that only print, count or search the words and files they are given: nothing they read is run. */
const DATA_COMMANDS = new Set(['echo', 'printf', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'wc', 'head', 'tail', 'sort', 'uniq', 'cut', 'tr', 'less', 'more', 'cat', 'nl', 'column', 'true', ':']);

/** A tree of plain commands (pipes and lists of them) whose names are DATA_COMMANDS and whose words hold no substitution. */
function onlyDataCommands(node: Node): boolean {
  switch (node.t) {
    case 'cmd':
      return node.assigns.length === 0 && node.words.length > 0 && DATA_COMMANDS.has(node.words[0]) && node.words.every((w) => !w.includes('$(') && !w.includes('`') && !w.includes('<(') && !w.includes('>('));
    case 'pipe':
      return node.cmds.every(onlyDataCommands);
    case 'list':
      return node.items.every((i) => onlyDataCommands(i.node));
    default:
      return false;
  }
}

/** A simple command's words from a substitution's text, quotes removed (`find . -name 'x.log'`); empty when it has shell syntax. */
function simpleArgv(src: string): string[] {
  const t = src.trim();
  if (t.length > 2048 || /[|;&<>`$()]/.test(t)) return [];
  return (t.match(/'[^']*'|"[^"]*"|[^\s'"]+/g) ?? []).map((w) => w.replace(/^(['"])(.*)\1$/, '$2'));
}
