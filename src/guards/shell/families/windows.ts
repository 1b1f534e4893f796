// The Windows family: PowerShell and cmd.exe text, which is not POSIX shell
// (backslashes are path separators, `$env:X` is one token, parameters may
// be any unique prefix: `-Rec`, `-Fo`). Two ways in: a simple command named
// cmd / powershell / pwsh (or a Windows tool such as taskkill.exe) found by
// the POSIX analyzer, whose bash-unquoted argv gives the Windows text
// (`windowsLaunch`); and the raw line, read when it looks like Windows text
// (`checkWindowsLine`). Statements split on ; & | and newlines outside
// quotes and groups; variables and static expressions are expanded
// (windows-ps.ts, windows-cmd.ts), loops run their body once per item, and
// every path is mapped onto the POSIX rules where it can be (windows-paths.ts).
import type { Analyzer } from '../analyze';
import type { SimpleCommand } from '../lexer';
import { carriesFolder, deletesPath, readsPath, writesPath } from '../path-rules';
import type { Rule } from '../rules';
import {
  DISKPART_ERASERS, REMOVE_ITEM_PARAMS, REMOVE_ITEM_WITH_VALUE, WIN_CODE_RUNNERS, WIN_COPIERS, WIN_DELETE, WIN_DISK_ERASERS, WIN_DOWNLOAD, WIN_ENV_DUMP, WIN_FOREACH, WIN_LISTERS,
  WIN_CWD_COMMANDS, WIN_PATH_IDENTITY, WIN_READERS, WIN_REMOTE_RUNNERS, WIN_RUN, WIN_SPAWNERS, WIN_TOOL_RULES, WIN_UPLOADERS, WIN_WRITERS,
} from '../tables/windows';
import { cmdFor, cmdInnerFromArgv, cmdInnerFromText, cmdSet, cmdStart, expandCmdVars, forfiles, type LoopRun } from './windows-cmd';
import { judgeDelete, mapped, registryKey, registryWipe, underCwd, wideFolder } from './windows-paths';
import { endlessLoopBody, expandPsVars, foldPs, groupValue, psAssignment, psCode, psInnerFromArgv, psValue, startProcess, substituteItem } from './windows-ps';
import { expandParam, groups, splitStatements, splitSwitches, unquote, winWords } from './windows-text';
import { aliasCall, define, functionCall, psDefinition, type PsDefinition } from './windows-defs';
import { own } from './args';
import { LOOM_PROCESS } from '../tables/devices';

export { decodeEncodedCommand, splitStatements, winWords } from './windows-text';
export { winPath } from './windows-paths';

/** Whether a line may hold PowerShell or cmd.exe text worth reading with these rules (cheap gate). */
export const WINDOWS_HINT = /\b(?:powershell|pwsh|wsl|stop-process|spps|taskkill|reg\s+delete|takeown|icacls|cacls|cmd(?:\.exe)?\s+\/[ckCK]|remove-item|ri|rd|rmdir|del|erase|format-volume|clear-disk|initialize-disk|remove-partition|diskpart|iex|invoke-expression|irm|iwr|invoke-webrequest|invoke-restmethod|get-content|set-content|add-content|out-file|copy-item|move-item|compress-archive|stop-computer|restart-computer|vssadmin|wmic|wbadmin|bcdedit|mshta|regsvr32|rundll32|msiexec|certutil|robocopy|forfiles|set-mppreference|add-mppreference|netsh|wevtutil)\b|\[(?:system\.)?io\.|\$\{?env:|%userprofile%/i;

const MAX_DEPTH = 6;
const MAX_LINE = 64 * 1024;
/** Loop bodies read per line in all (nested loops multiply). */
const MAX_LOOP_RUNS = 32;

/** What a line has set so far, shared by its statements and the groups and loop bodies inside them. */
export interface WinState {
  /** `cmd:x` (set), `ps:x` ($x = ...), `env:x` ($env:X = ...), `splat:x` (@x) → value. */
  vars: Map<string, string>;
  /** The folder `cd /d` / Set-Location moved to. */
  cwd?: string;
  /** Inside a loop over every file of a tree (for /r, forfiles /s, gci -Recurse | %): each delete is part of a recursive one. */
  recursive?: boolean;
  /** ... and the loop's items are narrowed by a name pattern. */
  filtered?: boolean;
  /** A Windows tool found by the POSIX analyzer: judged here, never handed back to it. */
  native?: boolean;
  /** Aliases and functions the line defined (windows-defs.ts): a call of one runs what it stands for. */
  commands: Map<string, PsDefinition>;
  budget: { loops: number };
  /** Files the line downloaded (curl -o, certutil -urlcache, iwr -OutFile, bitsadmin): running one runs what the URL sent. */
  downloads?: Set<string>;
  /** Files the line wrote the environment into (`gci env: | Out-File env.json`): uploading one sends the environment. */
  envFiles?: Set<string>;
}

const newState = (): WinState => ({ vars: new Map(), commands: new Map(), budget: { loops: MAX_LOOP_RUNS } });

/** Targets of `>` / `>>` / `2>` / `*>` outside quotes (not `>&` duplications, not nul). */
function redirectTargets(stmt: string): string[] {
  const out: string[] = [];
  let quote = '';
  for (let i = 0; i < stmt.length; i++) {
    const ch = stmt[i];
    if (quote) {
      if (ch === quote) quote = '';
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      continue;
    }
    if (ch !== '>') continue;
    let j = i + 1;
    if (stmt[j] === '>') j++;
    if (stmt[j] === '&') continue;
    while (stmt[j] === ' ') j++;
    const m = /^("[^"]*"|'[^']*'|[^\s|&<>;()]+)/.exec(stmt.slice(j));
    if (m) {
      const t = m[1].replace(/^["']|["']$/g, '');
      if (!/^(?:nul|\$null|con)$/i.test(t)) out.push(t);
      i = j + m[1].length - 1;
    }
  }
  return out;
}

const norm = (p: string) => p.replace(/^['"]|['"]$/g, '').replace(/\//g, '\\').replace(/^\.\\/, '').toLowerCase();

/** The file a download statement writes: curl/wget -o F, certutil -urlcache ... URL F, bitsadmin /transfer J URL F, iwr -OutFile F. */
function downloadTarget(words: string[], name: string): string | undefined {
  const after = (flags: RegExp) => {
    const k = words.findIndex((w, j) => j > 0 && flags.test(w));
    return k > 0 && words[k + 1] ? norm(words[k + 1]) : undefined;
  };
  if (name === 'curl' || name === 'wget') return after(/^(?:-o|--output|-O|--output-document)$/);
  if (name === 'invoke-webrequest' || name === 'iwr' || name === 'invoke-restmethod' || name === 'irm' || name === 'start-bitstransfer') return after(/^-(?:o|ou|out|outf|outfi|outfil|outfile|d|de|des|dest|desti|destin|destina|destinat|destinati|destinatio|destination)$/i);
  if (name === 'certutil' && words.some((w) => /^[-/]urlcache$/i.test(w))) return words.length > 2 ? norm(words[words.length - 1]) : undefined;
  if (name === 'bitsadmin' && words.some((w) => /^\/transfer$/i.test(w))) return words.length > 3 ? norm(words[words.length - 1]) : undefined;
  return undefined;
}

/** The file a statement runs: itself as the program, or the operand of call / start / cmd /c / powershell -File / & . */
function runTarget(words: string[], name: string): string | undefined {
  if (['call', 'start', 'start-process', 'saps'].includes(name)) {
    // start "title" /b FILE: the title and the switches come first.
    let k = 1;
    if (name === 'start' && words[k]?.startsWith('"')) k++;
    while (k < words.length && (words[k].startsWith('/') || /^-(?:filepath|file|f)$/i.test(words[k]))) k++;
    return words[k] ? norm(words[k]) : undefined;
  }
  if (name === 'cmd' && /^\/[ck]$/i.test(words[1] ?? '')) return words[2] ? norm(words[2]) : undefined;
  if (name === 'powershell' || name === 'pwsh') {
    const k = words.findIndex((w) => /^-f(?:i|il|ile)?$/i.test(w));
    return k > 0 && words[k + 1] ? norm(words[k + 1]) : undefined;
  }
  return words[0] ? norm(words[0]) : undefined;
}

function programName(word: string): string {
  return word.replace(/^[&.@]\s*/, '').replace(/^.*[\\/]/, '').replace(/\.(?:exe|com)$/i, '').toLowerCase();
}

/** The line's variables, splats and static expressions replaced by their values. */
function expand(a: Analyzer, stmt: string, st: WinState): string {
  const out = foldPs(expandPsVars(a, expandCmdVars(a, stmt, st.vars), st.vars));
  return out.length > MAX_LINE ? stmt : out;
}

/**
 * PowerShell / cmd.exe text, read statement by statement. `depth` counts
 * the wrappers (cmd /c, powershell -Command) already opened.
 */
/** A listing piped through a filter (`| Where-Object Name -like "NODE_*"`, `| findstr PATH`): only what it keeps is printed. */
const WIN_FILTERED = /\|\s*(?:where-object|where|\?|select-string|sls|findstr|find)\b/i;
/** The environment listed whole (not one variable read: `$env:TOKEN` in a header is a use of it). */
const WIN_ENV_LISTING = /(?:^|[\s;&|({])(?:get-childitem|gci|dir|ls|get-item|gi)\s+(?:-path\s+)?['"]?env:\\?\*?['"]?(?=\s|$|\||;|\))|\[(?:system\.)?environment\]::getenvironmentvariables\(\s*\)|(?:^|[&|(]\s*)set\s*(?:$|[|&)])/i;

export function checkWindowsLine(a: Analyzer, raw: string, depth = 0, st: WinState = newState()): void {
  if (depth > MAX_DEPTH || raw.length > MAX_LINE) return;
  // PowerShell's backtick and cmd's caret escape letters: Re`move-Item, r^d.
  const line = raw.replace(/[`^](?=[A-Za-z])/g, '');
  if (WIN_DOWNLOAD.test(line) && WIN_RUN.test(line)) a.hit('pipe-download-to-interpreter', 'deny', line.slice(0, 200), 'runs what a PowerShell download returns (Invoke-Expression of a web response)');
  // The whole environment listed (`gci env:`, `dir env:`, `[Environment]::GetEnvironmentVariables()`, cmd's bare `set`): every token printed.
  if (WIN_ENV_LISTING.test(line) && !WIN_FILTERED.test(line)) a.hit('env-dump', 'ask', line.slice(0, 200), 'lists every environment variable, tokens included, into the transcript');
  if (/(?:^|[\s&|(])%0\s*\|\s*%0/.test(line)) a.hit('fork-bomb', 'deny', line.slice(0, 200), 'the batch file pipes itself into itself: a fork bomb');
  const statements = splitStatements(line);
  if (labelLoopSpawns(statements)) a.hit('fork-bomb', 'deny', line.slice(0, 200), 'a goto loop that starts a process on every pass: a fork bomb');
  for (const stages of statements) checkPipeline(a, stages, depth, st);
}

/** `:x ... start ... goto x`: a cmd loop that starts processes without end. */
function labelLoopSpawns(statements: string[][]): boolean {
  const labels = new Set<string>();
  let spawned = false;
  for (const stages of statements) {
    for (const s of stages) {
      const w = winWords(s);
      const head = (w[0] ?? '').toLowerCase();
      if (/^:\w+$/.test(head)) labels.add(head.slice(1));
      else if (labels.size && WIN_SPAWNERS.includes(head)) spawned = true;
      else if (spawned && head === 'goto' && labels.has((w[1] ?? '').replace(/^:/, '').toLowerCase())) return true;
    }
  }
  return false;
}

/** What an earlier stage of the pipeline lists: the folder its items come from. */
interface Listing {
  dirs: string[];
  recursive: boolean;
  filtered: boolean;
  /** The stage piped the paths themselves, not a folder's items. */
  values?: boolean;
}

function listingOf(words: string[]): Listing {
  const filtered = words.some((w) => /^-(?:fi|filter|inc|include|n$|name)/i.test(w)) || words.slice(1).some((w) => !w.startsWith('-') && /[*?]/.test(w.replace(/^.*[\\/]/, '')) && !/^\*(?:\.\*)?$/.test(w.replace(/^.*[\\/]/, '')));
  let dirs = words.slice(1).filter((w, i, arr) => !w.startsWith('-') && !w.startsWith('/') && !/^-(?:fi|filter|inc|include|exc|exclude|depth|attributes|att)/i.test(arr[i] === w ? arr[i - 1] ?? '' : ''));
  if (dirs.length === 0) dirs = ['.'];
  return { dirs, recursive: words.some((w) => /^-r/i.test(w) || /^\/s$/i.test(w)), filtered };
}

/** What an `echo` stage (or a group of them) writes: the script a later `| cmd` or `| diskpart` reads. */
function echoed(stage: string): string {
  return stage.replace(/^\s*\(|\)\s*$/g, '').split(/&+/).map((s) => s.trim().replace(/^(?:echo|write-output|write)\s+/i, '').replace(/^(['"])([\s\S]*)\1$/, '$2')).join('\n');
}

function checkPipeline(a: Analyzer, stages: string[], depth: number, st: WinState, fed?: string): void {
  let listed: Listing | undefined;
  let envDumped = false;
  for (let i = 0; i < stages.length; i++) {
    let stmt = expand(a, stages[i], st);
    if (stmt === '') continue;
    const segment = stmt.slice(0, 200);
    if (WIN_REMOTE_RUNNERS.test(stmt)) a.hit('pipe-download-to-interpreter', 'deny', segment, 'runs code straight from a URL');
    let words = splitSwitches(winWords(stmt));
    const callOp = words[0] === '&' || words[0] === '.';
    if (callOp) words.shift();
    if (words.length === 0) continue;
    let name = programName(words[0]);
    // A name the line defined: an alias is its command with the same arguments (alias of an alias too),
    // a function runs its body with the arguments bound.
    let defined = st.commands.get(name);
    for (let hop = 0; defined && 'alias' in defined && hop < 8; hop++) {
      stmt = aliasCall(callOp ? stmt.replace(/^\s*[&.]\s*/, '') : stmt, defined.alias);
      words = splitSwitches(winWords(stmt));
      name = programName(words[0] ?? '');
      defined = st.commands.get(name);
    }
    if (defined && 'body' in defined) {
      runBody(a, { body: functionCall(defined, words), recursive: false, filtered: false }, depth, st);
      listed = undefined;
      continue;
    }
    // .NET reads ([IO.File]::ReadAllText("$HOME\.aws\credentials")): the file's content is in hand.
    for (const m of stmt.matchAll(/\[(?:system\.)?io\.file\]::(?:readall(?:text|bytes|lines)|readlines|openread|opentext|open)\(\s*["']([^"']{1,500})["']/gi)) {
      const p = mapped(a, underCwd(m[1], st.cwd));
      if (p) readsPath(a, p, a.opts.cwd, segment);
    }
    // A secret variable in what a web cmdlet sends (its URL or body; not the headers it authenticates with).
    if (own(WIN_UPLOADERS, name) && /\$env:\w*(?:token|secret|passw|key|cred)\w*/i.test(stmt.replace(/-h(?:e(?:a(?:d(?:e(?:r(?:s)?)?)?)?)?)?\s+@\{[^}]*\}|-h(?:eaders)?\s+\$\w+|-(?:credential|token|authentication)\s+\S+/gi, ''))) a.hit('env-exfiltration', 'deny', segment, `${words[0]} sends a secret environment variable to another host`);
    // `echo {} > .claude\settings.json`, `type nul > ledger.db`, `... *> f`: the redirection writes its file.
    for (const f of redirectTargets(stmt)) {
      const p = mapped(a, underCwd(f, st.cwd));
      if (p) writesPath(a, p, a.opts.cwd, segment);
    }
    // A script run from a network share (\\host\share\x.ps1) is code from another machine.
    if (/(?:^|[\s'"=])\\\\[\w.-]+\\[^\s'"]+\.(?:ps1|psm1|bat|cmd|vbs|js|exe|msi)\b/i.test(stmt) && /(?:^|\s)(?:-f(?:i|il|ile)?\s|&\s*['"]?\\\\|call\s|start\s|\\\\)/i.test(stmt)) a.hit('pipe-download-to-interpreter', 'deny', segment, 'runs a script from a network share: code from another machine');
    // A file downloaded earlier on the line, run now (as the program, or through call / start / cmd /c / -File).
    const downloaded = downloadTarget(words, name);
    if (downloaded) (st.downloads ??= new Set()).add(downloaded);
    const runs = runTarget(words, name);
    if (runs && st.downloads?.has(runs)) a.hit('pipe-download-to-interpreter', 'deny', segment, `runs ${runs}, a file the line downloaded: code straight from a URL`);
    const foreach = WIN_FOREACH.includes(name) && listed;
    // A group's inside is a statement of its own; a ForEach-Object block runs once per listed item.
    for (const g of groups(stmt)) {
      if (!g.text.trim() || g.text === stmt) continue;
      if (foreach && g.open === '{') for (const dir of listed!.dirs) runBody(a, { body: substituteItem(g.text, itemOf(dir)), recursive: listed!.recursive, filtered: listed!.filtered }, depth, st);
      else checkWindowsLine(a, g.text, depth + 1, st);
    }
    if (WIN_ENV_DUMP.test(stmt) && !own(WIN_UPLOADERS, name)) envDumped = true;
    // The dump written to a file (Out-File, Set-Content, Export-*, Tee-Object): the file holds the environment.
    if (envDumped && /^(?:out-file|set-content|add-content|export-csv|export-clixml|tee-object|sc|ac)$/.test(name)) {
      const k = words.findIndex((w, j) => j > 0 && /^-(?:f|fi|fil|file|filep|filepa|filepat|filepath|p|pa|pat|path|literalpath|lp)$/i.test(w));
      const target = k > 0 ? words[k + 1] : words.slice(1).find((w) => !w.startsWith('-'));
      if (target) (st.envFiles ??= new Set()).add(target.replace(/^['"]|['"]$/g, '').toLowerCase());
    }
    if (WIN_LISTERS.includes(name) && !callOp) {
      listed = listingOf(words);
      continue;
    }
    // A stage that is only a value ("C:\x", a variable already expanded) pipes that path on.
    if (i < stages.length - 1 && words.length === 1 && PIPED_VALUE.test(stages[i].trim())) {
      listed = { dirs: [words[0]], recursive: false, filtered: false, values: true };
      continue;
    }
    // Get-Location | ..., Resolve-Path ~ | ...: the stage yields one path.
    const yielded = i < stages.length - 1 && (WIN_CWD_COMMANDS.includes(name) || WIN_PATH_IDENTITY.includes(name)) ? groupValue(stmt) : undefined;
    if (yielded !== undefined) {
      listed = { dirs: [yielded], recursive: false, filtered: false, values: true };
      continue;
    }
    if (!foreach && checkStatement(a, stmt, words, name, { stmt, depth, st, segment, listed, envDumped, stdin: i > 0 ? echoed(stages[i - 1]) : fed, upstream: i > 0 ? stages.slice(0, i).join('|') : fed })) listed = undefined;
  }
}

/** A pipeline stage that is a value, not a command: a string, a variable, a path. */
const PIPED_VALUE = /^(?:'[^']*'|"[^"]*"|\$[\w:{}]+|~[\\/]?\S*|[a-z]:[\\/]\S*|\.{1,2}[\\/]\S*)$/i;

/** A folder's items, as one path: `dir\*` (a pattern already is its items). */
const itemOf = (dir: string) => (/[*?]/.test(dir.replace(/^.*[\\/]/, '')) ? dir : dir.replace(/[\\/]+$/, '') + '\\*');

/** One run of a loop body, inside the line's budget. */
function runBody(a: Analyzer, run: LoopRun, depth: number, st: WinState): void {
  if (st.budget.loops <= 0) return;
  st.budget.loops--;
  checkWindowsLine(a, run.body, depth + 1, { ...st, recursive: st.recursive || run.recursive, filtered: (st.recursive && st.filtered) || run.filtered });
}

interface StmtCtx {
  stmt: string;
  depth: number;
  st: WinState;
  segment: string;
  listed?: Listing;
  envDumped: boolean;
  /** The text of the stages before this one (what it reads on stdin). */
  stdin?: string;
  /** Every stage before this one, as written (`Get-Process node | Where-Object ... | Stop-Process`). */
  upstream?: string;
}

/** Judges one statement; returns true when it consumed the listing before it. */
function checkStatement(a: Analyzer, stmt: string, words: string[], name: string, c: StmtCtx): boolean {
  const { depth, st, segment } = c;
  const cwd = a.opts.cwd;
  const defined = psDefinition(stmt, words, name);
  if (defined) {
    define(st.commands, defined);
    return false;
  }
  const assign = psAssignment(stmt);
  if (assign) {
    const v = psValue(assign.rhs);
    const key = v.splat !== undefined ? 'splat:' + assign.name.replace(/^ps:/, '') : assign.name;
    if (v.splat !== undefined) st.vars.set(key, v.splat);
    else if (v.value !== undefined) st.vars.set(key, v.value);
    else st.vars.delete(key);
    // `$x = Remove-Item ...` runs the command.
    if (v.command) checkWindowsLine(a, assign.rhs, depth + 1, st);
    return false;
  }
  if (name === 'set') {
    const s = cmdSet(stmt);
    if (s) {
      if (s.value !== undefined) st.vars.set('cmd:' + s.name, s.value);
      else st.vars.delete('cmd:' + s.name);
    }
    return false;
  }
  if (['cd', 'chdir', 'set-location', 'sl', 'pushd', 'push-location'].includes(name)) {
    const dir = words.slice(1).find((w) => !/^[/-]/.test(w) || /^\/[a-z]:/i.test(w));
    if (dir) st.cwd = /^(?:[a-z]:|\\\\)/i.test(dir) || !st.cwd ? dir : underCwd(dir, st.cwd);
    return false;
  }
  // cmd's `call X`, `if [not] exist F X`, `if errorlevel N X`, `if "a"=="b" X`: X runs.
  const prefixed = /^@?(?:call\s+|if\s+(?:\/i\s+)?(?:not\s+)?(?:(?:exist|defined|errorlevel)\s+(?:"[^"]*"|\S+)|(?:"[^"]*"|\S+)\s*(?:==|\s(?:equ|neq|lss|leq|gtr|geq)\s)\s*(?:"[^"]*"|\S+))\s+)(?!\()([\s\S]+)$/i.exec(stmt);
  if (prefixed && (name === 'call' || name === 'if')) {
    checkWindowsLine(a, prefixed[1], depth + 1, st);
    return false;
  }
  if (name === 'for' && !/^for\s*\(/i.test(stmt)) {
    for (const run of cmdFor(stmt) ?? []) runBody(a, run, depth, st);
    return false;
  }
  if (name === 'foreach' && /^foreach\s*\(/i.test(stmt)) {
    const m = /^foreach\s*\(\s*\$(\w+)\s+in\s+([\s\S]+?)\)\s*\{([\s\S]*)\}\s*$/i.exec(stmt);
    const src = m ? splitSwitches(winWords(m[2])) : [];
    if (m && WIN_LISTERS.includes(programName(src[0] ?? ''))) {
      const l = listingOf(src);
      for (const dir of l.dirs) runBody(a, { body: substituteItem(m[3], itemOf(dir), m[1]), recursive: l.recursive, filtered: l.filtered }, depth, st);
    }
    return false;
  }
  const loop = endlessLoopBody(stmt);
  if (loop !== undefined) {
    if (splitStatements(loop).some((s) => s.some((x) => WIN_SPAWNERS.includes(programName(winWords(x)[0] ?? ''))))) a.hit('fork-bomb', 'deny', segment, 'an endless loop starts a process on every pass: a fork bomb');
    return false;
  }
  if (name === 'forfiles') {
    const run = forfiles(words);
    if (run) runBody(a, run, depth, st);
    return false;
  }
  if (name === 'cmd') {
    const inner = cmdInnerFromText(stmt) ?? (c.stdin !== undefined ? c.stdin : undefined);
    if (inner !== undefined) checkWindowsLine(a, inner, depth + 1, st);
    return false;
  }
  if (name === 'powershell' || name === 'pwsh' || name === 'powershell_ise') {
    const code = psCode(psInnerFromArgv(words.slice(1)), c.stdin);
    if (code.bad) a.hit('dynamic-command', 'ask', segment, 'powershell -EncodedCommand with text that is not base64');
    if (code.code !== undefined) checkWindowsLine(a, code.code, depth + 1, st);
    return false;
  }
  if (WIN_CODE_RUNNERS.includes(name)) {
    // The code is a literal (folded from "a" + "b" already), else only known at run time; piped input is what iex runs too.
    const rest = stmt.replace(/^\S+\s*/, '').replace(/^-c\w*\s*/i, '').trim();
    const code = /^(['"])[\s\S]*\1$/.test(rest) ? unquote(rest) : /^[A-Za-z]/.test(rest) ? rest : undefined;
    if (code !== undefined && !/\$/.test(code)) checkWindowsLine(a, code, depth + 1, st);
    else if (rest !== '' || c.stdin === undefined) a.hit('dynamic-command', 'ask', segment, `${words[0]} runs a string only known at run time`);
    return false;
  }
  const created = /\[scriptblock\]::create\(\s*(['"])([\s\S]*?)\1\s*\)/i.exec(stmt);
  if (created) checkWindowsLine(a, created[2], depth + 1, st);
  if (name === 'start-process' || name === 'saps' || (name === 'start' && words.some((w) => /^-(?:a|fi|fil|filepath|args)/i.test(w)))) {
    const line = startProcess(words);
    if (line) checkWindowsLine(a, line, depth + 1, st);
    return false;
  }
  if (name === 'start') {
    const line = cmdStart(stmt);
    if (line) checkWindowsLine(a, line, depth + 1, st);
    return false;
  }
  if (name === 'wsl' || (name === 'bash' && depth > 0 && /^-c$/.test(words[1] ?? ''))) {
    if (name === 'wsl' && checkTool(a, words, name, c)) return false;
    const inner = wslCommand(words, stmt);
    if (inner) a.analyzeSource(inner, depth + 1, 'wsl', cwd, new Map());
    return false;
  }
  if (checkTool(a, words, name, c)) return false;
  const uploader = own(WIN_UPLOADERS, name);
  if (uploader) checkUpload(a, stmt, words, uploader, c);
  const dotnet = /\[(?:system\.)?io\.(file|directory)\]::delete\s*\(\s*([^,)]+?)\s*(?:,\s*([^)]+?)\s*)?\)|\[microsoft\.visualbasic\.fileio\.filesystem\]::deletedirectory\s*\(\s*([^,)]+?)\s*[,)]/i.exec(stmt);
  if (dotnet) {
    const recursive = !!dotnet[4] || (dotnet[1]?.toLowerCase() === 'directory' && /\$true|1/i.test(dotnet[3] ?? ''));
    judgeDelete(a, unquote(dotnet[2] ?? dotnet[4]), recursive || !!st.recursive, cwd, segment, st.cwd, !!st.filtered);
    return false;
  }
  if (WIN_DELETE.includes(name)) {
    checkDelete(a, words, name, c);
    return true;
  }
  if (WIN_DISK_ERASERS.includes(name)) {
    a.hit('disk-destroy', 'deny', segment, `${words[0]} erases a disk, a volume or a partition`);
    return false;
  }
  checkFileUse(a, words, name, c);
  return false;
}

/** Remove-Item / rd / del: each target, recursive by -Recurse, /s, or the loop it runs in; no target means the listed items. */
function checkDelete(a: Analyzer, words: string[], name: string, c: StmtCtx): void {
  const targets: string[] = [];
  let recursive = !!c.st.recursive;
  for (let k = 1; k < words.length; k++) {
    const w = words[k];
    if (/^\/[a-zA-Z]$/.test(w) && name !== 'rm') {
      if (/^\/s$/i.test(w)) recursive = true;
      continue;
    }
    if (w.startsWith('-') && w.length > 1 && !/^-\d/.test(w)) {
      const p = expandParam(w, REMOVE_ITEM_PARAMS);
      if (p === '-recurse' && !/:\s*\$false$/i.test(w)) recursive = true;
      if (REMOVE_ITEM_WITH_VALUE.includes(p) && !w.includes(':')) {
        if ((p === '-path' || p === '-literalpath') && words[k + 1] !== undefined) targets.push(words[k + 1]);
        k++;
      }
      continue;
    }
    targets.push(w);
  }
  if (targets.length === 0 && c.listed?.values) targets.push(...c.listed.dirs);
  else if (targets.length === 0 && c.listed) {
    for (const l of c.listed.dirs) judgeDelete(a, l.replace(/[\\/][^\\/]*[*?][^\\/]*$/, '') || '.', true, a.opts.cwd, c.segment, c.st.cwd, c.listed.filtered);
  }
  for (const t of targets) judgeDelete(a, t, recursive, a.opts.cwd, c.segment, c.st.cwd, !!c.st.filtered);
}

/** The Windows tools judged by their arguments (tables/windows.ts WIN_TOOL_RULES) and the ones that need reading. */
function checkTool(a: Analyzer, words: string[], name: string, c: StmtCtx): boolean {
  const { segment } = c;
  const args = words.slice(1).join(' ').toLowerCase();
  let matched = false;
  for (const t of WIN_TOOL_RULES) {
    if (!t.names.includes(name) || !t.when.test(args)) continue;
    a.hit(t.rule, t.decision, segment, `${words[0]} ${t.why}`);
    matched = true;
    break;
  }
  switch (name) {
    case 'stop-process':
    case 'spps':
    case 'kill':
      if (name === 'kill' && !words.some((w) => /^-(?:name|id|inputobject)/i.test(w)) && !c.listed) return matched;
      if (words.some((w) => /^\*\.?\*?$/.test(w)) || (words.length === 1 || words.slice(1).every((w) => w.startsWith('-'))) && processesAll(c.stdin)) a.hit('kill-all', 'deny', segment, `${words[0]} stops every process`);
      else judgeProcessNames(a, stopNames(words, c.upstream), segment, words[0]);
      return true;
    case 'taskkill':
      checkTaskkill(a, words, segment);
      return true;
    case 'reg':
      if (/^delete$/i.test(words[1] ?? '')) {
        const key = registryKey(words[2] ?? '');
        const value = words.some((w) => /^\/v[ae]?$/i.test(w));
        if (key && registryWipe(key) && (!value || key.hive !== 'hkcu')) a.hit('windows-system-change', 'deny', segment, `reg delete removes the registry branch ${words[2]} and every key under it`);
      }
      return true;
    case 'takeown':
    case 'icacls':
    case 'cacls':
      checkAcl(a, words, name, c);
      return true;
    case 'robocopy':
      checkRobocopy(a, words, c);
      return true;
    case 'diskpart':
      checkDiskpart(a, words, c);
      return true;
  }
  // A Windows tool is judged here only: its name may mean something else to the POSIX rules (shutdown /a).
  // `sc` with a path operand is PowerShell's Set-Content (the file writers judge it), not sc.exe.
  if (name === 'sc' && !matched && (/[\\/.]/.test(words[1] ?? '') || /^-(?:path|literalpath|value)$/i.test(words[1] ?? ''))) return false;
  // Item-property cmdlets change files too (IsReadOnly on the ledger): the file rules judge them when no tool row did.
  if (FILE_CMDLETS.has(name)) return matched;
  return matched || NATIVE.has(name);
}

/** Get-Process with no name, id or filter before Stop-Process lists every process. */
function processesAll(stdin?: string): boolean {
  if (stdin === undefined) return false;
  const last = stdin.split('|').pop() ?? '';
  const w = winWords(last);
  if (!['get-process', 'gps', 'ps'].includes(programName(w[0] ?? ''))) return false;
  return w.slice(1).every((x) => x.startsWith('-') && !/^-(?:n|name|id|processname|inc|module)/i.test(x)) && !/where|\?/i.test(stdin);
}

/**
 * The processes a Stop-Process stops by name: its -Name / -ProcessName values or operands, else the
 * names (and the command-line filter) of the Get-Process that feeds it.
 */
function stopNames(words: string[], stdin?: string): string[] {
  const names: string[] = [];
  for (let k = 1; k < words.length; k++) {
    const w = words[k];
    if (/^-(?:n|na|nam|name|processname)$/i.test(w)) names.push(...(words[++k] ?? '').split(','));
    else if (/^-(?:id|inputobject)$/i.test(w)) k++;
    else if (!w.startsWith('-')) names.push(...w.split(','));
  }
  if (names.length > 0 || stdin === undefined) return names;
  const stages = stdin.split('|');
  const source = winWords(stages[0] ?? '');
  if (['get-process', 'gps', 'ps'].includes(programName(source[0] ?? ''))) names.push(...stopNames(source, undefined));
  // `Where-Object CommandLine -match "loom"` narrows the list to loom's own processes.
  for (const st of stages.slice(1)) if (/^\s*(?:(?:where-object|where)\b|\?(?=[\s{]))/i.test(st) && LOOM_PROCESS.test(` ${st.replace(/["'*{}()]/g, ' ')} `)) names.push('loom');
  return names;
}

/**
 * Stopping processes by name: loom's own is switching off the guard. (`taskkill /im node.exe` is how
 * Windows developers stop a hung dev server; the next hook starts a new runner, so it stays allowed.)
 */
function judgeProcessNames(a: Analyzer, names: string[], segment: string, via: string): void {
  const bare = names.map((n) => unquote(n).trim().replace(/\.exe$/i, '')).filter((n) => n !== '');
  if (bare.some((n) => LOOM_PROCESS.test(` ${n} `))) a.hit('modify-loom', 'deny', segment, `${via} stops loom's own processes: the agent may not switch off its guard`);
}

/** taskkill: /im * or a filter on the user, the session or the status kills every process of a kind. */
function checkTaskkill(a: Analyzer, words: string[], segment: string): void {
  const images: string[] = [];
  for (let k = 1; k < words.length; k++) {
    const w = words[k].toLowerCase();
    const v = (words[k + 1] ?? '').toLowerCase();
    if (w === '/im' && /^\*(?:\.\*|\.exe)?$/.test(v)) return a.hit('kill-all', 'deny', segment, 'taskkill /im * kills every process');
    if (w === '/im') images.push(v);
    if (w !== '/fi') continue;
    const f = /^\s*(\w+)\s+(eq|ne|gt|lt|ge|le)\s+(.*)$/.exec(v);
    if (!f) continue;
    if (f[1] === 'imagename' && f[2] === 'eq') images.push(f[3]);
    if (f[1] === 'username' || f[1] === 'session') return a.hit('kill-all', 'deny', segment, `taskkill /fi "${words[k + 1]}" kills every process of a user or session`);
    if (f[2] === 'ne' || !['imagename', 'pid', 'windowtitle'].includes(f[1]) || /^\*$/.test(f[3].trim())) return a.hit('kill-broad', 'ask', segment, `taskkill /fi "${words[k + 1]}" kills every process the filter matches`);
  }
  judgeProcessNames(a, images, segment, 'taskkill /im');
}

/** takeown /r and icacls /t over a wide folder: ownership taken, or permissions opened to everyone or closed. */
function checkAcl(a: Analyzer, words: string[], name: string, c: StmtCtx): void {
  const ws = words.map((w) => w.replace(/^-/, '/'));
  const target = name === 'takeown' ? ws[ws.findIndex((w) => /^\/f$/i.test(w)) + 1] : ws.find((w, i) => i > 0 && !w.startsWith('/'));
  // On loom's files or the hook settings any permission change is a write to them (a denied ledger cannot be appended).
  const own = target && mapped(a, underCwd(target, c.st.cwd));
  if (own) writesPath(a, own, a.opts.cwd, c.segment);
  if (!target || !wideFolder(a, target, c.st.cwd)) return;
  if (!ws.some((x) => /^\/[rt]$/i.test(x))) return;
  const stmt = c.stmt;
  if (name === 'takeown') return a.hit('chown-recursive-system', 'deny', c.segment, `takeown takes ownership of ${target} and everything under it`);
  if (/\/grant(?::r)?\b/i.test(stmt) && /(?:everyone|\*s-1-1-0|\*s-1-5-11|\*s-1-5-32-545|authenticated users|(?:builtin\\)?users|guests)"?:(?:\([a-z]+\))*\(?[fmw]\b/i.test(stmt)) return a.hit('chmod-recursive-world-writable', 'deny', c.segment, `${words[0]} opens ${target} and everything under it to everyone`);
  if (/\/(?:deny|remove|inheritance:r|reset|setowner)\b/i.test(stmt)) a.hit('chmod-recursive-system', 'deny', c.segment, `${words[0]} changes the permissions of ${target} and everything under it`);
}

/** robocopy /MIR or /PURGE deletes what the source lacks in the destination (rsync --delete); /MOVE deletes the source. */
function checkRobocopy(a: Analyzer, words: string[], c: StmtCtx): void {
  // Switches are /X or /X:value; a POSIX path (/tmp/empty) is an operand.
  const ops = words.slice(1).filter((w) => !/^\/[a-z]+(?::[^\\/]*)?$/i.test(w));
  const sw = words.map((w) => w.toLowerCase());
  const [src, dst] = ops;
  if (dst && sw.some((w) => w === '/mir' || w === '/purge')) judgeDelete(a, dst, true, a.opts.cwd, c.segment, c.st.cwd);
  if (src && sw.some((w) => w === '/move' || w === '/mov')) judgeDelete(a, src, sw.includes('/move') || sw.includes('/e') || sw.includes('/s'), a.opts.cwd, c.segment, c.st.cwd);
  const to = dst && mapped(a, underCwd(dst, c.st.cwd));
  if (to) writesPath(a, to, a.opts.cwd, c.segment);
}

/** diskpart runs the script on its stdin or in /s FILE: clean, delete or format there erase a disk. */
function checkDiskpart(a: Analyzer, words: string[], c: StmtCtx): void {
  const script = words.findIndex((w) => /^[/-]s$/i.test(w));
  if (script > 0) return a.hit('dynamic-command', 'ask', c.segment, `diskpart runs the script ${words[script + 1] ?? ''}, which can erase disks`);
  if (c.stdin === undefined) return a.hit('dynamic-command', 'ask', c.segment, 'diskpart reads commands that can erase disks from the console');
  if (DISKPART_ERASERS.test(c.stdin)) a.hit('disk-destroy', 'deny', c.segment, 'diskpart is fed a script that erases a disk, a partition or a volume');
}

/** Invoke-WebRequest and kin: a secret file sent with -InFile, the environment sent in -Body. */
function checkUpload(a: Analyzer, stmt: string, words: string[], up: { files: string[]; bodies: string[] }, c: StmtCtx): void {
  for (let k = 1; k < words.length; k++) {
    const w = words[k].toLowerCase();
    if (!w.startsWith('-') || w.length < 3) continue;
    if (up.files.some((p) => p.startsWith(w))) {
      if (c.st.envFiles?.has((words[k + 1] ?? '').replace(/^['"]|['"]$/g, '').toLowerCase())) a.hit('env-exfiltration', 'deny', c.segment, `${words[0]} uploads ${words[k + 1]}, the file the line wrote the environment (its secrets) into`);
      const p = mapped(a, underCwd(words[k + 1] ?? '', c.st.cwd));
      if (p) readsPath(a, p, a.opts.cwd, c.segment);
    }
  }
  const sendsBody = words.some((w) => w.length >= 3 && up.bodies.some((p) => p.startsWith(w.toLowerCase())));
  if ((sendsBody && WIN_ENV_DUMP.test(stmt)) || c.envDumped) a.hit('env-exfiltration', 'deny', c.segment, `${words[0]} sends the environment (its secrets) over the network`);
}

/** Readers, writers, copiers; inside a wrapper, every other program is judged by the POSIX rules. */
function checkFileUse(a: Analyzer, words: string[], name: string, c: StmtCtx): void {
  const cwd = a.opts.cwd;
  const { segment, st } = c;
  const operands: string[] = [];
  let dest: string | undefined;
  for (let k = 1; k < words.length; k++) {
    const w = words[k];
    if (w.startsWith('-') && w.length > 1) {
      const p = w.toLowerCase();
      if ('-destination'.startsWith(p) && p.length > 2) dest = words[++k];
      else if (['-path', '-literalpath', '-lp', '-pspath'].includes(p) || ('-path'.startsWith(p) && p.length > 2)) operands.push(words[++k] ?? '');
      else if (['-value', '-encoding', '-filter', '-include', '-exclude', '-delimiter', '-pattern', '-itemtype', '-name', '-first', '-last', '-tail', '-totalcount', '-head', '-readcount', '-inputobject', '-compressionlevel'].includes(p)) k++;
      continue;
    }
    if (/^\/[a-zA-Z]+$/.test(w)) continue;
    operands.push(w);
  }
  const at = (p: string) => mapped(a, underCwd(p, st.cwd));
  if (WIN_READERS.includes(name)) {
    for (const f of name === 'select-string' || name === 'sls' ? operands.slice(1) : operands) {
      const p = at(f);
      if (p) readsPath(a, p, cwd, segment);
    }
    return;
  }
  // `sc` is Set-Content in Windows PowerShell and sc.exe elsewhere: a path operand (a dot or a slash in it) is a file written.
  if (name === 'sc' && !/[\\/.]/.test(operands[0] ?? '')) return;
  if (WIN_WRITERS.includes(name)) {
    const p = at(operands[0] ?? '');
    if (p) writesPath(a, p, cwd, segment);
    return;
  }
  // Renaming moves the file away from its name (a hook setting that is no longer found is switched off).
  if (['rename-item', 'rni', 'ren', 'rename'].includes(name)) {
    const q = at(operands[0] ?? '');
    if (q) deletesPath(a, q, cwd, segment, { recursive: true, verb: 'moves' });
    return;
  }
  // Permissions and attributes: a read-only or denied ledger cannot be written, a denied hook cannot run.
  if (['icacls', 'cacls', 'attrib', 'takeown', 'set-acl', 'set-itemproperty', 'sp'].includes(name)) {
    for (const f of operands.filter((o) => !/^[+-][rashi]$/i.test(o))) {
      const p = at(f);
      if (p) writesPath(a, p, cwd, segment);
    }
    return;
  }
  if (WIN_COPIERS.includes(name)) {
    const to = dest ?? (operands.length > 1 ? operands[operands.length - 1] : undefined);
    const p = to && at(to);
    if (p) writesPath(a, p, cwd, segment);
    for (const f of dest ? operands : operands.slice(0, -1)) {
      const q = at(f);
      if (!q) continue;
      carriesFolder(a, q, cwd, segment);
      if (['move-item', 'mi', 'move', 'mv'].includes(name)) deletesPath(a, q, cwd, segment, { recursive: true, verb: 'moves' });
    }
    return;
  }
  if (c.depth > 0 && !st.native && !/^[$@:]/.test(words[0])) {
    // Inside cmd /c or powershell -Command: every other program is judged by the POSIX rules (git, curl, sqlite3 ...).
    // A path after `@` or `=@` (curl -F f=@C:\...\credentials) is mapped too; %NAME% left unset reads as $NAME to the secret rules.
    const mapWord = (w: string) => {
      // `name=@C:\...` is a form field naming an absolute path: the path after `@`, not the word, is mapped.
      const at = /^([^@]*@)(.+)$/.exec(w);
      const drive = at && /^(?:[a-z]:[\\/]|\\\\)/i.test(at[2]);
      const whole = drive ? undefined : mapped(a, underCwd(w, st.cwd));
      if (whole) return whole;
      const tail = at && mapped(a, underCwd(at[2], st.cwd));
      return tail ? at![1] + tail : w;
    };
    const argv = words.map((w, i) => (i === 0 ? w.replace(/\.exe$/i, '') : mapWord(w)));
    const cmd: SimpleCommand = { words: argv.map((text, i) => ({ text, dynamic: false, quoted: true, glob: false, raw: words[i].replace(/%([A-Za-z_]\w*)%/g, '${$1}') })), assignments: [], redirects: [], pipeline: 0, stage: 0, background: false };
    a.analyzeCommand(cmd, c.depth, 'windows', cwd, [cmd], new Map());
  }
}

/** The Linux command `wsl` runs: after -e/--exec (argv) or `--` or the first operand (a shell line). */
export function wslCommand(words: string[], stmt: string): string | undefined {
  for (let k = 1; k < words.length; k++) {
    const w = words[k];
    if (/^(?:-e|--exec)$/i.test(w)) return words.slice(k + 1).map((x) => (/[\s'"]/.test(x) ? `'${x.replace(/'/g, "'\\''")}'` : x)).join(' ');
    if (w === '--') return words.slice(k + 1).join(' ');
    if (/^(?:-d|--distribution|-u|--user|--cd|--shell-type|--system|-s)$/i.test(w)) {
      if (!/^(?:--system|-s)$/i.test(w)) k++;
      continue;
    }
    if (w.startsWith('-')) continue;
    const idx = stmt.indexOf(w);
    return idx >= 0 ? stmt.slice(idx) : words.slice(k).join(' ');
  }
  return undefined;
}

/** Windows tools a POSIX shell (Git Bash, WSL) runs by name; the ones whose name is also a POSIX program only with .exe. */
// wsl is read from the raw line (its command is a Linux command line, judged by the POSIX analysis).
const NATIVE = new Set([...WIN_TOOL_RULES.flatMap((t) => t.names).filter((n) => !n.startsWith('wsl')), 'taskkill', 'reg', 'takeown', 'icacls', 'cacls', 'robocopy', 'diskpart', 'forfiles']);
const FILE_CMDLETS = new Set(['set-itemproperty', 'sp', 'new-itemproperty']);
const POSIX_TOO = new Set(['shutdown', 'sc', 'net', 'format', 'start', 'kill']);

/**
 * The POSIX analyzer's way in: a simple command named cmd / powershell / pwsh (any folder, any
 * case, .exe) is judged by the Windows text its argv gives (bash has already removed its
 * quotes), `-Command -` and a bare cmd by the static text on their stdin; a Windows tool by its argv.
 */
export const windowsLaunch: Rule = (r) => {
  if (r.words.some((w) => w.dynamic) && r.argv.length < 2) return;
  const exe = /\.(?:exe|com)$/i.test(r.argv[0]);
  const name = programName(r.argv[0]);
  // Runs for every simple command: leave before building anything when the program is no Windows shell or tool.
  if (name !== 'cmd' && name !== 'powershell' && name !== 'pwsh' && !(NATIVE.has(name) && (exe || !POSIX_TOO.has(name)))) return;
  const args = r.argv.slice(1).map((a) => a.replace(/^\/\/(?=[a-z?])/i, '/'));
  const stdin = r.stdin?.kind === 'static' ? r.stdin.text : undefined;
  if (name === 'cmd') {
    const inner = cmdInnerFromArgv(args) ?? (args.every((x) => /^\//.test(x)) ? stdin : undefined);
    if (inner !== undefined) checkWindowsLine(r.analyzer, inner, 1);
    return;
  }
  if (name === 'powershell' || name === 'pwsh') {
    // `powershell -c "... $env:TEMP ..."` in bash's double quotes: bash expands `$env` (unset, so empty),
    // a value only known at run time here; what is meant, and what is judged, is PowerShell's `$env:NAME`.
    const psArgs = r.vars.has('env') ? args : args.map((x) => x.replace(/\u0000:(?=[A-Za-z_])/g, '$env:'));
    const code = psCode(psInnerFromArgv(psArgs), stdin);
    if (code.bad) r.analyzer.hit('dynamic-command', 'ask', r.segment, 'powershell -EncodedCommand with text that is not base64');
    if (code.code !== undefined) checkWindowsLine(r.analyzer, code.code, 1);
    return;
  }
  if (NATIVE.has(name) && (exe || !POSIX_TOO.has(name))) {
    const line = [name, ...args.map((x) => (/[\s&|;()]/.test(x) ? `"${x}"` : x))].join(' ');
    const st = newState();
    st.native = true;
    checkPipeline(r.analyzer, [line], 1, st, stdin);
  }
};

export const WINDOWS_RULES: Rule[] = [windowsLaunch];
