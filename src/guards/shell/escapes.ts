// Programs that run a shell command they are handed in their own syntax:
// an editor's `-c '!cmd'`, a pager's `+!cmd`, `man -P PAGER`, git's
// `-c core.pager=CMD`, gdb's `-ex 'shell CMD'`, hyperfine's benchmarked
// commands, `ssh HOST CMD`, a container's command with its bind mounts,
// `kubectl exec -- CMD`, and a Makefile / justfile / package.json written
// earlier on the line and then run. The grammars are data (ESCAPE_PROGRAMS);
// each escape found is handed back as a script for the shell analysis, so
// its commands are judged like any other.
import { posix } from 'node:path';
import { gitConfigRunsCommand } from './tables/git';
import { NOTEBOOK_RUNNERS } from './tables/ipython';
import type { Language } from './tables/programs';
import type { RecipeFormat } from './tables/launchers';
import { notebookCells } from './families/ipython';
import { elispLaunches, recipeScript, type Launch } from './launchers';
import { buildFileEscapes } from './build-files';
import { taskFileEscapes } from './task-files';

export interface Escape {
  /** 'sh': a shell script; 'python': Python code (gdb's `python` command); 'ipython': a notebook cell; other languages by their kernel. */
  lang: 'sh' | 'ipython' | 'foreign' | Language;
  code: string;
  how: string;
  /** The folder the code runs in, when the program changes to one first (`make -C DIR`). */
  cwd?: string;
  /** Set when the run never ends by itself: a script or recipe that runs itself again (a fork bomb); the reason. */
  bomb?: string;
}

/** Package managers' subcommands that are not a script name (`yarn install`, `pnpm add`). */
const PM_BUILTINS = new Set(['install', 'i', 'ci', 'add', 'remove', 'rm', 'uninstall', 'update', 'up', 'upgrade', 'exec', 'x', 'dlx', 'create', 'init', 'why', 'list', 'ls', 'outdated', 'publish', 'pack', 'link', 'unlink', 'config', 'pkg', 'version', 'info', 'view', 'audit', 'cache', 'login', 'logout', 'whoami', 'workspace', 'workspaces', 'set', 'dedupe', 'prune', 'rebuild', 'import', 'patch', 'store', 'env', 'help', 'node', 'npx']);
const NPM_SCRIPT_ALIASES: Record<string, string> = { test: 'test', t: 'test', tst: 'test', start: 'start', stop: 'stop', restart: 'restart' };

/** The package scripts one script text runs (`npm test`, `npm run x`, `yarn x`, `pnpm run x`, `bun run x`), in this folder. */
export function scriptCalls(text: string): string[] {
  const out: string[] = [];
  for (const seg of text.split(/&&|\|\||[;|&\n]/).slice(0, 64)) {
    const words = seg.trim().split(/\s+/).filter((w) => w && !/^[A-Za-z_]\w*=/.test(w));
    const pm = words[0]?.replace(/^.*\//, '');
    if (!pm || !['npm', 'pnpm', 'yarn', 'bun'].includes(pm)) continue;
    const args = words.slice(1);
    // --prefix / -C / --cwd / --dir / --filter: another package's scripts.
    if (args.some((a) => /^(?:--prefix|-C|--cwd|--dir|--filter|-F|--workspace|-w|--workspaces|-ws)(?:=|$)/.test(a))) continue;
    const ops = args.filter((a) => !a.startsWith('-'));
    if (ops[0] === 'run' || ops[0] === 'run-script' || ops[0] === 'rum' || ops[0] === 'urn') {
      if (ops[1]) out.push(ops[1]);
    } else if (ops[0] && Object.prototype.hasOwnProperty.call(NPM_SCRIPT_ALIASES, ops[0])) out.push(NPM_SCRIPT_ALIASES[ops[0]]);
    else if (ops[0] && pm !== 'npm' && pm !== 'bun' && !PM_BUILTINS.has(ops[0])) out.push(ops[0]);
  }
  return out;
}

/** A cycle of calls reachable from `start` in a graph given by `next` (the names on it), bounded. */
function callCycle(start: string, next: (n: string) => string[]): string[] | undefined {
  const path: string[] = [];
  const done = new Set<string>();
  let steps = 0;
  const visit = (n: string): string[] | undefined => {
    if (++steps > 512) return undefined;
    const at = path.indexOf(n);
    if (at >= 0) return [...path.slice(at), n];
    if (done.has(n)) return undefined;
    path.push(n);
    for (const m of next(n)) {
      const c = visit(m);
      if (c) return c;
    }
    path.pop();
    done.add(n);
    return undefined;
  };
  return visit(start);
}

/** A package script that runs itself again, directly or through others (with its pre/post scripts): the cycle. */
export function scriptCycle(scripts: Record<string, unknown>, script: string): string[] | undefined {
  const text = (k: string) => (typeof scripts[k] === 'string' ? (scripts[k] as string) : '');
  return callCycle(script, (s) => [`pre${s}`, s, `post${s}`].flatMap((k) => scriptCalls(text(k))).filter((x) => [x, `pre${x}`, `post${x}`].some((k) => Object.prototype.hasOwnProperty.call(scripts, k))));
}

/** The targets a make / just recipe line runs again in the same folder with the same file (`make all`, `$(MAKE) x`, `just x`); undefined when it is no such call. */
function recipeCalls(line: string, kind: 'make' | 'just', defaultTarget: string | undefined): string[] {
  const out: string[] = [];
  for (const seg of line.split(/&&|\|\||[;|]/)) {
    const words = seg.trim().split(/\s+/).filter(Boolean);
    const prog = words[0]?.replace(/^.*\//, '');
    if (!prog || !(kind === 'make' ? /^(?:g?make|\$[({]MAKE[)}])$/.test(prog) : prog === 'just')) continue;
    const args = words.slice(1);
    if (args.some((a) => /^(?:-C|--directory|-f|--file|--makefile|-d|--working-directory|--justfile|-n|--dry-run|-q|--question)(?:=|$)|^-[Cf]./.test(a))) continue;
    const ops = args.filter((a) => !a.startsWith('-') && !a.includes('='));
    if (ops.length) out.push(...ops);
    else if (defaultTarget) out.push(defaultTarget);
  }
  return out;
}

/** A make / just target whose recipe runs the same target again (directly or through others): the cycle. */
export function recipeCycle(text: string, kind: 'make' | 'just', targets: string[]): string[] | undefined {
  const rules = new Map<string, string[]>();
  let cur: string[] = [];
  let first: string | undefined;
  for (const raw of text.split('\n').slice(0, 2000)) {
    if (kind === 'make' ? raw.startsWith('\t') : /^[ \t]+\S/.test(raw)) {
      for (const t of cur) rules.get(t)!.push(raw.trim().replace(/^[@+-]+/, ''));
      continue;
    }
    const rule = /^([^:=#\s][^:=#]*):(?!=)/.exec(raw);
    cur = rule ? rule[1].trim().split(/\s+/).filter((t) => !t.startsWith('.')).map((t) => t.replace(/^@/, '')) : [];
    if (kind === 'just') cur = cur.slice(0, 1);
    for (const t of cur) {
      if (!rules.has(t)) rules.set(t, []);
      first ??= t;
    }
  }
  for (const t of targets.length ? targets : first ? [first] : []) {
    const c = callCycle(t, (n) => (rules.get(n) ?? []).flatMap((l) => recipeCalls(l, kind, first)).filter((x) => rules.has(x)));
    if (c) return c;
  }
  return undefined;
}

export interface EscapeContext {
  cwd: string;
  home: string;
  /** Files written earlier on the line (absolute path -> static text). */
  fileText: (abs: string) => string | undefined;
  /** Files written earlier on the line under a folder, with their static text. */
  filesIn?: (dir: string) => [string, string][];
  /** Static stdin text, if any (make -f - <<EOF). */
  stdin?: string;
  /** NAME=VALUE prefixes of the command. */
  assignments: { name: string; value: string }[];
  /** Git config files included (include.path) by a git command earlier on the line, as written; git commands add to it. */
  gitIncludes?: Set<string>;
}

/** Option grammar of a program that takes command text in options (data). */
interface OptionGrammar {
  /** Short options taking an argument. */
  shortArg: string;
  /** Long options taking an argument (next word or `=`). */
  longArg: string[];
}

/** Editors whose ex commands (`-c CMD`, `+CMD`, `--cmd CMD`) can run a shell (`!cmd`, `:r !cmd`, `call system()`). */
export const EDITORS = ['vim', 'vi', 'nvim', 'view', 'vimdiff', 'gvim', 'gview', 'ex', 'evim', 'nvi', 'elvis', 'vis', 'neovide'];
/** Pagers whose start-up commands (`+CMD`) can run a shell with `!`. */
export const PAGERS = ['less', 'more', 'most', 'pg'];
/** Environment variables whose value is a command some program runs through a shell. */
export const COMMAND_ENV = ['PAGER', 'GIT_PAGER', 'MANPAGER', 'SYSTEMD_PAGER', 'BAT_PAGER', 'DELTA_PAGER', 'PSQL_PAGER', 'EDITOR', 'VISUAL', 'GIT_EDITOR', 'GIT_SEQUENCE_EDITOR', 'SUDO_EDITOR', 'GIT_SSH_COMMAND', 'GIT_EXTERNAL_DIFF', 'GIT_ASKPASS', 'SSH_ASKPASS', 'LESSOPEN', 'LESSCLOSE', 'BROWSER', 'PROMPT_COMMAND', 'FCEDIT', 'RSYNC_RSH', 'CVS_RSH'];

const GRAMMARS: Record<string, OptionGrammar> = {
  ssh: { shortArg: 'BbcDEeFIiJLlmOoPpQRSWw', longArg: [] },
  mosh: { shortArg: 'p', longArg: ['--ssh', '--port', '--predict', '--family', '--server', '--client', '--bind-server', '--experimental-remote-ip'] },
  hyperfine: { shortArg: 'wmMrSnuDpsc', longArg: ['--warmup', '--min-runs', '--max-runs', '--runs', '--shell', '--command-name', '--time-unit', '--export-asciidoc', '--export-csv', '--export-json', '--export-markdown', '--export-orgmode', '--style', '--sort', '--output', '--input', '--min-benchmarking-time', '--prepare', '--setup', '--cleanup', '--conclude', '--reference'] },
  container: {
    shortArg: 'vepwulhmca',
    longArg: ['--volume', '--env', '--publish', '--workdir', '--user', '--name', '--network', '--net', '--mount', '--entrypoint', '--label', '--env-file', '--hostname', '--platform', '--cpus', '--memory', '--restart', '--add-host', '--device', '--dns', '--cap-add', '--cap-drop', '--security-opt', '--ulimit', '--tmpfs', '--pid', '--ipc', '--log-driver', '--log-opt', '--gpus', '--shm-size', '--cidfile', '--volumes-from', '--link', '--expose', '--runtime', '--stop-signal', '--health-cmd', '--health-interval', '--pull', '--attach', '--group-add', '--cgroupns', '--userns', '--uts', '--cpu-shares', '--cpuset-cpus', '--memory-swap', '--label-file', '--network-alias', '--ip', '--mac-address', '--detach-keys', '--isolation', '--stop-timeout', '--storage-opt', '--sysctl', '--annotation', '--arch', '--os', '--variant', '--cgroup-parent', '--blkio-weight', '--cpu-period', '--cpu-quota', '--oom-score-adj', '--pids-limit', '--context', '--host', '--namespace', '--container', '--filename', '--kubeconfig', '--pod-running-timeout', '--selector', '--index'],
  },
};

/** Long options of the editors that take an argument. */
const EDITOR_ARG = new Set(['-c', '--cmd', '-S', '-u', '-U', '-i', '-T', '-w', '-W', '-s', '-t', '-q', '--listen', '--remote', '--servername', '--startuptime', '-r', '-V']);

/** Shell command text in one ex command line (`!cmd`, `silent !cmd`, `r !cmd`, `w !cmd`, `call system('cmd')`, `terminal cmd`). */
function exShell(cmd: string): string[] {
  const out: string[] = [];
  let rest = cmd;
  for (let n = 0; n < 50 && rest.trim(); n++) {
    let c = rest.replace(/^[\s:]+/, '').replace(/^(?:(?:silent!?|sil!?|exe(?:cute)?|keepalt|noautocmd|sandbox)\s+)+/, '').replace(/^[\s:]+/, '');
    const range = /^(?:[%.$]|\d+(?:,\d+)?|'<,'>)?/.exec(c);
    if (range) c = c.slice(range[0].length);
    // `!`, `r !`, `w !` and `terminal` take the rest of the line, bars included.
    const bang = /^!(.*)$/s.exec(c) ?? /^(?:r(?:ead)?|w(?:rite)?|[wq]a?!?)\s*!(.*)$/s.exec(c) ?? /^(?:ter(?:minal)?!?|term)\s+(.*)$/s.exec(c);
    if (bang) {
      out.push(bang[1]);
      break;
    }
    // A `:lua` line takes the rest of the line, bars included.
    const bar = /^lua\s/.test(c) ? -1 : c.search(/(?<!\\)\|/);
    // Neovim's Lua reaches the same functions: vim.fn.X(...) / vim.call("X", ...) is X(...), and home is expand("~").
    const one = (bar < 0 ? c : c.slice(0, bar))
      // vim.uv.spawn("rm", {args = {...}}) / vim.system({...}): the argv list that system() takes.
      .replace(/\bvim\.(?:uv|loop)\.spawn\(\s*(["'])([^"'\n]{1,200})\1\s*,\s*\{\s*args\s*=\s*\{/g, 'system({"$2", ')
      .replace(/\bvim\.system\(/g, 'system(')
      .replace(/\bvim\.call\(\s*(['"])(\w+)\1\s*,\s*/g, '$2(')
      .replace(/\bvim\.fn\./g, '')
      .replace(/\bvim\.(?:env\.HOME|loop\.os_homedir\(\)|uv\.os_homedir\(\))|\bos\.getenv\(\s*(['"])HOME\1\s*\)/g, 'expand("~")');
    rest = bar < 0 ? '' : c.slice(bar + 1);
    const call = /\b(?:system|systemlist|jobstart|termopen)\s*\(\s*(['"])((?:(?!\1).){0,4000})\1\s*\)/s.exec(one);
    // system(["rm", "-rf", expand("~")]) / Lua's system({...}): an argv list.
    const list = /\b(?:system|systemlist|jobstart|termopen)\s*\(\s*[[{]([^\]}]{0,4000})[\]}]/s.exec(one);
    if (call) out.push(call[2]);
    else if (list) {
      const items = list[1].split(',').map((x) => x.trim()).filter(Boolean);
      out.push(items.map((x) => (/^expand\(\s*(['"])~\1\s*\)$/.test(x) ? '~' : /^(['"])(.*)\1$/s.test(x) ? quote([x.slice(1, -1)]) : '"$__loom_runtime"')).join(' '));
    } else if (/\b(?:system|systemlist|jobstart|termopen)\s*\(/.test(one)) out.push('"$__loom_runtime"');
    // delete(path, "rf") deletes a tree; expand("~") / $HOME is the home folder.
    const del = /\bdelete\s*\(\s*(?:expand\(\s*(['"])([^'"]{1,500})\1\s*\)|(['"])([^'"]{1,500})\3|\$HOME)\s*(?:,\s*(['"])([a-z]*)\5)?\s*\)/.exec(one);
    if (del) {
      const path = del[2] ?? del[4] ?? '~';
      out.push(`rm ${del[6]?.includes('r') ? '-rf ' : ''}${/^[~$]/.test(path) ? path.replace(/^\$HOME/, '~') : `'${path.replace(/'/g, '')}'`}`);
    }
    const py = /^(?:py(?:thon)?3?|pyx|pydo)\s+(.*)$/s.exec(one);
    if (py) out.push(`python3 -c ${JSON.stringify(py[1])}`);
    const lua = /^lua\s+(.*)$/s.exec(one);
    if (lua) out.push(`lua -e ${JSON.stringify(lua[1])}`);
  }
  return out;
}

function editorEscapes(name: string, argv: string[], ctx: EscapeContext): Escape[] {
  const out: Escape[] = [];
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    let cmd: string | undefined;
    // -S FILE (a script sourced after start-up), -u FILE (the vimrc): their ex commands, line by line; nvim -l FILE runs a Lua script.
    if ((a === '-S' || a === '-u' || (a === '-l' && name === 'nvim')) && k + 1 < argv.length) {
      const f = argv[++k];
      const text = /^NONE$|^NORC$/.test(f) ? undefined : ctx.fileText(posix.resolve(ctx.cwd, f.replace(/^~(?=\/|$)/, ctx.home)));
      if (text !== undefined && a === '-l') out.push({ lang: 'lua', code: text, how: `${name} -l ${f}` });
      else if (text !== undefined) for (const line of text.split('\n').slice(0, 2000)) for (const code of exShell(line)) if (out.length < 32) out.push({ lang: 'sh', code, how: `${name} ${a} ${f}` });
      continue;
    }
    if (/^-[a-zA-Z]*c$/.test(a) && a.length > 2 && !a.startsWith('--') && k + 1 < argv.length) cmd = argv[++k];
    else if ((a === '-c' || a === '--cmd') && k + 1 < argv.length) cmd = argv[++k];
    else if (a.startsWith('+') && a.length > 1) cmd = a.slice(1);
    else if (a.startsWith('--cmd=')) cmd = a.slice(6);
    else if (EDITOR_ARG.has(a)) k++;
    if (cmd !== undefined) for (const code of exShell(cmd)) out.push({ lang: 'sh', code, how: `${name} ex command` });
  }
  return out;
}

/** emacs -l FILE / --load FILE / --script FILE / -x FILE with a file written on the line: its Lisp, read as `--eval` is (launchers.ts). */
function emacsFileEscapes(name: string, argv: string[], ctx: EscapeContext): Escape[] {
  const out: Escape[] = [];
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    const f = ['-l', '--load', '-load', '--script', '-script', '-x'].includes(a) ? argv[++k] : /^--(?:load|script)=/.test(a) ? a.slice(a.indexOf('=') + 1) : undefined;
    if (f === undefined) continue;
    const text = ctx.fileText(posix.resolve(ctx.cwd, f.replace(/^~(?=\/|$)/, ctx.home)));
    if (text === undefined) continue;
    const found: Launch[] = [];
    elispLaunches(text.slice(0, 64 * 1024), ctx.home, `${name} ${a} ${f}`, found);
    for (const l of found) if (l.kind === 'script' && out.length < 32) out.push({ lang: 'sh', code: l.text, how: l.how });
  }
  return out;
}

function pagerEscapes(name: string, argv: string[]): Escape[] {
  const out: Escape[] = [];
  for (const a of argv.slice(1)) {
    if (!a.startsWith('+')) continue;
    const cmd = a.replace(/^\+\+?/, '');
    const bang = cmd.indexOf('!');
    if (bang >= 0) out.push({ lang: 'sh', code: cmd.slice(bang + 1).replace(/\\n$|\n$/, ''), how: `${name} +!` });
  }
  return out;
}

function manEscapes(argv: string[]): Escape[] {
  const out: Escape[] = [];
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    if ((a === '-P' || a === '--pager' || a === '-H' || a === '--html') && k + 1 < argv.length && !(a.startsWith('--html') && argv[k + 1].startsWith('-'))) out.push({ lang: 'sh', code: argv[++k], how: 'man pager' });
    else if (/^--(?:pager|html)=/.test(a)) out.push({ lang: 'sh', code: a.slice(a.indexOf('=') + 1), how: 'man pager' });
    else if (/^-P./.test(a)) out.push({ lang: 'sh', code: a.slice(2), how: 'man pager' });
  }
  return out;
}

/** git -c KEY=VALUE where KEY names a command git runs (core.pager, core.editor, diff.external ...). */
/** The KEY = VALUE entries of a git config file's text (`[section]`, `[section "sub"]`, `[section.sub]`), keys in lower case but the subsection. */
export function gitConfigEntries(text: string): { key: string; value: string }[] {
  const out: { key: string; value: string }[] = [];
  let section = '';
  for (const raw of text.split('\n').slice(0, 4000)) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const head = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\](.*)$/.exec(line);
    if (head) {
      section = head[1].toLowerCase() + (head[2] !== undefined ? `.${head[2]}` : '');
      const rest = head[3].trim();
      if (!rest) continue;
      const kv0 = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(rest);
      if (kv0) out.push({ key: `${section}.${kv0[1].toLowerCase()}`, value: gitConfigValue(kv0[2] ?? 'true') });
      continue;
    }
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (kv && section) out.push({ key: `${section}.${kv[1].toLowerCase()}`, value: gitConfigValue(kv[2] ?? 'true') });
  }
  return out;
}

/** A git config value as git reads it: double quotes removed, `\"` `\\` `\n` `\t` unescaped, a `;` / `#` outside quotes starts a comment. */
function gitConfigValue(v: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < v.length; i++) {
    const c = v[i];
    if (c === '"') quoted = !quoted;
    else if (c === '\\' && i + 1 < v.length) {
      const n = v[++i];
      out += n === 'n' ? '\n' : n === 't' ? '\t' : n;
    } else if (!quoted && (c === ';' || c === '#')) break;
    else out += c;
  }
  return out.trim();
}

/** `include.path` / `includeIf.<cond>.path` keys. */
const GIT_INCLUDE_KEY = /^include\.path$|^includeif\..+\.path$/i;

/**
 * Config files included from a file written on the line: the escapes of their command keys (core.pager,
 * core.sshCommand, core.fsmonitor, filters, `!` aliases ...), judged as `git -c` judges them. `paths`
 * holds the included files, as written (resolved against the folder, the .git folder and home).
 */
function gitIncludedEscapes(argv: string[], ctx: EscapeContext, paths: Iterable<string>): Escape[] {
  const out: Escape[] = [];
  const seen = new Set<string>();
  const sub = argv.slice(1).find((a, i, all) => !a.startsWith('-') && !['-c', '-C', '--git-dir', '--work-tree'].includes(all[i - 1] ?? ''));
  const visit = (p: string, depth: number): void => {
    if (depth > 4 || seen.size > 16) return;
    const rel = p.replace(/^~(?=\/|$)/, ctx.home);
    for (const abs of new Set([posix.resolve(ctx.cwd, rel), posix.resolve(ctx.cwd, '.git', rel), posix.resolve(ctx.home, rel)])) {
      if (seen.has(abs)) continue;
      const text = ctx.fileText(abs);
      if (text === undefined) continue;
      seen.add(abs);
      for (const { key, value } of gitConfigEntries(text)) {
        if (GIT_INCLUDE_KEY.test(key)) visit(value, depth + 1);
        else if (/^alias\./i.test(key)) {
          if (value.startsWith('!') && key.slice(6).toLowerCase() === sub?.toLowerCase()) out.push({ lang: 'sh', code: value.slice(1), how: `git alias ${key.slice(6)} from ${p}` });
        } else if (gitConfigRunsCommand(key, value) && !/^core\.hookspath$/i.test(key)) out.push({ lang: 'sh', code: value.replace(/^!/, ''), how: `git ${key} from ${p}` });
      }
    }
  };
  for (const p of paths) visit(p, 0);
  return out;
}

/** The files a `git config [scope] include.path FILE` / `git -c include.path=FILE` names. */
function gitIncludesSet(argv: string[]): string[] {
  const out: string[] = [];
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    if (a === '-c' && argv[k + 1] !== undefined) {
      const m = /^([^=]+)=(.*)$/s.exec(argv[++k]);
      if (m && GIT_INCLUDE_KEY.test(m[1])) out.push(m[2]);
      continue;
    }
    if (a === 'config') {
      // Options of git config that take a value (`--file F`, `-f F`, `--blob B`, `--type T`): not the key.
      const rest = argv.slice(k + 1).filter((x, i, all) => !x.startsWith('-') && !/^(?:-f|--file|--blob|--type|--default|--comment|--value)$/.test(all[i - 1] ?? ''));
      if (rest.length >= 2 && GIT_INCLUDE_KEY.test(rest[0])) out.push(rest[1]);
      else if (rest[0] === 'set' && rest.length >= 3 && GIT_INCLUDE_KEY.test(rest[1])) out.push(rest[2]);
      break;
    }
    if (!a.startsWith('-')) break;
  }
  return out;
}

function gitConfigEscapes(argv: string[]): Escape[] {
  const out: Escape[] = [];
  for (let k = 1; k < argv.length && argv[k].startsWith('-'); k++) {
    const a = argv[k];
    const v = a === '-c' ? argv[++k] : a.startsWith('-c') && a !== '-c' ? a.slice(2) : undefined;
    if (['-C', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env'].includes(a)) k++;
    if (v === undefined) continue;
    const eq = v.indexOf('=');
    if (eq <= 0) continue;
    const key = v.slice(0, eq);
    const value = v.slice(eq + 1);
    if (/^alias\./i.test(key)) continue; // the alias analysis runs it with its arguments
    if (!gitConfigRunsCommand(key, value)) continue;
    if (/^core\.hookspath$/i.test(key)) continue;
    out.push({ lang: 'sh', code: value.replace(/^!/, ''), how: `git -c ${key}` });
  }
  return out;
}

function gdbEscapes(argv: string[]): Escape[] {
  const out: Escape[] = [];
  const gdbCommand = (c: string) => {
    const t = c.trim();
    let m = /^(?:shell|!)\s*(.*)$/s.exec(t);
    if (m) return out.push({ lang: 'sh', code: m[1], how: 'gdb shell' });
    m = /^(?:python|py|python-interactive|pi)\s+(.*)$/s.exec(t);
    if (m) return out.push({ lang: 'python', code: m[1], how: 'gdb python' });
    m = /^(?:pipe|\|)\s*(?:-d\s+\S+\s+)?[^|]*\|\s*(.*)$/s.exec(t);
    if (m) return out.push({ lang: 'sh', code: m[1], how: 'gdb pipe' });
    m = /^(?:run|r|start|starti)\s+.*[<>|]/s.exec(t);
    return m ? out.push({ lang: 'sh', code: 'true ' + t.replace(/^\S+\s+/, ''), how: 'gdb run' }) : 0;
  };
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    if (/^--?(?:ex|iex|eval-command|init-eval-command)$/.test(a) && k + 1 < argv.length) gdbCommand(argv[++k]);
    else if (/^--?(?:ex|iex|eval-command|init-eval-command)=/.test(a)) gdbCommand(a.slice(a.indexOf('=') + 1));
    else if (/^--?(?:args)$/.test(a)) break;
  }
  return out;
}

/** Operands and script options of a program (hyperfine: every operand is a command). */
function scan(argv: string[], g: OptionGrammar, codeOpts: Set<string>): { operands: string[]; codes: string[]; dashdash: number } {
  const operands: string[] = [];
  const codes: string[] = [];
  let dashdash = -1;
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    if (a === '--') {
      dashdash = k;
      operands.push(...argv.slice(k + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const opt = eq < 0 ? a : a.slice(0, eq);
      if (codeOpts.has(opt)) codes.push(eq < 0 ? (argv[++k] ?? '') : a.slice(eq + 1));
      else if (opt === '--parameter-list') k += eq < 0 ? 2 : 1;
      else if (opt === '--parameter-scan') k += eq < 0 ? 3 : 2;
      else if (g.longArg.includes(opt) && eq < 0) k++;
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      const ch = a[1];
      if (codeOpts.has('-' + ch)) codes.push(a.length > 2 ? a.slice(2) : (argv[++k] ?? ''));
      else if (ch === 'L') k += 2;
      else if (ch === 'P') k += 3;
      else if (g.shortArg.includes(ch) && a.length === 2) k++;
      continue;
    }
    operands.push(a);
  }
  return { operands, codes, dashdash };
}

function hyperfineEscapes(argv: string[]): Escape[] {
  const { operands, codes } = scan(argv, GRAMMARS.hyperfine, new Set(['--prepare', '-p', '--setup', '-s', '--cleanup', '-c', '--conclude']));
  return [...operands, ...codes].map((code) => ({ lang: 'sh' as const, code, how: 'hyperfine' }));
}

/** A host that is this machine. */
const LOOPBACK = /^(?:[^@]*@)?(?:localhost|localhost\.localdomain|127(?:\.\d{1,3}){3}|0\.0\.0\.0|::1|\[::1\]|ip6-localhost)$/i;

/** ssh HOST CMD...: the remote shell runs the words joined with spaces. */
function sshEscapes(name: string, argv: string[]): Escape[] {
  const g = GRAMMARS[name === 'mosh' ? 'mosh' : 'ssh'];
  let k = 1;
  for (; k < argv.length; k++) {
    const a = argv[k];
    if (a === '--') {
      k++;
      break;
    }
    if (a.startsWith('--')) {
      if (g.longArg.includes(a)) k++;
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      const last = a.slice(1).split('').findIndex((c) => g.shortArg.includes(c));
      if (last >= 0 && last === a.length - 2) k++;
      continue;
    }
    break;
  }
  const host = argv[k];
  let rest = argv.slice(k + 1);
  if (host === undefined || rest.length === 0) return [];
  if (name === 'mosh' && rest[0] === '--') rest = rest.slice(1);
  return [{ lang: 'sh', code: rest.join(' '), how: `${name} ${LOOPBACK.test(host) ? 'localhost' : host}` }];
}

/** `docker run -v SRC:DST IMAGE CMD`: the command's paths under DST are SRC on this machine. */
function containerEscapes(name: string, argv: string[], ctx: EscapeContext): Escape[] {
  if (argv[1] === 'compose' || name === 'docker-compose' || name === 'podman-compose') {
    const found = composeEscapes(name, argv, ctx);
    if (found) return found;
  }
  // docker [global opts] run|exec|create ... / docker container run / docker compose run|exec SERVICE / kubectl exec POD -- CMD
  let k = 1;
  while (k < argv.length && argv[k].startsWith('-')) k += /^--?(?:H|host|context|config|log-level|namespace|n|kubeconfig|cluster|user|server|s)$/.test(argv[k]) ? 2 : 1;
  let sub = argv[k];
  if (sub === 'container' || (sub === 'compose' && name !== 'kubectl')) {
    k++;
    while (sub === 'compose' && k < argv.length && argv[k].startsWith('-')) k += /^-(?:f|p)$|^--(?:file|project-name|profile|env-file|project-directory)$/.test(argv[k]) ? 2 : 1;
    sub = argv[k];
  }
  const compose = argv.includes('compose') || name === 'docker-compose' || name === 'podman-compose';
  if (!['run', 'exec', 'create', 'debug', 'attach'].includes(sub ?? '') || sub === 'attach') return [];
  const fresh = (sub === 'run' || sub === 'create') && name !== 'kubectl' && name !== 'oc' && !compose;
  const mounts: [string, string][] = [];
  let workdir: string | undefined;
  let entrypoint: string | undefined;
  let privileged = false;
  k++;
  const g = GRAMMARS.container;
  const dd = argv.indexOf('--', k);
  if (name === 'kubectl' || name === 'oc') {
    if (dd < 0) return [];
    return [{ lang: 'sh', code: quote(argv.slice(dd + 1)), how: `${name} ${sub}` }];
  }
  for (; k < argv.length; k++) {
    const a = argv[k];
    if (a === '--') {
      k++;
      break;
    }
    if (!a.startsWith('-') || a === '-') break;
    const eq = a.indexOf('=');
    const opt = a.startsWith('--') ? (eq < 0 ? a : a.slice(0, eq)) : a.slice(0, 2);
    const takes = a.startsWith('--') ? g.longArg.includes(opt) : g.shortArg.includes(a[1]);
    let val: string | undefined;
    if (takes) val = a.startsWith('--') ? (eq < 0 ? argv[++k] : a.slice(eq + 1)) : a.length > 2 ? a.slice(2) : argv[++k];
    if (opt === '--privileged') privileged = true;
    if (val === undefined) continue;
    if (opt === '-v' || opt === '--volume') {
      const parts = val.split(':');
      if (parts.length >= 2 && parts[0]) mounts.push([parts[0], parts[1]]);
    } else if (opt === '--mount') {
      const kv = new Map(val.split(',').map((p) => [p.split('=')[0], p.slice(p.indexOf('=') + 1)] as [string, string]));
      const src = kv.get('source') ?? kv.get('src');
      const dst = kv.get('target') ?? kv.get('dst') ?? kv.get('destination');
      if (src && dst && (kv.get('type') ?? 'bind') === 'bind') mounts.push([src, dst]);
    } else if (opt === '-w' || opt === '--workdir') workdir = val;
    else if (opt === '--entrypoint') entrypoint = val;
  }
  // Past the options: IMAGE (or CONTAINER / SERVICE), then the command.
  if (k >= argv.length) return [];
  let cmd = argv.slice(k + 1);
  if (entrypoint) cmd = [entrypoint, ...cmd];
  if (cmd.length === 0) return [];
  return [{ lang: 'sh', code: containerCode(cmd, mounts, ctx.cwd, ctx.home, workdir, fresh && !privileged), how: `${name} ${sub} (container paths mapped to this machine)` }];
}

/** A container's command with its paths mapped to this machine's: under a bind mount's target, the mount's source. */
function containerCode(cmd: string[], mounts: [string, string][], base: string, home: string, workdir: string | undefined, fresh: boolean): string {
  const resolved = mounts.map(([src, dst]) => [posix.resolve(base, src.replace(/^~(?=\/|$)/, home)), posix.normalize(dst)] as [string, string]);
  // Only a fresh container's own files are out of reach; `exec` and a privileged container share more than the mounts.
  const map = (p: string): string => {
    if (!fresh) return p;
    const abs = posix.normalize(p.startsWith('/') ? p : posix.join(workdir ?? '/', p));
    for (const [src, dst] of resolved) {
      if (abs === dst || abs.startsWith(dst === '/' ? '/' : dst + '/')) return posix.join(src, abs.slice(dst.length));
    }
    // An ancestor of a mount point reaches into it (rm -rf / with -v /home:/h deletes /home).
    const inside = resolved.find(([, dst]) => dst.startsWith(abs === '/' ? '/' : abs + '/'));
    if (inside) return inside[0];
    return posix.join('/tmp/.container', abs);
  };
  const mapWord = (w: string): string => w.replace(/(^|[\s'"=:;&|(])(\/[^\s'";&|)]*|\.{1,2}(?=\/|$|[\s'";&|)])[^\s'";&|)]*)/g, (_m, pre: string, path: string) => pre + map(path));
  return quote(cmd.map((w, i) => (i === 0 ? w : mapWord(w))));
}

interface ComposeService {
  volumes: [string, string][];
  command?: string[];
  workdir?: string;
  privileged: boolean;
}

/** The services of a compose file (YAML, the usual block layout): bind mounts (short syntax), command, working_dir, privileged. */
export function composeServices(text: string): Map<string, ComposeService> {
  const out = new Map<string, ComposeService>();
  const lines = text.split('\n').slice(0, 2000);
  let inServices = false;
  let svcIndent = -1;
  let cur: ComposeService | undefined;
  let key = '';
  let keyIndent = -1;
  const words = (v: string): string[] => {
    const t = v.trim();
    const flow = /^\[(.*)\]$/s.exec(t);
    if (flow) return flow[1].split(',').map((x) => x.trim().replace(/^(['"])(.*)\1$/s, '$2')).filter(Boolean);
    return (t.replace(/^(['"])(.*)\1$/s, '$2').match(/'[^']*'|"[^"]*"|\S+/g) ?? []).map((x) => x.replace(/^(['"])(.*)\1$/s, '$2'));
  };
  for (const line of lines) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    const indent = line.length - line.trimStart().length;
    const t = line.trim();
    if (indent === 0) {
      inServices = /^services:\s*$/.test(t);
      svcIndent = -1;
      cur = undefined;
      continue;
    }
    if (!inServices) continue;
    if (svcIndent < 0 || indent <= svcIndent) {
      const m = /^([\w.-]+):\s*$/.exec(t);
      if (m) {
        svcIndent = indent;
        cur = { volumes: [], privileged: false };
        out.set(m[1], cur);
        key = '';
      }
      continue;
    }
    if (!cur) continue;
    const kv = /^([\w-]+):\s*(.*)$/.exec(t);
    if (kv && !t.startsWith('-')) {
      key = kv[1];
      keyIndent = indent;
      if (key === 'command' && kv[2]) cur.command = words(kv[2]);
      else if (key === 'working_dir' && kv[2]) cur.workdir = words(kv[2])[0];
      else if (key === 'privileged') cur.privileged = /^true$/i.test(kv[2].trim());
      continue;
    }
    if (t.startsWith('-') && indent >= keyIndent) {
      const item = t.slice(1).trim().replace(/^(['"])(.*)\1$/s, '$2');
      if (key === 'volumes') {
        const parts = item.split(':');
        // A bind mount's source is a path (`.`, `./x`, `/x`, `~/x`); a bare name is a named volume.
        if (parts.length >= 2 && /^[./~$]/.test(parts[0])) cur.volumes.push([parts[0], parts[1]]);
      } else if (key === 'command') (cur.command ??= []).push(item);
    }
  }
  return out;
}

/** `docker compose [-f FILE] run SERVICE CMD` / `up`: with a compose file written on the line, its bind mounts map the container's paths. */
function composeEscapes(name: string, argv: string[], ctx: EscapeContext): Escape[] | undefined {
  let k = 1;
  const files: string[] = [];
  let dir = ctx.cwd;
  if (argv[k] === 'compose') k++;
  for (; k < argv.length && argv[k].startsWith('-'); k++) {
    const a = argv[k];
    if ((a === '-f' || a === '--file') && argv[k + 1] !== undefined) files.push(argv[++k]);
    else if (a.startsWith('--file=')) files.push(a.slice(7));
    else if (a === '--project-directory' && argv[k + 1] !== undefined) dir = posix.resolve(ctx.cwd, argv[++k]);
    else if (/^(?:-p|--project-name|--profile|--env-file|--ansi|--progress|--parallel)$/.test(a)) k++;
  }
  const sub = argv[k];
  if (sub !== 'run' && sub !== 'up' && sub !== 'create') return undefined;
  const candidates = files.length ? files : ['compose.yaml', 'compose.yml', 'docker-compose.yml', 'docker-compose.yaml'];
  let text: string | undefined;
  let base = dir;
  for (const f of candidates) {
    const abs = posix.resolve(dir, f);
    text = ctx.fileText(abs);
    if (text !== undefined) {
      base = posix.dirname(abs);
      break;
    }
  }
  if (text === undefined) return undefined;
  const services = composeServices(text);
  const out: Escape[] = [];
  if (sub === 'run') {
    for (k++; k < argv.length && argv[k].startsWith('-'); k++) if (/^(?:-e|--env|-v|--volume|-w|--workdir|-u|--user|--name|-p|--publish|-l|--label|--entrypoint)$/.test(argv[k])) k++;
    const svc = services.get(argv[k] ?? '');
    if (!svc) return undefined;
    const cmd = argv.length > k + 1 ? argv.slice(k + 1) : svc.command;
    if (cmd?.length) out.push({ lang: 'sh', code: containerCode(cmd, svc.volumes, base, ctx.home, svc.workdir, !svc.privileged), how: `${name} compose run ${argv[k]} (container paths mapped to this machine)` });
    return out;
  }
  for (const [svcName, svc] of services) {
    if (svc.command?.length && out.length < 16) out.push({ lang: 'sh', code: containerCode(svc.command, svc.volumes, base, ctx.home, svc.workdir, !svc.privileged), how: `${name} compose ${sub}: ${svcName} (container paths mapped to this machine)` });
  }
  return out;
}

function quote(argv: string[]): string {
  return argv.map((a) => (/^[A-Za-z0-9_@%+=:,./~-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/**
 * A recipe runner's variables that name a folder, by their value (data): just's `{{justfile_directory()}}`
 * (optionally `/ "sub"`), `{{invocation_directory()}}`, `{{home_directory()}}`; Taskfile's `{{.ROOT_DIR}}`,
 * `{{.TASKFILE_DIR}}`, `{{.USER_WORKING_DIR}}`; make's `$(CURDIR)`, `$(HOME)`, `$(abspath .)`, `$(shell pwd)`;
 * npm's `$INIT_CWD` and `$npm_config_local_prefix` (the scripts' shell sees them as variables).
 * `file` is the recipe file's folder, `invocation` where the runner was started.
 */
export const RECIPE_DIR_VARIABLES: Record<RecipeFormat, [RegExp, 'file' | 'invocation' | 'home'][]> = {
  ninja: [],
  just: [
    [/\{\{\s*(?:justfile_dir(?:ectory)?|source_dir(?:ectory)?)\(\)\s*(?:\/\s*(["'])([^"'{}]*)\1\s*)?\}\}/g, 'file'],
    [/\{\{\s*invocation_dir(?:ectory)?(?:_native)?\(\)\s*(?:\/\s*(["'])([^"'{}]*)\1\s*)?\}\}/g, 'invocation'],
    [/\{\{\s*(?:home_dir(?:ectory)?\(\)|env(?:_var)?\(\s*(["'])HOME\1\s*\))\s*\}\}/g, 'home'],
  ],
  task: [
    [/\{\{\s*\.(?:ROOT_DIR|TASKFILE_DIR|TASK_DIR)\s*\}\}/g, 'file'],
    [/\{\{\s*\.USER_WORKING_DIR\s*\}\}/g, 'invocation'],
    [/\{\{\s*\.HOME\s*\}\}/g, 'home'],
  ],
  make: [
    [/\$[({]CURDIR[)}]|\$\((?:abspath|realpath) \.\)|\$\(shell pwd\)|\$\(dir \$\((?:abspath|realpath) \$\((?:lastword|firstword) \$\(MAKEFILE_LIST\)\)\)\)/g, 'file'],
    [/\$[({]HOME[)}]/g, 'home'],
  ],
};

export function expandRecipeDirs(text: string, kind: RecipeFormat, dirs: { file: string; invocation: string; home: string }): string {
  if (!/\{\{|\$[({]/.test(text)) return text;
  let out = text;
  for (const [re, which] of RECIPE_DIR_VARIABLES[kind]) {
    out = out.replace(re, (_m: string, ...g: unknown[]) => {
      const base = which === 'file' ? dirs.file : which === 'invocation' ? dirs.invocation : dirs.home;
      // The capture groups come before the match's offset (a number): the second is the joined sub-path.
      const groups = g.slice(0, g.findIndex((x) => typeof x === 'number'));
      const sub = which !== 'home' && typeof groups[1] === 'string' ? groups[1] : undefined;
      return sub ? posix.join(base, sub) : base;
    });
  }
  return out;
}

/** Recipe lines of a Makefile / justfile text (lines indented under a `target:` line). */
export function recipeLines(text: string, kind: 'make' | 'just'): string[] {
  const out: string[] = [];
  let inRule = false;
  for (const raw of text.split('\n').slice(0, 2000)) {
    if (/^\s*#/.test(raw) && !/^\t/.test(raw)) continue;
    if (kind === 'make' ? raw.startsWith('\t') : /^[ \t]+\S/.test(raw)) {
      if (!inRule) continue;
      let line = raw.trim().replace(/^[@+-]+/, '');
      if (kind === 'make') line = line.replace(/\$[({]MAKE[)}]/g, 'make').replace(/\$\$/g, '\u0001').replace(/\$[@<^*?]|\$\([^)]*\)|\$\{[^}]*\}/g, '"$__make_var"').replace(/\u0001/g, '$');
      out.push(line);
      continue;
    }
    const rule = /^([^:=#\s][^:=#]*):(?!=)(.*)$/.exec(raw);
    inRule = !!rule;
    // `target: ; cmd` (make) runs cmd as the recipe's first line.
    if (rule && kind === 'make') {
      const semi = rule[2].indexOf(';');
      if (semi >= 0) out.push(rule[2].slice(semi + 1).trim());
    }
  }
  return out;
}

/** make's variables that hold a command its built-in rules run (`make clean RM='rm -rf ~ #'`). */
const MAKE_COMMAND_VARIABLES = /^(?:RM|CC|CXX|CPP|AR|AS|LD|INSTALL|SHELL|MAKE|CP|MV|MKDIR|LN|SED|AWK|YACC|LEX|PYTHON|PERL|NODE|NPM|DOCKER|GO|CARGO|TAR)$/;

function makeEscapes(name: string, argv: string[], ctx: EscapeContext): Escape[] {
  const out: Escape[] = [];
  for (const a of argv.slice(1)) {
    const m = /^([A-Z_]+)=(.+)$/s.exec(a);
    if (m && MAKE_COMMAND_VARIABLES.test(m[1])) out.push({ lang: 'sh', code: `${m[2]} make-target`, how: `${name} ${m[1]}=` });
  }
  let dir = ctx.cwd;
  const files: string[] = [];
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    if ((a === '-f' || a === '--file' || a === '--makefile' || a === '--justfile') && k + 1 < argv.length) files.push(argv[++k]);
    else if (/^--(?:file|makefile|justfile)=/.test(a)) files.push(a.slice(a.indexOf('=') + 1));
    else if (/^-f./.test(a)) files.push(a.slice(2));
    else if ((a === '-C' || a === '--directory' || a === '-d' || a === '--working-directory') && k + 1 < argv.length) dir = posix.resolve(dir, argv[++k]);
    else if (/^-C./.test(a)) dir = posix.resolve(dir, a.slice(2));
    else if (/^-[A-Za-z]{2,}$/.test(a) && name !== 'just') {
      // Bundled short options (`-sf FILE`, `-kC DIR`): flags until one that takes a value (f, C, I, o, W), whose value is
      // the rest of the word or the next word.
      for (let c = 1; c < a.length; c++) {
        if (!'fCIoW'.includes(a[c])) continue;
        const value = c + 1 < a.length ? a.slice(c + 1) : argv[++k];
        if (value !== undefined && a[c] === 'f') files.push(value);
        else if (value !== undefined && a[c] === 'C') dir = posix.resolve(dir, value);
        break;
      }
    } else if (a === '--eval' && k + 1 < argv.length && name !== 'just') out.push(...recipeLines(argv[++k].replace(/;\s*/, ';'), 'make').map((code) => ({ lang: 'sh' as const, code, how: 'make --eval' })));
    else if (/^--eval=/.test(a)) out.push(...recipeLines(a.slice(7), 'make').map((code) => ({ lang: 'sh' as const, code, how: 'make --eval' })));
  }
  const kind = name === 'just' ? 'just' : 'make';
  const defaults = kind === 'just' ? ['justfile', 'Justfile', '.justfile', 'JUSTFILE'] : ['GNUmakefile', 'makefile', 'Makefile'];
  const candidates = files.length ? files : defaults;
  for (const f of candidates) {
    const raw = f === '-' || f === '/dev/stdin' ? ctx.stdin : ctx.fileText(posix.resolve(dir, f));
    if (raw === undefined) continue;
    const text = expandRecipeDirs(raw, kind, { file: kind === 'make' ? dir : posix.dirname(posix.resolve(dir, f)), invocation: ctx.cwd, home: ctx.home });
    const targets = argv.slice(1).filter((a, i) => !a.startsWith('-') && !a.includes('=') && !/^-[Cfd]$|^--(?:directory|file|makefile|justfile|working-directory)$/.test(argv[i] ?? ''));
    const cycle = recipeCycle(text, kind, targets);
    if (cycle) out.push({ lang: 'sh', code: '', how: `${name} recipe from ${f}`, bomb: `the ${name} target ${cycle.join(' -> ')} runs ${name} on itself again, without end: runaway recursion, a fork bomb` });
    for (const code of recipeLines(text, kind)) out.push({ lang: 'sh', code, how: `${name} recipe from ${f}`, cwd: dir });
    if (!files.length) break;
  }
  return out;
}

const INSTALL_COMMANDS = new Set(['install', 'i', 'in', 'ci', 'add', 'isntall', 'clean-install', 'install-clean']);

/** npm/pnpm/yarn/bun run SCRIPT with a package.json written on the line: the script's text runs in a shell. */
function packageScriptEscapes(name: string, argvIn: string[], ctx: EscapeContext): Escape[] {
  // The folder whose package.json runs: --prefix (npm), -C / --dir (pnpm), --cwd (yarn, bun); those values are not scripts.
  let dir = ctx.cwd;
  const argv = [argvIn[0]];
  for (let i = 1; i < argvIn.length; i++) {
    const a = argvIn[i];
    const eq = /^--(?:prefix|dir|cwd)=(.+)$/.exec(a);
    if (eq) dir = posix.resolve(ctx.cwd, eq[1]);
    else if (['--prefix', '-C', '--dir', '--cwd'].includes(a) && i + 1 < argvIn.length) dir = posix.resolve(ctx.cwd, argvIn[++i]);
    else argv.push(a);
  }
  const runIdx = argv.findIndex((a, i) => i > 0 && ['run', 'run-script', 'start', 'test', 'build', 'exec'].includes(a));
  const script = runIdx < 0 ? argv.find((a, i) => i > 0 && !a.startsWith('-')) : argv[runIdx] === 'run' || argv[runIdx] === 'run-script' ? argv[runIdx + 1] : argv[runIdx];
  if (!script) return [];
  const text = ctx.fileText(posix.resolve(dir, 'package.json'));
  if (text === undefined) return [];
  let scripts: unknown;
  try {
    scripts = (JSON.parse(text) as { scripts?: unknown }).scripts;
  } catch {
    return [];
  }
  if (!scripts || typeof scripts !== 'object') return [];
  const out: Escape[] = [];
  // The package manager's variables that name the project in the script's shell.
  const q = (p: string) => `'${p.replace(/'/g, `'\\''`)}'`;
  const cycle = scriptCycle(scripts as Record<string, unknown>, script === 'run' ? '' : NPM_SCRIPT_ALIASES[script] ?? script);
  if (cycle) out.push({ lang: 'sh', code: '', how: `${name} run ${script}`, bomb: `the package script ${cycle.join(' -> ')} runs itself again, without end: runaway recursion, a fork bomb` });
  const prelude = `INIT_CWD=${q(ctx.cwd)} npm_config_local_prefix=${q(ctx.cwd)} npm_package_json=${q(posix.join(ctx.cwd, 'package.json'))}\n`;
  // An install in the folder runs the package's own lifecycle scripts.
  const keys = INSTALL_COMMANDS.has(script) ? ['preinstall', 'install', 'postinstall', 'preprepare', 'prepare', 'postprepare'] : [`pre${script}`, script, `post${script}`];
  for (const key of keys) {
    const v = (scripts as Record<string, unknown>)[key];
    if (typeof v === 'string') out.push({ lang: 'sh', code: /\$\{?(?:INIT_CWD|npm_config_local_prefix|npm_package_json)\b/.test(v) ? prelude + v : v, how: `${name} run ${key} from package.json` });
  }
  return out;
}

/** Commands in the values of NAME=VALUE prefixes that the program runs (GIT_PAGER='cmd' git log). */
function envEscapes(ctx: EscapeContext): Escape[] {
  const out: Escape[] = [];
  for (const { name, value } of ctx.assignments) {
    if (!COMMAND_ENV.includes(name) || !value.trim()) continue;
    const code = name.startsWith('LESS') ? value.replace(/^\|\|?-?/, '').replace(/%s/g, 'file') : value;
    out.push({ lang: 'sh', code, how: `${name}=` });
  }
  return out;
}

/**
 * Options whose value is a command the program runs through a shell on this machine (data): tar's
 * checkpoint actions and filters, zip's test command, rsync's and scp's remote shell, ssh's
 * ProxyCommand / LocalCommand / KnownHostsCommand. Per program: option names (a `-o` value is matched
 * as KEY=VALUE, case-insensitively on KEY) and, where the command sits after a prefix in the value, that prefix.
 */
export const OPTION_COMMANDS: Record<string, { long?: string[]; short?: string[]; sshOptions?: boolean; valuePrefix?: Record<string, string> }> = {
  tar: { long: ['--checkpoint-action', '--to-command', '--use-compress-program', '--rsh-command', '--info-script', '--new-volume-script'], short: ['-I', '-F'], valuePrefix: { '--checkpoint-action': 'exec=' } },
  bsdtar: { long: ['--use-compress-program'], short: ['-I'] },
  gtar: { long: ['--checkpoint-action', '--to-command', '--use-compress-program', '--rsh-command', '--info-script', '--new-volume-script'], short: ['-I', '-F'], valuePrefix: { '--checkpoint-action': 'exec=' } },
  zip: { long: ['--unzip-command'], short: ['-TT'] },
  rsync: { long: ['--rsh'], short: ['-e'] },
  scp: { short: ['-S'], sshOptions: true },
  sftp: { short: ['-S'], sshOptions: true },
  ssh: { sshOptions: true },
  autossh: { sshOptions: true },
  sshfs: { long: ['--ssh_command'], sshOptions: true },
  socat: {},
};
/** ssh `-o` keys whose value is a command run on this machine. */
const SSH_COMMAND_OPTIONS = /^(?:proxycommand|localcommand|knownhostscommand|remotecommand)$/i;

function optionCommands(name: string, argv: string[]): Escape[] {
  const spec = Object.prototype.hasOwnProperty.call(OPTION_COMMANDS, name) ? OPTION_COMMANDS[name] : undefined;
  if (!spec) return [];
  const out: Escape[] = [];
  const add = (opt: string, v: string | undefined) => {
    if (v === undefined) return;
    const prefix = spec.valuePrefix?.[opt];
    if (prefix !== undefined && !v.startsWith(prefix)) return;
    const code = prefix ? v.slice(prefix.length) : v;
    if (code.trim()) out.push({ lang: 'sh', code, how: `${name} ${opt}` });
  };
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    if (a === '--') break;
    // socat's EXEC: / SYSTEM: address runs a program here, whatever the other address is.
    if (name === 'socat') {
      const m = /^(?:exec|system):(.+?)(?:,[a-z-]+(?:=[^,]*)?)*$/is.exec(a);
      if (m) out.push({ lang: 'sh', code: m[1], how: 'socat EXEC:' });
      continue;
    }
    const eq = a.indexOf('=');
    const key = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    if (spec.long?.includes(key)) add(key, eq > 0 && a.startsWith('--') ? a.slice(eq + 1) : argv[++k]);
    else if (spec.short?.includes(a)) add(a, argv[++k]);
    else if (spec.short?.some((o) => a.startsWith(o) && a.length > o.length && o.length === 2)) add(a.slice(0, 2), a.slice(2));
    else if (spec.sshOptions && (a === '-o' || (a.startsWith('-o') && a.length > 2))) {
      const v = a === '-o' ? argv[++k] : a.slice(2);
      const m = v === undefined ? null : /^([A-Za-z]+)\s*[= ]\s*([\s\S]+)$/.exec(v);
      if (m && SSH_COMMAND_OPTIONS.test(m[1]) && !/^none$/i.test(m[2].trim())) out.push({ lang: 'sh', code: m[2], how: `${name} -o ${m[1]}` });
    }
  }
  return out;
}

/** GNU sed's `e` command and the `e` flag of `s///`: what they name runs in a shell. */
/** The script lines of a sed command line (-e, --expression=, or the first operand). */
function sedScripts(argv: string[]): string[] {
  const scripts: string[] = [];
  let given = false;
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    if (a === '-e' || a === '--expression') {
      given = true;
      if (argv[k + 1] !== undefined) scripts.push(argv[++k]);
    } else if (a.startsWith('--expression=')) {
      given = true;
      scripts.push(a.slice(13));
    } else if (a === '-f' || a === '--file' || a === '-l') k++;
    else if (!a.startsWith('-') && !given) {
      scripts.push(a);
      break;
    }
  }
  return scripts.filter((x) => x.length <= 8192).flatMap((x) => x.split(/\n|;/).map((l) => l.trim()));
}

/** GNU sed runs its input as commands: a bare `e` runs the pattern space, `s/…/…/e` runs the line it made. */
export function sedRunsInput(argv: string[]): boolean {
  return sedScripts(argv).some((t) => /^(?:\d+|\$|\/[^/]*\/)?,?(?:\d+|\$|\/[^/]*\/)?\s*e$/.test(t) || sedRunsReplacement(t));
}

/** `[address]s<d>RE<d>REPLACEMENT<d>FLAGS`, split where sed splits it: a backslash escapes the delimiter. */
function sedSubstitution(t: string): { replacement: string; flags: string } | undefined {
  const sub = /^(?:\d+|\$|\/[^/]*\/)?\s*s([^\\\n\sa-zA-Z0-9])/.exec(t);
  if (!sub) return undefined;
  const d = sub[1];
  const parts: string[] = [''];
  for (let i = sub[0].length; i < t.length; i++) {
    if (t[i] === '\\' && i + 1 < t.length) {
      // An escaped delimiter is the delimiter's character; any other escape is kept for the replacement's reader.
      parts[parts.length - 1] += t[i + 1] === d ? d : t[i] + t[i + 1];
      i++;
    } else if (t[i] === d) parts.push('');
    else parts[parts.length - 1] += t[i];
  }
  return parts.length === 3 ? { replacement: parts[1], flags: parts[2] } : undefined;
}
const sedRunsReplacement = (t: string) => {
  const s = sedSubstitution(t);
  return !!s && /^[gpIiMm0-9e]*$/.test(s.flags) && s.flags.includes('e');
};

function sedEscapes(argv: string[], stdin?: string): Escape[] {
  const out: Escape[] = [];
  // Input known now: its lines are the commands sed runs.
  if (stdin !== undefined && sedRunsInput(argv)) out.push({ lang: 'sh', code: stdin, how: 'sed e (its input lines run)' });
  {
    for (const line of sedScripts(argv)) {
      // A block under an address (`1{s|.*|CMD|ep}`, `/x/!{e CMD}`): its commands, as sed runs them.
      let t = line.trim();
      for (let k = 0; k < 4; k++) {
        const block = /^(?:\d+|\$|\/[^/]*\/)?(?:,(?:\d+|\$|\/[^/]*\/))?\s*!?\s*\{\s*([\s\S]*?)\s*;?\s*\}$/.exec(t);
        if (!block) break;
        t = block[1];
      }
      // A block over several lines: its opening line's command after `{`, its closing line's before `}`.
      t = t.replace(/^(?:\d+|\$|\/[^/]*\/)?(?:,(?:\d+|\$|\/[^/]*\/))?\s*!?\s*\{\s*/, '').replace(/\s*;?\s*\}$/, '');
      // [address]e COMMAND
      const e = /^(?:\d+|\$|\/[^/]*\/)?,?(?:\d+|\$|\/[^/]*\/)?\s*e\s+(.+)$/.exec(t);
      if (e) out.push({ lang: 'sh', code: e[1], how: 'sed e' });
      // s/RE/REPLACEMENT/FLAGS with e: the replaced line is run (the replacement is the command when it takes the whole line)
      const sub = sedSubstitution(t);
      if (sub && sedRunsReplacement(t) && sub.replacement.trim()) out.push({ lang: 'sh', code: sub.replacement.replace(/\\(.)/g, '$1'), how: 'sed s///e' });
    }
  }
  return out;
}

/**
 * Tools that run commands from files of their own format (data): Taskfile `cmds:` lines (task), `//go:generate`
 * directives (go generate), Terraform `local-exec` provisioners (terraform apply / destroy). Only files written
 * earlier on the line are known; the folder comes from the tool's option.
 */
export const FILE_RECIPES: Record<string, { sub?: string[]; dirOptions: string[]; files: RegExp; commands?: RegExp; recipes?: RecipeFormat }> = {
  // A recipe format is read by the same reader as the runner's `-f FILE` (launchers.ts recipeScript).
  task: { dirOptions: ['-d', '--dir'], files: /(?:^|\/)Taskfile(?:\.dist)?\.ya?ml$/i, recipes: 'task' },
  ninja: { dirOptions: ['-C'], files: /(?:^|\/)build\.ninja$/, recipes: 'ninja' },
  go: { sub: ['generate'], dirOptions: ['-C'], files: /\.go$/, commands: /^\/\/go:generate\s+(.+)$/gm },
  terraform: { sub: ['apply', 'destroy'], dirOptions: ['-chdir'], files: /\.tf(?:\.json)?$/, commands: /\bcommand\s*=\s*"((?:[^"\\]|\\.){1,4000})"/g },
  tofu: { sub: ['apply', 'destroy'], dirOptions: ['-chdir'], files: /\.tf(?:\.json)?$/, commands: /\bcommand\s*=\s*"((?:[^"\\]|\\.){1,4000})"/g },
};

function fileRecipes(name: string, argv: string[], ctx: EscapeContext): Escape[] {
  const spec = Object.prototype.hasOwnProperty.call(FILE_RECIPES, name) ? FILE_RECIPES[name] : undefined;
  if (!spec || !ctx.filesIn) return [];
  const ops = argv.slice(1).filter((a) => !a.startsWith('-'));
  if (spec.sub && !spec.sub.includes(ops[0] ?? '')) return [];
  let dir = ctx.cwd;
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    const eq = a.indexOf('=');
    const key = eq > 0 ? a.slice(0, eq) : a;
    if (spec.dirOptions.includes(key)) dir = posix.resolve(ctx.cwd, eq > 0 ? a.slice(eq + 1) : argv[++k] ?? '.');
  }
  // go generate FILE.go | DIR | ./...: the folder of the named file or package (an import path is not a folder here).
  const target = name === 'go' ? ops.slice(1).find((o) => o.endsWith('.go') || o.startsWith('.') || o.startsWith('/')) : undefined;
  if (target) dir = posix.resolve(ctx.cwd, target.endsWith('.go') ? posix.dirname(target) : target.replace(/\/\.\.\.$/, ''));
  const out: Escape[] = [];
  for (const [abs, raw] of ctx.filesIn(dir)) {
    if (!spec.files.test(abs)) continue;
    const text = name === 'task' ? expandRecipeDirs(raw, 'task', { file: posix.dirname(abs), invocation: ctx.cwd, home: ctx.home }) : raw;
    if (spec.recipes) {
      const code = recipeScript(spec.recipes, text);
      if (code.trim() && out.length < 20) out.push({ lang: 'sh', code, how: `${name} ${posix.basename(abs)}` });
    } else if (spec.commands) for (const m of text.matchAll(spec.commands)) if (out.length < 20) out.push({ lang: 'sh', code: m[1].replace(/\\"/g, '"'), how: `${name} ${posix.basename(abs)}` });
  }
  return out;
}

/**
 * A notebook written on the line and executed (`jupyter nbconvert --execute`, `jupyter execute`,
 * `papermill`): its code cells run in the notebook's kernel (tables/ipython.ts NOTEBOOK_RUNNERS).
 */
function notebookEscapes(name: string, argv: string[], ctx: EscapeContext): Escape[] {
  const spec = Object.prototype.hasOwnProperty.call(NOTEBOOK_RUNNERS, name) ? NOTEBOOK_RUNNERS[name] : undefined;
  if (!spec) return [];
  let needs = spec.needs;
  let from = 1;
  if (spec.sub) {
    const sub = argv[1] ?? '';
    if (!Object.prototype.hasOwnProperty.call(spec.sub, sub)) return [];
    needs = spec.sub[sub] ?? undefined;
    from = 2;
  }
  if (needs && !argv.slice(from).some((a) => needs!.test(a))) return [];
  const out: Escape[] = [];
  for (const f of argv.slice(from)) {
    if (f.startsWith('-') || !/\.ipynb$/i.test(f)) continue;
    const text = ctx.fileText(posix.resolve(ctx.cwd, f));
    if (text === undefined) continue;
    for (const cell of notebookCells(text)) if (out.length < 32) out.push({ lang: cell.lang, code: cell.code, how: `${name} cell of ${posix.basename(f)}` });
  }
  return out;
}

/** Every escape of one simple command (argv[0] is the program's base name). */
export function programEscapes(name: string, argv: string[], ctx: EscapeContext): Escape[] {
  const out = envEscapes(ctx);
  out.push(...optionCommands(name, argv));
  out.push(...fileRecipes(name, argv, ctx));
  out.push(...notebookEscapes(name, argv, ctx));
  out.push(...buildFileEscapes(name, argv, ctx));
  out.push(...taskFileEscapes(name, argv, ctx));
  if (name === 'sed' || name === 'gsed') out.push(...sedEscapes(argv, ctx.stdin));
  if (EDITORS.includes(name)) out.push(...editorEscapes(name, argv, ctx));
  else if (name === 'emacs' || name === 'emacsclient' || name === 'emacs-nox') out.push(...emacsFileEscapes(name, argv, ctx));
  else if (PAGERS.includes(name)) out.push(...pagerEscapes(name, argv));
  else if (name === 'man') out.push(...manEscapes(argv));
  else if (name === 'git') {
    out.push(...gitConfigEscapes(argv));
    if (ctx.gitIncludes) {
      for (const p of gitIncludesSet(argv)) if (ctx.gitIncludes.size < 16 && !p.includes('\u0000')) ctx.gitIncludes.add(p);
      // Every later git command reads the included files (`git config` itself runs none of their commands).
      if (ctx.gitIncludes.size && !argv.includes('config')) out.push(...gitIncludedEscapes(argv, ctx, ctx.gitIncludes));
    }
  }
  else if (name === 'gdb' || name === 'gdb-multiarch' || name === 'cgdb') out.push(...gdbEscapes(argv));
  else if (name === 'hyperfine') out.push(...hyperfineEscapes(argv));
  else if (name === 'ssh' || name === 'mosh' || name === 'autossh') out.push(...sshEscapes(name, argv));
  else if (['docker', 'podman', 'nerdctl', 'kubectl', 'oc', 'docker-compose', 'podman-compose', 'finch', 'lima', 'colima'].includes(name)) out.push(...containerEscapes(name, argv, ctx));
  else if (['make', 'gmake', 'bmake', 'just', 'remake'].includes(name)) out.push(...makeEscapes(name, argv, ctx));
  else if (['npm', 'pnpm', 'yarn', 'bun'].includes(name)) out.push(...packageScriptEscapes(name, argv, ctx));
  return out;
}
