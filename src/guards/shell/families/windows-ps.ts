// PowerShell text: the script `powershell`/`pwsh` runs (from argv, stdin or
// -EncodedCommand), variables ($x = ..., $env:X, $HOME, splatting @p), the
// static value of expressions ("a" + "b", (Resolve-Path ~), Join-Path,
// [Environment]::GetFolderPath(...), (gcm Remove-It*)), loop items ($_ in a
// ForEach-Object block), Start-Process and Invoke-Expression of literals.
// These are text transforms; windows.ts judges the result.
import type { Analyzer } from '../analyze';
import { POWERSHELL_PARAMS, POWERSHELL_WITH_VALUE, WIN_CWD_COMMANDS, WIN_CWD_VARS, WIN_DANGEROUS_CMDLETS, WIN_PATH_IDENTITY } from '../tables/windows';
import { envFolder, specialFolder } from './windows-paths';
import { asWord, decodeEncodedCommand, expandParam, staticConcat, unquote, winWords } from './windows-text';

/** What powershell is given to run: code, base64 code, or stdin. */
export type PsInput = { code: string } | { encoded: string } | { stdin: true } | { file: string } | undefined;

/** The script powershell/pwsh runs, from its argv words (already unquoted by bash, or split by winWords). */
export function psInnerFromArgv(args: string[]): PsInput {
  for (let k = 0; k < args.length; k++) {
    const w = args[k];
    if (w === '-') return { stdin: true };
    if (/^[-/]/.test(w) && w.length > 1) {
      let p = expandParam(w.replace(/^\//, '-'), POWERSHELL_PARAMS);
      // A prefix shared by several parameters (-en: -EncodedCommand or powershell.exe's -EncodedArguments)
      // is read as the one that runs code: the worst case.
      if (!POWERSHELL_PARAMS.includes(p)) p = ['-encodedcommand', '-command'].find((n) => n.startsWith(p)) ?? p;
      if (p === '-command' || p === '-commandwithargs') {
        const rest = args.slice(k + 1);
        if (rest.length === 1 && rest[0] === '-') return { stdin: true };
        // powershell joins the words after -Command with blanks into one script.
        return { code: rest.join(' ') };
      }
      if (p === '-encodedcommand') return { encoded: args[k + 1] ?? '' };
      if (p === '-file') return args[k + 1] === '-' ? { stdin: true } : { file: args[k + 1] ?? '' };
      if (POWERSHELL_WITH_VALUE.includes(p)) k++;
      continue;
    }
    // A first operand: Windows PowerShell reads it as -Command; pwsh as -File when it names a script.
    if (/\.ps1$/i.test(w)) return { file: w };
    return { code: args.slice(k).join(' ') };
  }
  return { stdin: true };
}

/** The code of a PsInput, when it is known. */
export function psCode(input: PsInput, stdin?: string): { code?: string; bad?: boolean } {
  if (!input || 'file' in input) return {};
  if ('code' in input) return { code: input.code };
  if ('stdin' in input) return { code: stdin };
  const decoded = decodeEncodedCommand(input.encoded);
  return decoded === undefined ? { bad: true } : { code: decoded };
}

const RESERVED = new Set(['true', 'false', 'null', '_', 'psitem', 'args', 'input', 'this', 'matches', 'error', 'lastexitcode', 'host', 'pshome', 'profile']);

/**
 * Variables replaced by what they hold: $env:X (set on the line, else the standard folder),
 * $HOME, $x set on the line, @x (splatting), [Environment]::GetFolderPath(...). Text in single
 * quotes is left alone, as PowerShell leaves it.
 */
export function expandPsVars(a: Analyzer, text: string, vars: Map<string, string>): string {
  if (!text.includes('$') && !text.includes('@') && !/\[(?:system\.)?environment\]|env:/i.test(text)) return text;
  // (Get-Item env:X).Value is $env:X.
  text = text.replace(/\(\s*(?:gi|get-item|gci|get-childitem|dir|ls)\s+(?:-path\s+|-literalpath\s+)?['"]?env:\\?(\w+)['"]?\s*\)\.value\b/gi, (_m, n: string) => '$env:' + n);
  let out = '';
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote === "'") {
      if (c === "'") quote = '';
      out += c;
      continue;
    }
    if (c === "'" && !quote) quote = "'";
    else if (c === '"') quote = quote === '"' ? '' : '"';
    const rest = text.slice(i, i + 200);
    const m = /^\$\{(env:)?([^}]+)\}|^\$(env:)?([A-Za-z_][\w]*)|^@([A-Za-z_]\w*)|^\[(?:system\.)?environment\]::(getfolderpath|getenvironmentvariable)\(\s*(?:\[(?:system\.)?environment\+specialfolder\]::(\w+)|['"]([^'"]+)['"])\s*\)/i.exec(rest);
    if (!m || (m[5] !== undefined && !/[\s(,]/.test(text[i - 1] ?? ' '))) {
      out += c;
      continue;
    }
    let value: string | undefined;
    if (m[6]) value = m[6].toLowerCase() === 'getfolderpath' ? specialFolder(a, m[7] ?? m[8]) : (vars.get('env:' + (m[7] ?? m[8]).toLowerCase()) ?? envFolder(a, m[7] ?? m[8]));
    else if (m[5]) value = vars.get('splat:' + m[5].toLowerCase());
    else {
      const env = m[1] ?? m[3];
      const name = (m[2] ?? m[4]).toLowerCase();
      if (env) value = vars.get('env:' + name) ?? envFolder(a, name);
      else if (name === 'home') value = envFolder(a, 'userprofile');
      else if (WIN_CWD_VARS.includes(name) && !vars.has('ps:' + name)) {
        // $PWD / $PWD.Path / $PSScriptRoot: the current folder (a relative path judged against a Set-Location).
        value = '.';
        const prop = /^\.(?:path|providerpath|fullname)\b/i.exec(text.slice(i + m[0].length, i + m[0].length + 16));
        if (prop) i += prop[0].length;
      }
      else if (!RESERVED.has(name)) value = vars.get('ps:' + name);
    }
    if (value === undefined) {
      out += m[0];
      i += m[0].length - 1;
      continue;
    }
    out += quote || m[5] ? value : asWord(value);
    i += m[0].length - 1;
  }
  return out;
}

/** Matches a PowerShell wildcard (`Remove-It*`, `R?move-Item`) against the cmdlets the family judges. */
function resolveCommand(pattern: string): string | undefined {
  const p = unquote(pattern);
  if (!/[*?[]/.test(p)) return p;
  const re = new RegExp('^' + p.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.') + '$', 'i');
  return WIN_DANGEROUS_CMDLETS.find((n) => re.test(n));
}

/** The static value of a group's inside (or of a pipeline stage that only yields a path), or undefined. */
export function groupValue(inner: string): string | undefined {
  const t = inner.trim();
  // A bare word in parentheses is only a value when it reads as a path: (OI) in icacls is not one.
  const concat = staticConcat(t);
  if (concat !== undefined && (/['"+\\/]/.test(t))) return concat;
  const words = winWords(t);
  const name = (words[0] ?? '').toLowerCase();
  const operands = words.slice(1).filter((w) => !w.startsWith('-'));
  if ((name === 'gcm' || name === 'get-command') && operands.length >= 1) return resolveCommand(operands[0]);
  if (WIN_PATH_IDENTITY.includes(name) && operands.length === 1) return operands[0];
  // (Get-Location), (gl), (pwd): the current folder.
  if (WIN_CWD_COMMANDS.includes(name) && operands.length === 0) return '.';
  if (name === 'join-path' && operands.length >= 2) return operands.join('\\');
  const combine = /^\[(?:system\.)?io\.path\]::(?:combine|join)\(([\s\S]*)\)$/i.exec(t);
  if (combine) {
    const parts = combine[1].split(',').map((x) => staticConcat(x));
    if (parts.every((x) => x !== undefined)) return parts.join('\\');
  }
  return undefined;
}

/**
 * Folds the static expressions of a statement, innermost first: `("Remove-" + "Item")`,
 * `($env:HOMEDRIVE + $env:HOMEPATH)` once expanded, `(Resolve-Path ~)`, `(Get-Item x).FullName`,
 * `(Join-Path a b)`, `[IO.Path]::Combine(a, b)`, `(gcm Remove-It*)`. A method call's
 * parentheses (`Delete(...)`) are not an expression and stay.
 */
export function foldPs(stmt: string): string {
  let text = stmt;
  for (let pass = 0; pass < 4; pass++) {
    let changed = false;
    text = text.replace(/\[(?:system\.)?io\.path\]::(?:combine|join)\([^()]*\)/gi, (m) => {
      const v = groupValue(m);
      if (v === undefined) return m;
      changed = true;
      return asWord(v);
    });
    text = text.replace(/(^|[^\w\]$])\(([^()]*)\)(\.(?:fullname|path|providerpath|pspath))?/gi, (m, pre: string, inner: string, _p: string, at: number, all: string) => {
      // cmd's `for %x in (set)` keeps its set.
      if (/\bin\s*$/i.test(all.slice(0, at + pre.length))) return m;
      const v = groupValue(inner);
      if (v === undefined) return m;
      changed = true;
      return pre + `"${v.replace(/"/g, '`"')}"`;
    });
    // "$(...)" and $(...): a subexpression of a static value is that value.
    text = text.replace(/\$\(([^()]*)\)/g, (m, inner: string) => {
      const t = inner.trim();
      const v = groupValue(t) ?? (/^[^\s$'"`;|&]+$/.test(t) && /[\\/:~]/.test(t) ? t : undefined);
      if (v === undefined) return m;
      changed = true;
      return v;
    });
    if (!changed) break;
  }
  return text;
}

/** `$x = value`: the variable and what it holds (a path, a splatted table, a command), else undefined value. */
export function psAssignment(stmt: string): { name: string; rhs: string } | undefined {
  const m = /^\$(?:\{([^}]+)\}|((?:env:)?[A-Za-z_]\w*))\s*=(?!=)\s*([\s\S]*)$/i.exec(stmt.trim());
  if (!m) return undefined;
  const name = (m[1] ?? m[2]).toLowerCase();
  return { name: name.startsWith('env:') ? name : 'ps:' + name, rhs: m[3].trim() };
}

/** The value an assignment's right side gives, as far as it is static: a path or string, a splat table, a command name. */
export function psValue(rhs: string): { value?: string; splat?: string; command?: boolean } {
  const hash = /^@\{([\s\S]*)\}$/.exec(rhs);
  if (hash) {
    const params: string[] = [];
    for (const pair of hash[1].split(/[;\n]/)) {
      const kv = /^\s*['"]?([A-Za-z]\w*)['"]?\s*=\s*([\s\S]*?)\s*$/.exec(pair);
      if (!kv) continue;
      const v = kv[2];
      if (/^\$true$/i.test(v)) params.push('-' + kv[1]);
      else if (!/^\$false$/i.test(v)) params.push('-' + kv[1], asWord(unquote(v)));
    }
    return { splat: params.join(' ') };
  }
  const array = /^@\(([\s\S]*)\)$/.exec(rhs);
  if (array) return { splat: array[1].split(',').map((x) => asWord(unquote(x))).join(' ') };
  const words = winWords(rhs);
  if ((words[0] ?? '').toLowerCase() === 'gcm' || (words[0] ?? '').toLowerCase() === 'get-command') {
    const name = resolveCommand(words[words.length - 1]);
    return name ? { value: name } : {};
  }
  const s = staticConcat(rhs) ?? groupValue(rhs);
  if (s !== undefined) return { value: s };
  return /^[A-Za-z&.]/.test(rhs) ? { command: true } : {};
}

/** Replaces a loop's item ($_, $PSItem, or the foreach variable, with any property) in its body. */
export function substituteItem(body: string, path: string, name = '_'): string {
  const names = name === '_' ? '(?:_|psitem)' : name;
  const re = new RegExp(`\\$(?:${names}|\\{${names}\\})(?:\\.\\w+)*(?!\\w)`, 'gi');
  return body.replace(re, () => asWord(path));
}

/** The command line Start-Process starts: -FilePath (or the first operand) with -ArgumentList (or the second). */
export function startProcess(words: string[]): string | undefined {
  const params = ['-filepath', '-argumentlist', '-verb', '-workingdirectory', '-windowstyle', '-credential', '-redirectstandardoutput', '-redirectstandardinput', '-redirectstandarderror', '-wait', '-nonewwindow', '-passthru', '-usenewenvironment', '-loaduserprofile', '-environment'];
  const withValue = ['-filepath', '-verb', '-workingdirectory', '-windowstyle', '-credential', '-redirectstandardoutput', '-redirectstandardinput', '-redirectstandarderror', '-environment'];
  let file: string | undefined;
  const args: string[] = [];
  let inArgs = false;
  for (let k = 1; k < words.length; k++) {
    const w = words[k];
    if (/^-[a-z]/i.test(w) && !(inArgs && !params.some((p) => p.startsWith(w.toLowerCase())))) {
      const p = expandParam(w, params);
      inArgs = p === '-argumentlist' || w.toLowerCase() === '-args';
      if (p === '-filepath') file = words[++k];
      else if (withValue.includes(p)) k++;
      continue;
    }
    if (inArgs || file !== undefined) args.push(w);
    else file = w;
  }
  return file === undefined ? undefined : [file, ...args].join(' ');
}

/** Endless PowerShell loops (`while ($true)`, `for (;;)`, `do {...} while ($true)`): their body. */
export function endlessLoopBody(stmt: string): string | undefined {
  const t = stmt.trim();
  const head = /^(?:while\s*\(\s*(?:\$true|1|!\$false|-not\s+\$false)\s*\)|for\s*\(\s*[^;]*;\s*;\s*[^)]*\))\s*\{([\s\S]*)\}\s*$/i.exec(t);
  if (head) return head[1];
  const tail = /^do\s*\{([\s\S]*)\}\s*(?:while\s*\(\s*(?:\$true|1)\s*\)|until\s*\(\s*(?:\$false|0)\s*\))\s*$/i.exec(t);
  return tail?.[1];
}
