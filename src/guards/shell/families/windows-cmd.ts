// cmd.exe text: the command `cmd /c` runs (from its argv or its raw text),
// `set` variables and %X% / !X! expansion, `for` loops and `forfiles` (their
// body runs once per item: the loop variable is each item of the folder, so
// a delete in the body lands in that folder, and /r or /s means the whole
// tree), and `start`. These are text transforms; windows.ts judges the result.
import type { Analyzer } from '../analyze';
import { CMD_SWITCHES } from '../tables/windows';
import { envFolder } from './windows-paths';
import { asWord, splitSwitches, unquote, winWords } from './windows-text';

/** One run of a loop body: the text with the loop variable replaced, and how the items were found. */
export interface LoopRun {
  body: string;
  recursive: boolean;
  filtered: boolean;
}

const MAX_ITEMS = 8;

/**
 * The text `cmd` runs, from its argv (already unquoted by bash): what follows /c, /k or /r
 * (MSYS `//c` too), the switches before it skipped. Undefined when cmd reads its console.
 */
export function cmdInnerFromArgv(args: string[]): string | undefined {
  for (let k = 0; k < args.length; k++) {
    const a = args[k].replace(/^\/\//, '/');
    const m = /^\/([ckr])(.*)$/i.exec(a);
    if (m && !CMD_SWITCHES.test(a)) {
      const rest = m[2] ? [m[2], ...args.slice(k + 1)] : args.slice(k + 1);
      // One word is the whole command line (cmd strips its outer quotes); several are joined as Windows would quote them.
      if (rest.length === 1) return unquote(rest[0]);
      return rest.map((w, i) => (i === 0 ? w : asWord(w))).join(' ');
    }
    if (CMD_SWITCHES.test(a)) continue;
    return undefined;
  }
  return undefined;
}

/** The text after /c or /k in a raw cmd statement. */
export function cmdInnerFromText(stmt: string): string | undefined {
  const m = /\s\/{1,2}[ckr](?:\s+|(?=["']))/i.exec(stmt);
  if (!m) return undefined;
  return unquote(stmt.slice(m.index + m[0].length).trim());
}

/** `set NAME=value` / `set "NAME=value"`: the variable and its value (undefined for /a, /p or a listing). */
export function cmdSet(stmt: string): { name: string; value?: string } | undefined {
  const m = /^set\s+(?:(\/[ap])\s+)?("?)([^=\s"]+)=([\s\S]*?)\2\s*$/i.exec(stmt.trim());
  if (!m) return undefined;
  return { name: m[3].toLowerCase(), value: m[1] ? undefined : m[4] };
}

/** %NAME% and !NAME! (delayed expansion) replaced by the values set on the line or the standard folders. */
export function expandCmdVars(a: Analyzer, text: string, vars: Map<string, string>): string {
  if (!text.includes('%') && !text.includes('!')) return text;
  return text.replace(/%([A-Za-z_][\w()#$'{}[\]~.-]*)%|!([A-Za-z_][\w()#$'{}[\]~.-]*)!/g, (m, p: string | undefined, d: string | undefined, at: number) => {
    const name = (p ?? d ?? '').toLowerCase();
    // %CD% is cmd's current folder (a relative path judged against a cd on the line, as $PWD is).
    const value = vars.get('cmd:' + name) ?? vars.get('env:' + name) ?? (name === 'cd' ? '.' : envFolder(a, name));
    if (value === undefined) return m;
    // Outside quotes a value with blanks is kept one word (C:\Program Files): the worst reading for a path.
    // In a command's place cmd reads the text it expanded as the command line (`set p=rd /s /q` then `!p! C:\x`).
    const before = text.slice(0, at);
    const quoted = (before.match(/"/g)?.length ?? 0) % 2 === 1;
    return quoted || /(?:^|[&|(])\s*@?$/.test(before) ? value : asWord(value);
  });
}

/** The items of a `for` set: words outside quotes (commas, semicolons and blanks separate). */
function setItems(set: string): string[] {
  return winWords(set.replace(/[;=]/g, ' ')).filter((w) => w !== '').slice(0, MAX_ITEMS);
}

/** Replaces a cmd loop variable (%v, %%v, %~fv, %~dpnxv) in a body. */
function substitute(body: string, v: string, value: string): string {
  const re = new RegExp(`%%?(?:~[fdpnxsatz$:]*)?${v.replace(/[^A-Za-z0-9]/g, '')}(?![A-Za-z0-9%])`, 'g');
  return body.replace(re, () => value);
}

const isAll = (pattern: string) => /^\*(?:\.\*)?$/.test(pattern);

/**
 * A cmd `for` statement: each run of its body. /d iterates the folders the set matches, /r the
 * files of a whole tree (recursive), plain `for` the files the set matches; /l and /f give
 * values that are not paths (the body is read once, with the variable left as written).
 */
export function cmdFor(stmt: string): LoopRun[] | undefined {
  const m = /^for\s+((?:\/[a-z]\s+(?:"[^"]*"\s+|'[^']*'\s+)?)*)(?:([^%\s]\S*|"[^"]*")\s+)?%%?([A-Za-z0-9])\s+in\s*\(([\s\S]*?)\)\s*do\s+([\s\S]+)$/i.exec(stmt.trim());
  if (!m) return undefined;
  const opts = m[1].toLowerCase();
  const root = m[2] ? unquote(m[2]) : undefined;
  const v = m[3];
  const body = m[5];
  if (/\/[lf]\b/.test(opts)) return [{ body, recursive: false, filtered: false }];
  const recursive = /\/r\b/.test(opts);
  const runs: LoopRun[] = [];
  for (const item of setItems(m[4])) {
    const path = recursive ? (root ?? '.').replace(/[\\/]+$/, '') + '\\' + item : item;
    runs.push({ body: substitute(body, v, path), recursive, filtered: recursive && !isAll(item) });
  }
  return runs.length ? runs : [{ body, recursive, filtered: false }];
}

/**
 * `forfiles [/p dir] [/m mask] [/s] [/c "command"]`: the command runs for each file of dir
 * matching mask (@path, @file, @fname, @relpath are that file); /s walks the whole tree.
 */
export function forfiles(words: string[]): LoopRun | undefined {
  let dir = '.';
  let mask = '*';
  let command = 'cmd /c echo @file';
  let recursive = false;
  const ws = splitSwitches(words);
  for (let k = 1; k < ws.length; k++) {
    const w = ws[k].replace(/^-/, '/').toLowerCase();
    if (w === '/p') dir = ws[++k] ?? dir;
    else if (w === '/m') mask = ws[++k] ?? mask;
    else if (w === '/c') command = ws[++k] ?? command;
    else if (w === '/d') k++;
    else if (w === '/s') recursive = true;
  }
  const path = dir.replace(/[\\/]+$/, '') + '\\' + mask;
  const body = command.replace(/@(?:path|file|fname|relpath)\b/gi, () => path).replace(/0x22/gi, '"');
  return { body, recursive, filtered: !isAll(mask) };
}

/** `start ["title"] [/b /wait /min /d dir ...] command args`: the command it starts. */
export function cmdStart(stmt: string): string | undefined {
  let rest = stmt.trim().replace(/^start\s*/i, '');
  if (rest.startsWith('"')) rest = rest.replace(/^"[^"]*"\s*/, '');
  for (;;) {
    const m = /^\/(?:d\s+(?:"[^"]*"|\S+)|[a-z]+)\s*/i.exec(rest);
    if (!m) break;
    rest = rest.slice(m[0].length);
  }
  return rest.trim() || undefined;
}
