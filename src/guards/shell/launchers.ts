// Commands that make another command run (issue 12 §1.2): git's
// command-running config, options and environment; editors, debuggers and
// pagers with shell escapes; expect; emacs --batch; recipe runners fed
// inline; ssh and cluster exec; container runs with host mounts (container
// paths mapped back to host paths). Each is read from the tables in
// tables/launchers.ts and returned as launches: the analyzer judges a
// launched script like any other shell text.
import { tclCommandsOf } from './tcl';
import { posix } from 'node:path';
import {
  CONTAINER_RUNNERS, DEBUGGERS, ELISP_CALLS, EX_EDITORS, EX_LANG, GIT_HOOKS, GIT_RUN_ENV, GIT_RUN_KEYS, GIT_RUN_OPERANDS, GIT_RUN_OPTIONS,
  LOCAL_HOSTS, COMMAND_OPTIONS, RECIPE_RUNNERS, REMOTE_COMMANDS, REMOTE_EXEC, SCRIPT_SETTERS, SSH_GRAMMAR, TCL_RUNS, type GitValueRuns, type RecipeFormat,
} from './tables/launchers';
import { GIT_COMMAND_URL_PREFIXES, GIT_EXT_ESCAPES, GIT_GLOBAL_WITH_ARG, GIT_OPTIONS, keyMatches } from './tables/git';
import { work } from './work';

/** What a command launches. */
export type Launch =
  /** A shell script (static text); `stdin`: it reads the launcher's stdin; `cwd`: where it runs. */
  | { kind: 'script'; text: string; how: string; cwd?: string; stdin?: boolean; positional?: string[] }
  /** The launcher's stdin, or a file it names (`-f -`, a file written on the line), is a script in `format`. */
  | { kind: 'feed'; source: 'stdin' | { word: number } | { path: string }; format: 'sh' | 'ex' | 'gdb' | RecipeFormat | 'tcl'; how: string; cwd?: string }
  /** Files written earlier on the line with one of these base names run (git hooks). */
  | { kind: 'hooks'; names: string[]; how: string }
  /** A command only known at run time. */
  | { kind: 'ask'; how: string; why: string }
  /** A host file handed to a program in a container (judged as a read of it). */
  | { kind: 'read'; path: string; how: string };

export interface LaunchCtx {
  name: string;
  argv: string[];
  cwd: string;
  home: string;
  /** Variables set on the line and prefix assignments of this command. */
  env: (name: string) => string | undefined;
}

const MAX_TEXT = 64 * 1024;
const MAX_LAUNCHES = 64;

/** Quotes a word for a shell script built from argv (a leading ~ stays unquoted so it expands). */
export function shq(a: string): string {
  if (/^[A-Za-z0-9_@%+=:,./~-]+$/.test(a) && a !== '') return a;
  const tilde = /^~(?=\/|$)/.test(a) ? '~' : '';
  return `${tilde}'${a.slice(tilde.length).replace(/'/g, `'\\''`)}'`;
}

const joinArgv = (argv: string[]): string => argv.map(shq).join(' ');

/** Every command the program `ctx.name` launches, as far as its arguments tell. */
export function launchesOf(ctx: LaunchCtx): Launch[] {
  const out: Launch[] = [];
  const { name } = ctx;
  work.units += ctx.argv.length;
  if (name === 'git') gitLaunches(ctx, out);
  if (Object.hasOwn(EX_EDITORS, name)) editorLaunches(ctx, out);
  if (Object.hasOwn(DEBUGGERS, name)) debuggerLaunches(ctx, out);
  if (Object.hasOwn(COMMAND_OPTIONS, name)) optionLaunches(ctx, out);
  if (name === 'expect') expectLaunches(ctx, out);
  if (name === 'emacs' || name === 'emacsclient') emacsLaunches(ctx, out);
  if (Object.hasOwn(RECIPE_RUNNERS, name)) recipeLaunches(ctx, out);
  if (SSH_GRAMMAR.names.includes(name)) sshLaunches(ctx, out);
  if (name === 'bind') bindLaunches(ctx, out);
  if (CONTAINER_RUNNERS.names.includes(name)) containerLaunches(ctx, out);
  remoteExecLaunches(ctx, out);
  remoteCommandLaunches(ctx, out);
  if (Object.hasOwn(SCRIPT_SETTERS, name)) npmLaunches(ctx, out);
  return out.slice(0, MAX_LAUNCHES).map((l) => (l.kind === 'script' && l.text.length > MAX_TEXT ? { kind: 'ask', how: l.how, why: 'a launched script too long to analyse' } : l));
}

// ---------------------------------------------------------------- git

/** How git runs the value of config key `key` (undefined: it does not run it). */
export function gitKeyRuns(key: string): GitValueRuns | undefined {
  const k = key.toLowerCase();
  return GIT_RUN_KEYS.find(([p]) => keyMatches(p, k))?.[1];
}

const BOOL = /^(?:true|false|yes|no|on|off|0|1|)$/i;

/** A program that sends what it reads over the network. */
const NETWORK_SENDER = /(?:^|[\s;|&(`'"/])(?:curl|wget|wget2|nc|ncat|netcat|socat|telnet|http|https|xh|httpie|aria2c|scp|sftp|rsync|ssh)(?=[\s;|&)`'"]|$)|\/dev\/(?:tcp|udp)\//;

function gitValue(runs: GitValueRuns, value: string, how: string, out: Launch[]): void {
  switch (runs) {
    case 'sh':
      if (value.trim()) out.push({ kind: 'script', text: value, how });
      return;
    case 'sh-unless-bool':
      if (!BOOL.test(value.trim())) out.push({ kind: 'script', text: value, how });
      return;
    case 'alias':
      if (value.startsWith('!')) out.push({ kind: 'script', text: value.slice(1), how });
      return;
    case 'helper': {
      const helper = value.startsWith('!') ? value.slice(1) : value.includes('/') ? value : undefined;
      if (helper === undefined) return;
      out.push({ kind: 'script', text: helper, how });
      // A helper is handed the user's credentials on stdin (git credential approve): one that talks to the network sends them.
      if (NETWORK_SENDER.test(helper)) out.push({ kind: 'read', path: '~/.git-credentials', how: `${how} (sends the credentials it is given over the network)` });
      return;
    }
    case 'hooks-dir':
      out.push({ kind: 'hooks', names: GIT_HOOKS, how });
      return;
  }
}

/** `'k'='v' 'k2'='v2'` as git writes GIT_CONFIG_PARAMETERS. */
function configParameters(text: string): [string, string][] {
  const pairs: [string, string][] = [];
  const re = /'((?:[^']|'\\'')*)'(?:=('(?:[^']|'\\'')*'))?/g;
  let m: RegExpExecArray | null;
  const unq = (s: string) => s.replace(/'\\''/g, "'");
  while ((m = re.exec(text)) && pairs.length < 32) {
    const k = unq(m[1]);
    if (m[2] !== undefined) pairs.push([k, unq(m[2].slice(1, -1))]);
    else if (k.includes('=')) pairs.push([k.slice(0, k.indexOf('=')), k.slice(k.indexOf('=') + 1)]);
  }
  return pairs;
}

/** A long option given by any unambiguous prefix of one of `names` (or of the subcommand's own options). */
function longOpt(word: string, names: string[], sub: string): { name: string; value?: string } | undefined {
  const eq = word.indexOf('=');
  const opt = eq < 0 ? word : word.slice(0, eq);
  const all = new Set([...((Object.hasOwn(GIT_OPTIONS, sub) ? GIT_OPTIONS[sub] : undefined)?.long ?? []), ...names]);
  const hit = all.has(opt) ? [opt] : [...all].filter((n) => n.startsWith(opt));
  if (hit.length !== 1 || !names.includes(hit[0]) || opt.length < 3) return undefined;
  return { name: hit[0], value: eq < 0 ? undefined : word.slice(eq + 1) };
}

/** The argv an `ext::CMD ARGS` URL runs (git-remote-ext: blanks split words, `% ` `%%` `%s` `%S` escapes, `%G`/`%V` words dropped). */
export function extCommand(url: string): string[] {
  const words: string[] = [];
  let cur = '';
  let started = false;
  for (let i = 0; i < url.length; i++) {
    const two = url.slice(i, i + 2);
    if (url[i] === '%' && Object.hasOwn(GIT_EXT_ESCAPES, two)) {
      cur += GIT_EXT_ESCAPES[two];
      started = true;
      i++;
    } else if (url[i] === ' ') {
      if (started) words.push(cur);
      cur = '';
      started = false;
    } else {
      cur += url[i];
      started = true;
    }
  }
  if (started) words.push(cur);
  return words.filter((w) => !/^%[GV]/.test(w));
}

/** Commands run by URLs of a command transport (`ext::`) found in a word (an operand, `--remote=URL`, a `-c` key or value). */
function commandUrls(word: string, how: string, out: Launch[]): void {
  for (const p of GIT_COMMAND_URL_PREFIXES) {
    const at = word.indexOf(p);
    if (at < 0) continue;
    // `url.ext::CMD.insteadOf` names the URL in the key.
    const url = word.slice(at + p.length).replace(/\.(?:push)?insteadof(?:=.*)?$/i, '');
    const cmd = extCommand(url);
    if (cmd.length) out.push({ kind: 'script', text: joinArgv(cmd), how: `${how} ${p} transport` });
  }
}

function gitLaunches(ctx: LaunchCtx, out: Launch[]): void {
  const { argv } = ctx;
  const configs: [string, string, string][] = [];
  let k = 1;
  while (k < argv.length && argv[k].startsWith('-')) {
    const a = argv[k];
    if (a === '-c' || a.startsWith('-c')) {
      const v = a === '-c' ? argv[k + 1] : a.slice(2);
      if (v !== undefined && v.includes('=')) configs.push([v.slice(0, v.indexOf('=')), v.slice(v.indexOf('=') + 1), 'git -c']);
    } else if (a === '--config-env' || a.startsWith('--config-env=')) {
      const v = a === '--config-env' ? argv[k + 1] : a.slice('--config-env='.length);
      if (v?.includes('=')) {
        const from = ctx.env(v.slice(v.indexOf('=') + 1));
        if (from !== undefined) configs.push([v.slice(0, v.indexOf('=')), from, 'git --config-env']);
      }
    }
    k += GIT_GLOBAL_WITH_ARG.includes(a) ? 2 : 1;
  }
  const sub = argv[k];
  const rest = argv.slice(k + 1);
  // Environment variables git reads.
  for (const [v, runs] of Object.entries(GIT_RUN_ENV)) {
    const value = ctx.env(v);
    if (value !== undefined) gitValue(runs, value, `git (${v})`, out);
  }
  const params = ctx.env('GIT_CONFIG_PARAMETERS');
  if (params) for (const [key, value] of configParameters(params)) configs.push([key, value, 'GIT_CONFIG_PARAMETERS']);
  const count = Number(ctx.env('GIT_CONFIG_COUNT') ?? '0');
  for (let i = 0; i < Math.min(Number.isFinite(count) ? count : 0, 32); i++) {
    const key = ctx.env(`GIT_CONFIG_KEY_${i}`);
    const value = ctx.env(`GIT_CONFIG_VALUE_${i}`);
    if (key !== undefined && value !== undefined) configs.push([key, value, 'GIT_CONFIG_COUNT']);
  }
  // `git clone -c k=v` / `--config k=v` sets config in the new repository (hooksPath, fsmonitor run at checkout).
  if (sub === 'clone') {
    for (let j = 0; j < rest.length; j++) {
      const a = rest[j];
      const v = a === '-c' || a === '--config' ? rest[j + 1] : a.startsWith('--config=') ? a.slice(9) : /^-c./.test(a) ? a.slice(2) : undefined;
      if (v?.includes('=')) configs.push([v.slice(0, v.indexOf('=')), v.slice(v.indexOf('=') + 1), 'git clone --config']);
    }
  }
  // `git config KEY VALUE` stores a command that runs later: judged now.
  if (sub === 'config') {
    const spec = GIT_OPTIONS.config;
    const ops: string[] = [];
    let reading = false;
    for (let j = 0; j < rest.length; j++) {
      const a = rest[j];
      if (a === '--') {
        ops.push(...rest.slice(j + 1));
        break;
      }
      if (/^--(?:get|get-all|get-regexp|get-urlmatch|unset|unset-all|list|edit|remove-section|rename-section)$/.test(a) || a === '-l' || a === '-e') reading = true;
      if (a.startsWith('--')) {
        if (spec.longWithArg.includes(a)) j++;
        continue;
      }
      if (a.startsWith('-') && a.length > 1) {
        if (a === '-f') j++;
        continue;
      }
      ops.push(a);
    }
    if (!reading) {
      const [key, value] = ops[0] === 'set' ? [ops[1], ops[2]] : ops[0] === 'get' || ops[0] === 'unset' || ops[0] === 'list' ? [undefined, undefined] : [ops[0], ops[1]];
      if (key !== undefined && value !== undefined) configs.push([key, value, 'git config']);
    }
  }
  for (const w of argv.slice(1)) commandUrls(w, 'git', out);
  for (const [key, value, how] of configs) {
    const runs = gitKeyRuns(key);
    if (runs) gitValue(runs, value, `${how} ${key}`, out);
  }
  if (sub === undefined) return;
  // Options whose value is a command (rebase --exec, grep -O, push --receive-pack).
  const opts = Object.hasOwn(GIT_RUN_OPTIONS, sub) ? GIT_RUN_OPTIONS[sub] : undefined;
  if (opts) {
    for (let j = 0; j < rest.length; j++) {
      const a = rest[j];
      if (a === '--') break;
      if (a.startsWith('--')) {
        const o = longOpt(a, opts.long, sub);
        if (o) {
          const v = o.value ?? rest[++j];
          if (v !== undefined) out.push({ kind: 'script', text: v, how: `git ${sub} ${o.name}` });
        }
        continue;
      }
      if (a.startsWith('-') && a.length > 1) {
        for (let i = 1; i < a.length; i++) {
          const ch = a[i];
          if (opts.gluedOnly?.includes(ch)) {
            if (a.length > i + 1) out.push({ kind: 'script', text: a.slice(i + 1), how: `git ${sub} -${ch}` });
            break;
          }
          if (opts.short?.includes(ch)) {
            const v = a.length > i + 1 ? a.slice(i + 1) : rest[++j];
            if (v !== undefined) out.push({ kind: 'script', text: v, how: `git ${sub} -${ch}` });
            break;
          }
          if (Object.hasOwn(GIT_OPTIONS, sub) && GIT_OPTIONS[sub].shortWithArg.includes(ch)) {
            if (i === a.length - 1) j++;
            break;
          }
        }
      }
    }
  }
  for (const [label, spec] of Object.entries(GIT_RUN_OPERANDS)) {
    if (argv[k] !== spec.after[0] || argv[k + 1] !== spec.after[1]) continue;
    let j = k + 2;
    while (j < argv.length && spec.flags.includes(argv[j])) j++;
    if (argv[j] === '--') j++;
    const cmd = argv.slice(j);
    if (cmd.length) out.push({ kind: 'script', text: spec.joined ? cmd.join(' ') : joinArgv(cmd), how: `git ${label}` });
  }
  // Hooks written on the line run when git commits, merges, checks out, pushes.
  if (/^(?:commit|merge|pull|push|rebase|am|checkout|switch|clone|worktree|cherry-pick|revert|gc|receive-pack|send-email|stash)$/.test(sub)) out.push({ kind: 'hooks', names: GIT_HOOKS, how: `git ${sub} (hooks)` });
}

// ---------------------------------------------------------------- editors

/** Shell commands run by ex commands (`!cmd`, `:r !cmd`, `%!cmd`, `call system("cmd")`, `silent exe "!cmd"`). */
export function exCommandLaunches(text: string, how: string, out: Launch[], depth = 0): void {
  if (depth > 3 || out.length >= MAX_LAUNCHES) return;
  work.units += text.length;
  // system("..."), systemlist('...'), termopen/jobstart with a string
  const call = /\b(?:system|systemlist|termopen|jobstart|execute)\s*\(\s*(?:\[\s*)?("(?:[^"\\]|\\.){0,4000}"|'(?:[^']|''){0,4000}')/g;
  let m: RegExpExecArray | null;
  while ((m = call.exec(text)) && out.length < MAX_LAUNCHES) out.push({ kind: 'script', text: vimString(m[1]), how: `${how} system()` });
  if (/\b(?:system|systemlist|jobstart|termopen)\s*\(\s*[^"'\s[]/.test(text)) out.push({ kind: 'ask', how, why: 'an editor runs a command only known at run time' });
  for (const line of text.split(/\n/)) {
    let rest = line;
    // Commands are separated by | except after ! (the rest of the line is the shell command).
    for (let guard = 0; guard < 50 && rest.trim(); guard++) {
      const cmd = rest.replace(/^[\s:]+/, '').replace(/^(?:silent!?|sil!?|keepalt|noautocmd|noa|vertical|vert|belowright|bel|botright|bo)\s+/g, '');
      const bang = /^(?:[%.$,\d'<>+-]*\s*(?:(?:r(?:ead)?|w(?:rite)?)\s+)?)!(.*)$/s.exec(cmd);
      if (bang) {
        if (bang[1].trim()) out.push({ kind: 'script', text: bang[1], how: `${how} !` });
        break;
      }
      const term = /^(?:ter(?:minal)?|Terminal)\s+(?:\+\+\w+\s+)*(.*)$/s.exec(cmd);
      if (term) {
        if (term[1].trim()) out.push({ kind: 'script', text: term[1], how: `${how} :terminal` });
        break;
      }
      const lang = /^([a-z0-9]+)\s+(.*)$/s.exec(cmd);
      if (lang && Object.hasOwn(EX_LANG, lang[1])) {
        out.push({ kind: 'script', text: joinArgv([...EX_LANG[lang[1]], lang[2]]), how: `${how} :${lang[1]}` });
        break;
      }
      const exe = /^exe(?:c|cu|cut|cute)?\s+("(?:[^"\\]|\\.)*"|'(?:[^']|'')*')/.exec(cmd);
      if (exe) exCommandLaunches(vimString(exe[1]), how, out, depth + 1);
      const bar = rest.indexOf('|');
      if (bar < 0) break;
      rest = rest.slice(bar + 1);
    }
  }
}

function vimString(q: string): string {
  if (q.startsWith("'")) return q.slice(1, -1).replace(/''/g, "'");
  return q.slice(1, -1).replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c === 'r' ? '\r' : c));
}

function editorLaunches(ctx: LaunchCtx, out: Launch[]): void {
  const spec = EX_EDITORS[ctx.name];
  const { argv } = ctx;
  let exMode = ctx.name === 'ex' || ctx.name === 'ed';
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    if (a === '--') break;
    if (spec.cmd.includes(a)) {
      if (argv[k + 1] !== undefined) exCommandLaunches(argv[++k], `${ctx.name} ${a}`, out);
      continue;
    }
    if (spec.clusterC && /^-[a-zA-Z]*c$/.test(a) && !a.startsWith('--')) {
      if (/e|E/.test(a)) exMode = true;
      if (argv[k + 1] !== undefined) exCommandLaunches(argv[++k], `${ctx.name} ${a}`, out);
      continue;
    }
    if (/^-[a-zA-Z]*[eE]/.test(a) && !a.startsWith('--')) exMode = true;
    if (spec.plus && a.startsWith('+') && a.length > 1 && !/^\+\d*$/.test(a) && !a.startsWith('+/') && !a.startsWith('+?')) exCommandLaunches(a.slice(1), `${ctx.name} +`, out);
  }
  // ex and ed read their commands from stdin; vim does in ex mode (-e, -es).
  if (spec.stdin === 'always' || exMode) out.push({ kind: 'feed', source: 'stdin', format: 'ex', how: `${ctx.name} <stdin` });
}

// ---------------------------------------------------------------- debuggers

/** Shell commands in debugger commands (gdb `shell cmd`, `!cmd`, `pipe cmd | sh`, `python ...`, `call system("...")`). */
export function debuggerCommandLaunches(dbg: string, text: string, how: string, out: Launch[]): void {
  const spec = DEBUGGERS[dbg] ?? DEBUGGERS.gdb;
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (!t) continue;
    const shell = spec.shell.find((s) => t === s || t.startsWith(s + ' ') || (s.length === 1 && t.startsWith(s)));
    if (shell) {
      let cmd = t.slice(shell.length).trim();
      if (shell === 'pipe' || shell === '|') cmd = cmd.slice(cmd.indexOf('|') + 1);
      if (cmd) out.push({ kind: 'script', text: cmd, how: `${how} ${shell}` });
      continue;
    }
    const py = spec.python.find((s) => t.startsWith(s + ' '));
    if (py) {
      out.push({ kind: 'script', text: joinArgv(['python3', '-c', t.slice(py.length + 1)]), how: `${how} ${py}` });
      continue;
    }
    const sys = /\bsystem\s*\(\s*"((?:[^"\\]|\\.){0,4000})"/.exec(t);
    if (sys) out.push({ kind: 'script', text: sys[1].replace(/\\(.)/g, '$1'), how: `${how} system()` });
    else if (/\bsystem\s*\(/.test(t)) out.push({ kind: 'ask', how, why: 'a debugger calls system() on a value only known at run time' });
  }
}

function debuggerLaunches(ctx: LaunchCtx, out: Launch[]): void {
  const spec = DEBUGGERS[ctx.name];
  const { argv } = ctx;
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    if (a === '--args') break;
    const eq = a.indexOf('=');
    const opt = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    if (spec.cmd.includes(opt)) {
      const v = opt !== a ? a.slice(eq + 1) : argv[++k];
      if (v !== undefined) debuggerCommandLaunches(ctx.name, v, `${ctx.name} ${opt}`, out);
    } else if (spec.file.includes(opt)) {
      if (opt === a) k++;
      out.push({ kind: 'feed', source: opt !== a ? { path: a.slice(eq + 1) } : { word: k }, format: 'gdb', how: `${ctx.name} ${opt}` });
    }
  }
  // Without a terminal, gdb reads its commands from stdin.
  if (ctx.name !== 'lldb') out.push({ kind: 'feed', source: 'stdin', format: 'gdb', how: `${ctx.name} <stdin` });
}

// ---------------------------------------------------------------- pagers

function optionLaunches(ctx: LaunchCtx, out: Launch[]): void {
  const spec = COMMAND_OPTIONS[ctx.name];
  const { argv } = ctx;
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    if (a === '--') break;
    for (const w of spec.words ?? []) if (a.startsWith(w + '=') && a.length > w.length + 1) out.push({ kind: 'script', text: a.slice(w.length + 1), how: `${ctx.name} ${w}=` });
    for (const o of spec.opts) {
      if (a === o && argv[k + 1] !== undefined) out.push({ kind: 'script', text: argv[k + 1], how: `${ctx.name} ${o}` });
      else if (o.startsWith('--') && a.startsWith(o + '=')) out.push({ kind: 'script', text: a.slice(o.length + 1), how: `${ctx.name} ${o}` });
      else if (!o.startsWith('--') && a.startsWith(o) && a.length > o.length) out.push({ kind: 'script', text: a.slice(o.length), how: `${ctx.name} ${o}` });
    }
  }
  for (const v of spec.env) {
    let value = ctx.env(v);
    if (value === undefined || !value.trim()) continue;
    // LESSOPEN='|cmd %s' / '||cmd %s' / '-cmd': a preprocessor pipe; otherwise a file-name filter that is also run.
    if (v === 'LESSOPEN' || v === 'LESSCLOSE') value = value.replace(/^\|{1,2}-?|^-/, '');
    out.push({ kind: 'script', text: value.replace(/%s/g, 'file'), how: `${ctx.name} (${v})` });
  }
}

// ---------------------------------------------------------------- expect (Tcl)


const SHELL_NAMES = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'yash', 'fish', 'tcsh', 'csh']);

/** Commands an expect script runs: spawn/exec argv, `system` text, and what `send` types into a spawned shell. */
export function tclLaunches(src: string, how: string, out: Launch[], env: Readonly<Record<string, string>>, depth = 0): void {
  if (depth > 3) return;
  work.units += src.length;
  let shellSpawned = false;
  let typed = '';
  for (const words of tclCommandsOf(src, env)) {
    const cmd = words[0];
    if (Object.hasOwn(TCL_RUNS, cmd)) {
      let args = words.slice(1).filter((w) => !/^-(?:noecho|nottycopy|nottyinit|console|ignore|open|leaveopen|keepnewline|pty|ignorecase)$/.test(w));
      if (args[0] === '--') args = args.slice(1);
      if (cmd === 'open') {
        if (!args[0]?.startsWith('|')) continue;
        args = [args[0].slice(1)];
      }
      if (args.some((w) => w.includes('\u0000'))) {
        out.push({ kind: 'ask', how: `${how} ${cmd}`, why: 'expect runs a command only known at run time' });
        continue;
      }
      const text = TCL_RUNS[cmd] === 'joined' || cmd === 'open' ? args.join(' ') : joinArgv(args);
      if (text.trim()) out.push({ kind: 'script', text, how: `${how} ${cmd}` });
      if (cmd === 'spawn' && args.length && SHELL_NAMES.has(posix.basename(args[0])) && !args.includes('-c')) shellSpawned = true;
    } else if (cmd === 'file' && words[1] === 'delete') {
      // file delete ?-force? ?--? PATH...: -force deletes folders with their contents.
      const paths = words.slice(2).filter((w) => w !== '-force' && w !== '--');
      if (paths.some((w) => w.includes('\u0000'))) out.push({ kind: 'ask', how: `${how} file delete`, why: 'expect deletes a path only known at run time' });
      else if (paths.length) out.push({ kind: 'script', text: joinArgv([...(words.includes('-force') ? ['rm', '-rf'] : ['rm', '-f']), '--', ...paths]), how: `${how} file delete` });
    } else if ((cmd === 'send' || cmd === 'exp_send') && shellSpawned) {
      const s = words.slice(1).filter((w) => !w.startsWith('-'))[0];
      if (s !== undefined) typed += s.replace(/\r/g, '\n');
    } else if (/^(?:if|while|for|foreach|proc|expect|interact|catch|after|eval)$/.test(cmd)) {
      for (const w of words.slice(1)) if (/[\s;]/.test(w)) tclLaunches(w, how, out, env, depth + 1);
    }
  }
  if (typed.trim()) out.push({ kind: 'script', text: typed, how: `${how} send` });
}

function expectLaunches(ctx: LaunchCtx, out: Launch[]): void {
  const { argv } = ctx;
  let script = false;
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    if (a === '-c' && argv[k + 1] !== undefined) {
      tclLaunches(argv[++k], 'expect -c', out, { HOME: ctx.home, PWD: ctx.cwd });
      script = true;
    } else if (a === '-f' && argv[k + 1] !== undefined) {
      out.push({ kind: 'feed', source: { word: ++k }, format: 'tcl', how: 'expect -f' });
      script = true;
    } else if (a === '--' || !a.startsWith('-')) {
      const f = a === '--' ? k + 1 : k;
      if (argv[f] !== undefined) out.push({ kind: 'feed', source: { word: f }, format: 'tcl', how: 'expect FILE' });
      script = true;
      break;
    }
  }
  if (!script) out.push({ kind: 'feed', source: 'stdin', format: 'tcl', how: 'expect <stdin' });
}

// ---------------------------------------------------------------- emacs --batch

type Sexp = string | { s: string } | Sexp[];

/** A small reader for Emacs Lisp: lists, strings, symbols (bounded). */
function readSexps(src: string): Sexp[] {
  let i = 0;
  const n = Math.min(src.length, MAX_TEXT);
  let nodes = 0;
  const read = (depth: number): Sexp | undefined => {
    while (i < n && /[\s']/.test(src[i])) i++;
    if (i >= n || ++nodes > 5000) return undefined;
    const c = src[i];
    if (c === '(' || c === '[') {
      const close = c === '(' ? ')' : ']';
      i++;
      const list: Sexp[] = [];
      while (i < n) {
        while (i < n && /[\s']/.test(src[i])) i++;
        if (src[i] === close) {
          i++;
          break;
        }
        if (src[i] === ')' || src[i] === ']') {
          i++;
          break;
        }
        const x = depth < 64 ? read(depth + 1) : undefined;
        if (x === undefined) break;
        list.push(x);
      }
      return list;
    }
    if (c === '"') {
      let s = '';
      i++;
      for (; i < n && src[i] !== '"'; i++) {
        if (src[i] === '\\' && i + 1 < n) {
          const e = src[++i];
          s += e === 'n' ? '\n' : e === 't' ? '\t' : e;
        } else s += src[i];
      }
      i++;
      return { s };
    }
    if (c === ';') {
      while (i < n && src[i] !== '\n') i++;
      return read(depth);
    }
    const s = i;
    while (i < n && !/[\s()[\]"]/.test(src[i])) i++;
    if (i === s) {
      i++;
      return '';
    }
    return src.slice(s, i);
  };
  const out: Sexp[] = [];
  while (i < n) {
    const x = read(0);
    if (x === undefined) break;
    out.push(x);
  }
  return out;
}

function elispString(x: Sexp | undefined, home: string): string | undefined {
  if (x === undefined) return undefined;
  if (typeof x === 'object' && !Array.isArray(x)) return x.s.startsWith('~') ? home + x.s.slice(1) : x.s;
  if (Array.isArray(x)) {
    const f = x[0];
    if ((f === 'expand-file-name' || f === 'file-truename' || f === 'directory-file-name' || f === 'file-name-as-directory') && x[1] !== undefined) {
      const base = elispString(x[1], home);
      const dir = x[2] !== undefined ? elispString(x[2], home) : undefined;
      if (base === undefined) return undefined;
      return dir !== undefined && !base.startsWith('/') ? posix.join(dir, base) : base;
    }
    if (f === 'getenv' && typeof x[1] === 'object' && !Array.isArray(x[1]) && x[1].s === 'HOME') return home;
    if (f === 'concat') {
      const parts = x.slice(1).map((p) => elispString(p, home));
      return parts.every((p) => p !== undefined) ? parts.join('') : undefined;
    }
  }
  if (x === '~' || x === 'user-emacs-directory') return x === '~' ? home : `${home}/.emacs.d`;
  return undefined;
}

export function elispLaunches(src: string, home: string, how: string, out: Launch[]): void {
  work.units += src.length;
  const visit = (x: Sexp, depth: number): void => {
    if (!Array.isArray(x) || depth > 64 || out.length >= MAX_LAUNCHES) return;
    const f = x[0];
    if (typeof f === 'string' && Object.hasOwn(ELISP_CALLS, f)) {
      const what = ELISP_CALLS[f];
      const args = x.slice(1);
      const strs = args.map((a) => elispString(a, home));
      const label = `${how} (${f})`;
      if (what === 'shell') {
        if (strs[0] !== undefined) out.push({ kind: 'script', text: strs[0], how: label });
        else out.push({ kind: 'ask', how: label, why: 'emacs runs a shell command only known at run time' });
      } else if (what === 'argv' || what === 'argv-after-3' || what === 'argv-after-2') {
        const prog = what === 'argv-after-2' ? strs[2] : strs[0];
        const rest = what === 'argv' ? strs.slice(1) : what === 'argv-after-3' ? strs.slice(4) : strs.slice(3);
        if (prog === undefined || rest.some((r) => r === undefined)) out.push({ kind: 'ask', how: label, why: 'emacs runs a program only known at run time' });
        else out.push({ kind: 'script', text: joinArgv([prog, ...(rest as string[])]), how: label });
      } else if (what === 'delete-dir' || what === 'delete-file') {
        const recursive = what === 'delete-dir' && args[1] !== undefined && args[1] !== 'nil';
        if (strs[0] === undefined) out.push({ kind: 'ask', how: label, why: 'emacs deletes a path only known at run time' });
        else out.push({ kind: 'script', text: joinArgv(what === 'delete-file' ? ['rm', '-f', strs[0]] : recursive ? ['rm', '-rf', strs[0]] : ['rmdir', strs[0]]), how: label });
      } else if (what === 'read' && strs[0] !== undefined) out.push({ kind: 'script', text: joinArgv(['cat', strs[0]]), how: label });
    }
    for (const y of x) visit(y, depth + 1);
  };
  for (const x of readSexps(src)) visit(x, 0);
}

function emacsLaunches(ctx: LaunchCtx, out: Launch[]): void {
  const { argv } = ctx;
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    if ((a === '--eval' || a === '-eval' || a === '-e') && argv[k + 1] !== undefined) elispLaunches(argv[++k], ctx.home, `emacs ${a}`, out);
    else if (a.startsWith('--eval=')) elispLaunches(a.slice(7), ctx.home, 'emacs --eval', out);
  }
}

// ---------------------------------------------------------------- recipe runners

/** The shell lines of a Makefile: recipe lines (tab), `target: ; cmd`, with make's own variables substituted. */
export function makeRecipes(text: string): string {
  work.units += text.length;
  const vars = new Map<string, string>();
  const lines: string[] = [];
  const raw = text.replace(/\\\n/g, ' ').split('\n');
  for (const line of raw) {
    const def = /^(?:export\s+|override\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*(?::{1,3}=|\?=|\+=|=|!=)\s*(.*)$/.exec(line);
    if (def && !line.startsWith('\t')) {
      vars.set(def[1], def[2]);
      continue;
    }
    if (line.startsWith('\t')) lines.push(line.slice(1));
    else {
      const inline = /^[^:#=\t][^:#=]*::?[^;=]*;(.*)$/.exec(line);
      if (inline) lines.push(inline[1]);
    }
  }
  const subst = (s: string, depth = 0): string =>
    s.replace(/\$(?:\(([A-Za-z_][A-Za-z0-9_.-]*)\)|\{([A-Za-z_][A-Za-z0-9_.-]*)\}|([@<^*?%]))|\$\$/g, (m, a?: string, b?: string, auto?: string) => {
      if (m === '$$') return '$';
      if (auto) return 'target';
      const v = a ?? b ?? '';
      const d = vars.get(v);
      return d !== undefined && depth < 8 ? subst(d, depth + 1) : `\${${v}}`;
    });
  return lines.map((l) => subst(l.replace(/^\s*[@+-]+/, ''))).join('\n');
}

/** The shell lines of a justfile: the indented lines under a recipe header. */
export function justRecipes(text: string): string {
  work.units += text.length;
  const out: string[] = [];
  let inRecipe = false;
  for (const line of text.split('\n')) {
    if (/^\S/.test(line)) {
      inRecipe = /^@?[A-Za-z_][\w-]*(?:\s+[^:=]*)?:(?!=)/.test(line) && !/^(?:set|export|alias|import|mod)\b/.test(line);
      continue;
    }
    if (inRecipe && line.trim()) out.push(line.trim().replace(/^[@-]+/, '').replace(/\{\{\s*([A-Za-z_]\w*)\s*\}\}/g, '${$1}'));
  }
  return out.join('\n');
}

/** The commands of a Taskfile (YAML): items under `cmds:`, `- cmd: ...` entries. */
/** The items of a YAML flow sequence's inside (`a, "b, c", 'd'`), quotes removed. */
function flowItems(inner: string): string[] {
  const out: string[] = [];
  let cur = '';
  let q = '';
  for (const c of inner) {
    if (q) {
      if (c === q) q = '';
      else cur += c;
    } else if (c === '"' || c === "'") q = c;
    else if (c === ',') {
      out.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  if (cur.trim()) out.push(cur.trim());
  return out.filter(Boolean);
}

export function taskRecipes(text: string): string {
  work.units += text.length;
  const out: string[] = [];
  let cmdsIndent = -1;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const indent = line.length - line.trimStart().length;
    const t = line.trim();
    if (!t || t.startsWith('#')) continue;
    if (/^cmds:\s*$/.test(t)) {
      cmdsIndent = indent;
      continue;
    }
    // `cmds: [a, b]` (a flow sequence) and a task's single `cmd: X`.
    const flow = /^cmds:\s*\[(.*)\]\s*$/.exec(t);
    if (flow) {
      for (const item of flowItems(flow[1])) out.push(item);
      continue;
    }
    const single = cmdsIndent < 0 ? /^cmd:\s*(.+)$/.exec(t) : null;
    if (single) {
      out.push(single[1].trim().replace(/^(['"])(.*)\1$/, '$2'));
      continue;
    }
    if (cmdsIndent >= 0 && indent <= cmdsIndent && !t.startsWith('-')) cmdsIndent = -1;
    const m = /^-?\s*(?:cmd:\s*)?(.*)$/.exec(t);
    if (cmdsIndent >= 0 && m && (t.startsWith('-') || t.startsWith('cmd:'))) {
      let v = m[1].trim();
      if (/^[|>][-+]?$/.test(v)) {
        const block: string[] = [];
        while (i + 1 < lines.length && (lines[i + 1].length - lines[i + 1].trimStart().length > indent || !lines[i + 1].trim())) block.push(lines[++i].trim());
        v = block.join('\n');
      } else if (/^(['"]).*\1$/.test(v)) v = v.slice(1, -1);
      if (/^(?:task|defer|silent|ignore_error|platforms|for|vars):/.test(v)) continue;
      out.push(v);
    }
  }
  return out.join('\n');
}

export function recipeScript(format: RecipeFormat, text: string): string {
  return format === 'make' ? makeRecipes(text) : format === 'just' ? justRecipes(text) : format === 'ninja' ? ninjaRecipes(text) : taskRecipes(text);
}

/**
 * The commands of a ninja file's rules (`rule NAME` then an indented `command = ...`): `$$` is a dollar, `$ ` a
 * blank, `$:` a colon, a `$` at the end of a line continues it; `$in`, `$out` and the file's own variables are
 * names of files (left as words).
 */
export function ninjaRecipes(text: string): string {
  work.units += text.length;
  const out: string[] = [];
  const lines = text.replace(/\$\r?\n[ \t]*/g, '').split('\n');
  for (const line of lines) {
    const m = /^[ \t]+command[ \t]*=[ \t]*(.*)$/.exec(line);
    if (!m) continue;
    out.push(m[1].replace(/\$(\$|[ :]|\{?[A-Za-z_][\w.-]*\}?)/g, (_x, v: string) => (v === '$' || v === ' ' || v === ':' ? v : v.replace(/[{}]/g, ''))));
  }
  return out.join('\n');
}

function recipeLaunches(ctx: LaunchCtx, out: Launch[]): void {
  const spec = RECIPE_RUNNERS[ctx.name];
  const { argv } = ctx;
  // `make -C DIR` changes folder before anything else: the recipe file is read there and its recipes run there.
  let cwd: string | undefined;
  for (let k = 1; k < argv.length && argv[k] !== '--'; k++) {
    const a = argv[k];
    for (const o of spec.chdir) {
      const v = a === o ? argv[++k] : o.startsWith('--') && a.startsWith(o + '=') ? a.slice(o.length + 1) : !o.startsWith('--') && a.length > 2 && a.startsWith(o) ? a.slice(2) : undefined;
      if (v !== undefined && v !== '' && !v.includes('\u0000')) cwd = posix.resolve(cwd ?? ctx.cwd, v === '~' || v.startsWith('~/') ? ctx.home + v.slice(1) : v);
      if (v !== undefined) break;
    }
  }
  const at = (p: string): { path: string } => ({ path: cwd ? posix.resolve(cwd, p) : p });
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    if (a === '--') break;
    for (const o of spec.file) {
      if (a === o && argv[k + 1] !== undefined) out.push({ kind: 'feed', source: cwd ? at(argv[k + 1]) : { word: k + 1 }, format: spec.format, how: `${ctx.name} ${o}`, cwd });
      else if (o.startsWith('--') && a.startsWith(o + '=')) out.push({ kind: 'feed', source: at(a.slice(o.length + 1)), format: spec.format, how: `${ctx.name} ${o}`, cwd });
      else if (!o.startsWith('--') && a.startsWith(o) && a.length > o.length && /^-[a-zA-Z]$/.test(o)) out.push({ kind: 'feed', source: at(a.slice(o.length)), format: spec.format, how: `${ctx.name} ${o}`, cwd });
    }
    for (const o of spec.eval) {
      const v = a === o ? argv[k + 1] : o.startsWith('--') && a.startsWith(o + '=') ? a.slice(o.length + 1) : undefined;
      if (v !== undefined) out.push({ kind: 'script', text: makeRecipes(v.replace(/\\n/g, '\n')), how: `${ctx.name} ${o}`, cwd });
    }
  }
}

// ---------------------------------------------------------------- bind -x

/** `bind -x '"KEYSEQ": COMMAND'`: readline runs COMMAND in the shell when the keys are pressed. */
function bindLaunches(ctx: LaunchCtx, out: Launch[]): void {
  const { argv } = ctx;
  for (let k = 1; k < argv.length - 1; k++) {
    if (argv[k] !== '-x') continue;
    const spec = argv[++k];
    // The key sequence: a double-quoted string (backslash escapes inside) or a bare word, then `:`.
    let i = 0;
    if (spec[0] === '"') {
      i = 1;
      while (i < spec.length && spec[i] !== '"') i += spec[i] === '\\' ? 2 : 1;
      i++;
    }
    const colon = spec.indexOf(':', i);
    if (colon < 0) continue;
    let cmd = spec.slice(colon + 1).trim();
    if (cmd.length >= 2 && (cmd[0] === '"' || cmd[0] === "'") && cmd.endsWith(cmd[0])) cmd = cmd.slice(1, -1);
    if (cmd) out.push({ kind: 'script', text: cmd, how: 'bind -x' });
  }
}

// ---------------------------------------------------------------- ssh and remote exec

function sshLaunches(ctx: LaunchCtx, out: Launch[]): void {
  const { argv } = ctx;
  let host: string | undefined;
  let k = 1;
  let noCommand = false;
  let mosh = ctx.name === 'mosh';
  for (; k < argv.length; k++) {
    const a = argv[k];
    if (a === '--') {
      k++;
      if (host === undefined) host = argv[k++];
      break;
    }
    if (a.startsWith('-') && a.length > 1 && !mosh) {
      for (let i = 1; i < a.length; i++) {
        if (SSH_GRAMMAR.noCommand.includes(a[i])) noCommand = true;
        if (SSH_GRAMMAR.withArg.includes(a[i])) {
          if (i === a.length - 1) k++;
          break;
        }
      }
      continue;
    }
    if (mosh && a.startsWith('--')) {
      if (!a.includes('=') && /^--(?:ssh|port|predict|family|bind-server|server|client|experimental-remote-ip)$/.test(a)) k++;
      continue;
    }
    if (host === undefined) {
      host = a;
      continue;
    }
    break;
  }
  if (host === undefined || noCommand) return;
  mosh = false;
  const cmd = argv.slice(k);
  const bare = host.replace(/^[^@]*@/, '').replace(/^\[|\]$/g, '').replace(/:\d+$/, '');
  const where = LOCAL_HOSTS.includes(bare) ? 'this machine' : host;
  // The remote shell starts in the remote user's home; ssh joins the words with spaces.
  if (cmd.length) out.push({ kind: 'script', text: cmd.join(' '), how: `ssh ${where}`, cwd: ctx.home, stdin: true });
  else out.push({ kind: 'feed', source: 'stdin', format: 'sh', how: `ssh ${where} <stdin` });
}

/** REMOTE_EXEC by program name, split once: this runs for every simple command. */
const REMOTE_EXEC_BY_NAME = new Map<string, { full: string; pre: string[]; subs: string[] }[]>();
for (const [full, subs] of Object.entries(REMOTE_EXEC)) {
  const [n, ...pre] = full.split(' ');
  REMOTE_EXEC_BY_NAME.set(n, [...(REMOTE_EXEC_BY_NAME.get(n) ?? []), { full, pre, subs }]);
}

function remoteExecLaunches(ctx: LaunchCtx, out: Launch[]): void {
  const { argv, name } = ctx;
  for (const { full, pre, subs } of REMOTE_EXEC_BY_NAME.get(name) ?? []) {
    if (!pre.every((p, i) => argv[1 + i] === p)) continue;
    if (subs.length && !argv.slice(1, 6).some((a) => subs.includes(a))) continue;
    const dd = argv.indexOf('--');
    if (dd < 0) continue;
    const cmd = argv.slice(dd + 1);
    // ssh-like commands (a VM's ssh) join their words for the remote shell, as ssh does; exec commands run an argv.
    const sshLike = / ssh$/.test(full);
    if (cmd.length) out.push({ kind: 'script', text: sshLike ? cmd.join(' ') : joinArgv(cmd), how: `${full} ${subs.find((s) => argv.includes(s)) ?? ''}`.trim(), stdin: true });
  }
}

/** REMOTE_COMMANDS: the command line each sends, judged as a script. */
function remoteCommandLaunches(ctx: LaunchCtx, out: Launch[]): void {
  const { argv, name } = ctx;
  for (const [full, specs] of Object.entries(REMOTE_COMMANDS)) {
    const [n, ...pre] = full.split(' ');
    if (n !== name || !pre.every((p, i) => argv[1 + i] === p)) continue;
    const args = argv.slice(1 + pre.length);
    const joined = args.join(' ');
    for (const spec of specs) {
      if (spec.when && !spec.when.test(joined)) continue;
      const texts: string[] = [];
      for (const o of spec.opts ?? []) {
        for (let k = 0; k < args.length; k++) {
          if (args[k] === o && k + 1 < args.length) texts.push(args[k + 1]);
          else if (o.startsWith('--') && args[k].startsWith(o + '=')) texts.push(args[k].slice(o.length + 1));
          else if (!o.startsWith('--') && args[k].startsWith(o) && args[k].length > o.length && o.length === 2) texts.push(args[k].slice(2));
        }
      }
      if (spec.afterSub) {
        const at = args.findIndex((a) => spec.afterSub!.includes(a));
        if (at >= 0 && at + 1 < args.length) texts.push(args.slice(at + 1).filter((a) => !/^\w+=/.test(a) || a.startsWith('cmd=')).join(' ').replace(/^cmd=/, ''));
      }
      if (spec.lastOperand) {
        const operands: string[] = [];
        for (let k = 0; k < args.length; k++) {
          // The first operand starts the command: what follows is its own words, options included.
          if (args[k] === '--' || operands.length) {
            operands.push(...args.slice(args[k] === '--' ? k + 1 : k));
            break;
          }
          if (args[k].startsWith('-')) {
            if (args[k].length === 2 && spec.valueOpts?.includes(args[k][1])) k++;
            continue;
          }
          operands.push(args[k]);
        }
        // pdsh -w HOSTS cmd args: every operand after the options is the command line (ssh joins them).
        if (operands.length) texts.push(name === 'pssh' || name === 'parallel-ssh' ? operands[operands.length - 1] : operands.join(' '));
      }
      for (const t of texts) {
        if (spec.absent) {
          const path = /(?:^|\s)(?:path|dest|name)=(\S+)/.exec(t)?.[1];
          if (path && /(?:^|\s)state=absent(?:\s|$)/.test(t)) out.push({ kind: 'script', text: `rm -rf -- ${shq(path)}`, how: `${full} -m file state=absent` });
        } else if (t.trim()) out.push({ kind: 'script', text: t, how: full });
      }
    }
  }
}

// ---------------------------------------------------------------- containers

interface Mount {
  src: string;
  dest: string;
}

const CONTAINER_ROOT = '/tmp/.loom-container';

/** A container path on the host: under a bind mount, its source; anywhere else, the container's own disk (a temp folder). */
function hostPath(p: string, mounts: Mount[]): string {
  let best: Mount | undefined;
  for (const m of mounts) {
    if ((p === m.dest || p.startsWith(m.dest === '/' ? '/' : m.dest + '/')) && (!best || m.dest.length > best.dest.length)) best = m;
  }
  if (!best) return CONTAINER_ROOT + (p === '/' ? '' : p);
  const rest = best.dest === '/' ? p.slice(1) : p.slice(best.dest.length + 1);
  return rest ? posix.join(best.src, rest) : best.src;
}

/** Every absolute path in a word mapped (`/h/x`, `--out=/h/x`, `sh -c 'rm /h/*'`). */
function mapWord(w: string, mounts: Mount[]): string {
  return w.replace(/(^|[\s'"=:;&|(<>])(\/[^\s'";&|()<>]*)/g, (m, pre: string, p: string) => (pre === ':' && p.startsWith('//') ? m : pre + hostPath(posix.normalize(p), mounts)));
}

function containerLaunches(ctx: LaunchCtx, out: Launch[]): void {
  const { argv, cwd } = ctx;
  let k = 1;
  // global options (docker --context x, podman --remote)
  while (k < argv.length && argv[k].startsWith('-')) k += argv[k].includes('=') || /^--(?:debug|remote|log-level=.*)$/.test(argv[k]) ? 1 : 2;
  let sub = argv[k];
  if (sub === 'container') sub = `container ${argv[++k]}`;
  if (!CONTAINER_RUNNERS.run.includes(sub ?? '')) return;
  const exec = sub.endsWith('exec');
  k++;
  const mounts: Mount[] = [];
  let workdir: string | undefined;
  let hostPid = false;
  const absSrc = (s: string) => (s.startsWith('~') ? ctx.home + s.slice(1) : posix.resolve(cwd, s));
  const addVolume = (v: string) => {
    const parts = v.split(':');
    if (parts.length >= 2 && (parts[0].startsWith('/') || parts[0].startsWith('.') || parts[0].startsWith('~'))) mounts.push({ src: absSrc(parts[0]), dest: posix.normalize(parts[1]) });
  };
  const addMount = (v: string) => {
    const kv = new Map(v.split(',').map((p) => [p.slice(0, p.indexOf('=') < 0 ? p.length : p.indexOf('=')), p.slice(p.indexOf('=') + 1)] as [string, string]));
    const src = kv.get('source') ?? kv.get('src');
    const dest = kv.get('target') ?? kv.get('destination') ?? kv.get('dst');
    if ((kv.get('type') ?? 'volume') === 'bind' && src && dest) mounts.push({ src: absSrc(src), dest: posix.normalize(dest) });
  };
  for (; k < argv.length; k++) {
    const a = argv[k];
    if (a === '--') {
      k++;
      break;
    }
    if (!a.startsWith('-') || a === '-') break;
    const eq = a.indexOf('=');
    const opt = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    let val: string | undefined;
    if (a.startsWith('--')) {
      if (CONTAINER_RUNNERS.longNoArg.includes(a) || (eq > 0 && CONTAINER_RUNNERS.longNoArg.includes(opt))) val = undefined;
      else val = eq > 0 ? a.slice(eq + 1) : argv[++k];
    } else {
      // short cluster: -it, -v SRC:DEST, -vSRC:DEST, -w /x
      for (let i = 1; i < a.length; i++) {
        if (CONTAINER_RUNNERS.shortWithArg.includes(a[i])) {
          val = i < a.length - 1 ? a.slice(i + 1) : argv[++k];
          const o = `-${a[i]}`;
          if (CONTAINER_RUNNERS.volume.includes(o) && val) addVolume(val);
          if (CONTAINER_RUNNERS.workdir.includes(o) && val) workdir = val;
          break;
        }
      }
      continue;
    }
    if (val === undefined) continue;
    if (CONTAINER_RUNNERS.volume.includes(opt)) addVolume(val);
    if (CONTAINER_RUNNERS.mount.includes(opt)) addMount(val);
    if (CONTAINER_RUNNERS.workdir.includes(opt)) workdir = val;
    if (opt === '--pid' && val === 'host') hostPid = true;
  }
  // The image (run) or the container (exec), then its command.
  const target = argv[k];
  if (target === undefined) return;
  let cmd = argv.slice(k + 1);
  if (!cmd.length || (mounts.length === 0 && !hostPid)) {
    // No host path reachable: the command works on the container's own disk. A download piped to a shell is still one.
    if (cmd.length) out.push({ kind: 'script', text: joinArgv(cmd.map((w) => mapWord(w, []))), how: `${ctx.name} ${sub} ${target}`, cwd: CONTAINER_ROOT, stdin: true });
    return;
  }
  let maps = mounts;
  // nsenter -t 1 -m with the host's PID namespace enters the host's mount namespace: paths are the host's.
  if (hostPid && posix.basename(cmd[0]) === 'nsenter' && cmd.some((w) => /^(?:-t|--target)$/.test(w) || /^-[a-zA-Z]*t1?$/.test(w)) && cmd.some((w) => /^-[a-zA-Z]*[ma]|^--(?:mount|all)$/.test(w))) {
    maps = [{ src: '/', dest: '/' }];
  }
  // chroot DIR CMD inside the container: paths are under DIR.
  let j = 0;
  while (j < cmd.length && posix.basename(cmd[j]) === 'chroot' && cmd[j + 1]) {
    const root = hostPath(posix.normalize(cmd[j + 1]), maps);
    maps = [{ src: root, dest: '/' }];
    j += 2;
  }
  cmd = cmd.slice(j);
  if (!cmd.length) return;
  const dir = workdir ? hostPath(posix.normalize(workdir), maps) : maps.some((m) => m.dest === '/') ? hostPath('/', maps) : CONTAINER_ROOT;
  const mapped = cmd.map((w) => mapWord(w, maps));
  const how = `${ctx.name} ${sub} ${target} (host mounts: ${mounts.map((m) => `${m.src}:${m.dest}`).join(' ') || 'host namespaces'})`;
  out.push({ kind: 'script', text: joinArgv(mapped), how, cwd: dir, stdin: true });
  // The image's own program may be unknown (`amazon/aws-cli s3 cp /root/.aws/credentials ...`): a host file it is given is read.
  if (!exec) for (const w of mapped.slice(1)) if (w.startsWith('/') && !w.startsWith(CONTAINER_ROOT)) out.push({ kind: 'read', path: w, how });
}

// ---------------------------------------------------------------- npm scripts

function npmLaunches(ctx: LaunchCtx, out: Launch[]): void {
  const { argv, name } = ctx;
  const ops = argv.slice(1).filter((a) => !a.startsWith('-'));
  for (const form of SCRIPT_SETTERS[name]) {
    if (!form.every((w, i) => ops[i] === w)) continue;
    const rest = ops.slice(form.length);
    if (form[0] === 'config') {
      const key = rest.find((x) => x.startsWith('scripts.'));
      const value = key ? rest[rest.indexOf(key) + 1] : undefined;
      if (key && value !== undefined) out.push({ kind: 'script', text: value, how: `${name} config ${key}` });
      continue;
    }
    if (form[0] === 'set-script') {
      if (rest[1] !== undefined) out.push({ kind: 'script', text: rest[1], how: `${name} set-script ${rest[0]}` });
      continue;
    }
    for (const kv of rest) {
      const m = /^scripts\.([^=]+)=(.*)$/s.exec(kv) ?? /^scripts\[["']?([^\]"']+)["']?\]=(.*)$/s.exec(kv);
      if (m) out.push({ kind: 'script', text: m[2], how: `${name} pkg set scripts.${m[1]}` });
    }
  }
  // npm explore PKG -- CMD: the words are joined and run by a shell in the package folder.
  if (name === 'npm' && ops[0] === 'explore') {
    const dd = argv.indexOf('--');
    if (dd > 0 && argv.length > dd + 1) out.push({ kind: 'script', text: argv.slice(dd + 1).join(' '), how: `npm explore ${ops[1] ?? ''}`.trim() });
  }
}
