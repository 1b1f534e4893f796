// The Windows family: PowerShell and cmd.exe text, which is not POSIX shell
// (backslashes are path separators, `$env:X` is one token, parameters may
// be any unique prefix: `-Rec`, `-Fo`). These rules read the raw line:
// statements split on ; & | and newlines outside quotes, words split on
// blanks and parentheses. `cmd /c ...` and `powershell -Command ...` are
// unwrapped, `-EncodedCommand` (base64 of UTF-16LE) is decoded, and every
// path is mapped onto the POSIX rules where it can be (home spellings,
// relative paths), or judged by its Windows shape (drive roots, C:\Windows,
// C:\Users\name).
import type { Analyzer } from '../analyze';
import type { SimpleCommand } from '../lexer';
import { carriesFolder, deletesPath, readsPath, writesPath } from '../path-rules';
import {
  POWERSHELL_ALIASES, POWERSHELL_PARAMS, POWERSHELL_WITH_VALUE, REMOVE_ITEM_PARAMS, REMOVE_ITEM_WITH_VALUE, WIN_BACKUP_ERASERS, WIN_COPIERS, WIN_DELETE, WIN_DISK_ERASERS, WIN_DOWNLOAD, WIN_HOME,
  WIN_POWER, WIN_PROFILE_VARS, WIN_READERS, WIN_REMOTE_RUNNERS, WIN_RUN, WIN_SYSTEM_DIRS, WIN_SYSTEM_VARS, WIN_WRITERS,
} from '../tables/windows';

/** Whether a line may hold PowerShell or cmd.exe text worth reading with these rules (cheap gate). */
export const WINDOWS_HINT = /\b(?:powershell|pwsh|wsl|stop-process|spps|taskkill|reg\s+delete|takeown|icacls|cacls|cmd(?:\.exe)?\s+\/[ckCK]|remove-item|ri|rd|rmdir|del|erase|format-volume|clear-disk|initialize-disk|remove-partition|diskpart|iex|invoke-expression|irm|iwr|invoke-webrequest|invoke-restmethod|get-content|set-content|add-content|out-file|copy-item|move-item|compress-archive|stop-computer|restart-computer|vssadmin|wmic|wbadmin|bcdedit|mshta|regsvr32|rundll32|msiexec|certutil)\b|\[(?:system\.)?io\.|\$\{?env:|%userprofile%/i;

const MAX_DEPTH = 6;
const MAX_LINE = 64 * 1024;

/** Statements of a line: split on newlines, `;`, `&&`, `||`, `&` outside quotes; each split into pipeline stages on `|`. */
export function splitStatements(line: string): string[][] {
  const out: string[][] = [];
  let stage = '';
  let stages: string[] = [];
  let quote = '';
  const flush = (endStatement: boolean) => {
    stages.push(stage.trim());
    stage = '';
    if (endStatement) {
      if (stages.some((s) => s !== '')) out.push(stages);
      stages = [];
    }
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = '';
      stage += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      stage += c;
      continue;
    }
    if (c === '\n' || c === ';') {
      flush(true);
      continue;
    }
    if ((c === '&' || c === '|') && line[i + 1] === c) {
      flush(true);
      i++;
      continue;
    }
    if (c === '|') {
      flush(false);
      continue;
    }
    if (c === '&' && stage.trim() !== '') {
      flush(true);
      continue;
    }
    stage += c;
  }
  flush(true);
  return out;
}

/** Words of a statement: blanks and parentheses/braces split, quotes removed ('' inside '...' is a quote). */
export function winWords(stmt: string): string[] {
  const words: string[] = [];
  let cur = '';
  let has = false;
  for (let i = 0; i < stmt.length; i++) {
    const c = stmt[i];
    if (c === "'" || c === '"') {
      const end = stmt.indexOf(c, i + 1);
      const stop = end < 0 ? stmt.length : end;
      cur += stmt.slice(i + 1, stop);
      has = true;
      i = stop;
      continue;
    }
    if (c === '$' && stmt[i + 1] === '{') {
      // ${env:USERPROFILE} is one variable, not a script block.
      const end = stmt.indexOf('}', i + 2);
      const stop = end < 0 ? stmt.length : end + 1;
      cur += stmt.slice(i, stop);
      i = stop - 1;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '(' || c === ')' || c === '{' || c === '}' || c === ',') {
      if (has || cur) words.push(cur);
      cur = '';
      has = false;
      continue;
    }
    cur += c;
  }
  if (has || cur) words.push(cur);
  return words;
}

/** Contents of (...) and {...} groups, so `iex (irm x)` and `& { Remove-Item ... }` are read as statements too. */
function groups(stmt: string): string[] {
  const out: string[] = [];
  const stack: number[] = [];
  for (let i = 0; i < stmt.length && out.length < 20; i++) {
    const c = stmt[i];
    if (c === '(' || c === '{') stack.push(i);
    else if ((c === ')' || c === '}') && stack.length) {
      const start = stack.pop()!;
      if (stack.length === 0) out.push(stmt.slice(start + 1, i));
    }
  }
  return out;
}

function expandParam(p: string, names: readonly string[]): string {
  const lower = p.toLowerCase().replace(/:.*$/, '');
  if (names.includes(lower)) return lower;
  const alias = POWERSHELL_ALIASES[lower];
  if (alias && names.includes(alias)) return alias;
  const found = names.filter((n) => n.startsWith(lower));
  return found.length === 1 ? found[0] : lower;
}

type WinClass = 'root' | 'system' | 'home' | 'profile' | 'posix' | 'other';

/** A Windows path's shape, or its POSIX equivalent for the shared rules. */
export function winPath(a: Analyzer, raw: string): { cls: WinClass; posix?: string } {
  const text = raw.replace(/^['"]|['"]$/g, '').trim();
  const lower = text.toLowerCase();
  for (const h of WIN_HOME) {
    if (lower === h || lower.startsWith(h + '\\') || lower.startsWith(h + '/')) {
      const rest = text.slice(h.length).replace(/\\/g, '/');
      return { cls: 'posix', posix: a.opts.home + rest };
    }
  }
  for (const v of WIN_SYSTEM_VARS) if (lower === v || lower.startsWith(v + '\\') || lower.startsWith(v + '/')) return { cls: lower.length <= v.length + 2 ? 'system' : 'other' };
  for (const v of WIN_PROFILE_VARS) if (lower === v || lower.startsWith(v + '\\') || lower.startsWith(v + '/')) return { cls: lower.length <= v.length + 2 ? 'profile' : 'other' };
  const drive = /^(?:\\\\\?\\)?[a-z]:(?:[\\/]|$)/i.exec(lower);
  if (drive || lower === '\\' || lower === '/' || lower === '\\*' || lower === '/*') {
    const parts = lower.slice(drive ? drive[0].length : 0).split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
    while (parts.length && /^\*(?:\.\*)?$/.test(parts[parts.length - 1])) parts.pop();
    if (parts.length === 0) return { cls: 'root' };
    if (WIN_SYSTEM_DIRS.includes(parts.join('\\'))) return { cls: 'system' };
    // C:\Users\<the user>\... is the home folder the POSIX rules know (the project, .ssh, ...).
    const user = a.opts.home.split('/').pop()?.toLowerCase();
    if (parts[0] === 'users' && parts.length >= 2 && parts[1] === user) {
      const rest = text.slice(drive ? drive[0].length : 0).split(/[\\/]+/).filter((p) => p !== '' && p !== '.').slice(2).join('/');
      return { cls: 'posix', posix: a.opts.home + (rest ? '/' + rest : '') };
    }
    if (parts[0] === 'users' && parts.length === 2) return { cls: 'home' };
    if (parts[0] === 'users' && parts.length === 3) return { cls: 'profile' };
    return { cls: 'other' };
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(text) || text.startsWith('$') || text.startsWith('%')) return { cls: 'other' };
  return { cls: 'posix', posix: text.replace(/\\/g, '/') };
}

function judgeDelete(a: Analyzer, target: string, recursive: boolean, cwd: string, segment: string, winCwd?: string, filtered = false): void {
  // A relative path after `cd /d C:\` is under that folder.
  if (winCwd && !/^(?:[a-z]:|[\\/]|\$|%|~)/i.test(target)) target = winCwd.replace(/[\\/]+$/, '') + '\\' + target;
  const w = winPath(a, target);
  if (w.cls === 'posix' && w.posix !== undefined) {
    deletesPath(a, filtered ? w.posix.replace(/\/?$/, '/*') : w.posix, cwd, segment, { recursive, filtered });
    return;
  }
  if (!recursive) return;
  if (w.cls === 'root' || w.cls === 'system') a.hit('rm-recursive-root', 'deny', segment, `recursively deletes ${target}${w.cls === 'root' ? ' (a drive root)' : ' (a Windows system folder)'}`);
  else if (w.cls === 'home') a.hit('rm-recursive-home', 'deny', segment, `recursively deletes the user profile ${target}`);
  else if (w.cls === 'profile') a.hit('rm-recursive-home', 'deny', segment, `recursively deletes ${target}, a folder of the user profile`);
}

function mapped(a: Analyzer, target: string): string | undefined {
  const w = winPath(a, target);
  return w.cls === 'posix' ? w.posix : undefined;
}

/** Decodes -EncodedCommand: base64 of UTF-16LE text. */
export function decodeEncodedCommand(b64: string): string | undefined {
  const clean = b64.replace(/^['"]|['"]$/g, '');
  if (!/^[A-Za-z0-9+/=\s]{4,}$/.test(clean)) return undefined;
  const buf = Buffer.from(clean, 'base64');
  const text = buf.toString('utf16le');
  // Text that decodes as UTF-16LE but is really UTF-8/ASCII shows as CJK noise: try both, keep the readable one.
  const ascii = buf.toString('utf8');
  const printable = (s: string) => (s.match(/[\x20-\x7e\n\r\t]/g)?.length ?? 0) / Math.max(1, s.length);
  return printable(text) >= printable(ascii) ? text : ascii;
}

function powershellInner(words: string[], stmt: string): { code?: string; encoded?: string } {
  for (let k = 1; k < words.length; k++) {
    const w = words[k];
    if (w.startsWith('-') || w.startsWith('/')) {
      const p = expandParam(w.replace(/^\//, '-'), POWERSHELL_PARAMS);
      if (p === '-command' || p === '-commandwithargs') {
        // Everything after the parameter is the command (quotes included, so take the raw text).
        const idx = stmt.toLowerCase().indexOf(w.toLowerCase());
        const rest = idx >= 0 ? stmt.slice(idx + w.length).trim() : words.slice(k + 1).join(' ');
        return { code: rest.replace(/^(['"])([\s\S]*)\1$/, '$2') };
      }
      if (p === '-encodedcommand') return { encoded: words[k + 1] ?? '' };
      if (p === '-file') return {};
      if (POWERSHELL_WITH_VALUE.includes(p)) k++;
      continue;
    }
    const idx = stmt.indexOf(w);
    const rest = idx >= 0 ? stmt.slice(idx).trim() : words.slice(k).join(' ');
    return { code: rest.replace(/^(['"])([\s\S]*)\1$/, '$2') };
  }
  return {};
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

function programName(word: string): string {
  return word.replace(/^[&.]\s*/, '').replace(/^.*[\\/]/, '').replace(/\.exe$/i, '').toLowerCase();
}

/**
 * PowerShell / cmd.exe text, read statement by statement. `depth` counts
 * the wrappers (cmd /c, powershell -Command) already opened.
 */
export function checkWindowsLine(a: Analyzer, raw: string, depth = 0): void {
  if (depth > MAX_DEPTH || raw.length > MAX_LINE) return;
  const cwd = a.opts.cwd;
  // PowerShell's backtick and cmd's caret escape letters: Re`move-Item, r^d.
  const line = raw.replace(/[`^](?=[A-Za-z])/g, '');
  if (WIN_DOWNLOAD.test(line) && WIN_RUN.test(line)) a.hit('pipe-download-to-interpreter', 'deny', line.slice(0, 200), 'runs what a PowerShell download returns (Invoke-Expression of a web response)');
  const ioDelete = /\[(?:system\.)?io\.directory\]::delete\s*\(\s*([^,)]+)\s*,\s*\$true/i.exec(line);
  if (ioDelete) judgeDelete(a, ioDelete[1].trim(), true, cwd, line.slice(0, 200));
  let winCwd: string | undefined;
  for (const stages of splitStatements(line)) {
    let listed: string[] = [];
    let listedFiltered = false;
    for (const stmt of stages) {
      if (stmt === '') continue;
      const segment = stmt.slice(0, 200);
      if (WIN_BACKUP_ERASERS.test(stmt)) a.hit('disk-destroy', 'deny', segment, 'deletes the backups and shadow copies a restore needs');
      if (WIN_REMOTE_RUNNERS.test(stmt)) a.hit('pipe-download-to-interpreter', 'deny', segment, 'runs code straight from a URL');
      for (const g of groups(stmt)) if (g.trim() && g !== stmt) checkWindowsLine(a, g, depth + 1);
      const words = winWords(stmt);
      if (words.length === 0) continue;
      const name = programName(words[0]);
      if (['cd', 'chdir', 'set-location', 'sl', 'pushd', 'push-location'].includes(name)) {
        const dir = words.slice(1).find((w) => !/^[/-]/.test(w) || /^\/[a-z]:/i.test(w));
        if (dir && /^[a-z]:/i.test(dir)) winCwd = dir;
        else if (dir && winCwd) winCwd = winCwd.replace(/[\\/]+$/, '') + '\\' + dir;
        continue;
      }
      if (name === 'stop-process' || name === 'spps' || name === 'taskkill' || (name === 'kill' && words.some((w) => /^-(?:name|id|inputobject)/i.test(w)))) {
        const all = words.some((w) => w === '*' || /^\*\.?\*?$/.test(w)) || (listed.length === 0 && stages.indexOf(stmt) > 0 && /get-process|gps|\bps\b/i.test(stages[stages.indexOf(stmt) - 1]) && !/where|\?|-name/i.test(stages[stages.indexOf(stmt) - 1]));
        if (all) a.hit('kill-all', 'deny', segment, `${words[0]} stops every process`);
        continue;
      }
      if (name === 'reg' && /^delete$/i.test(words[1] ?? '') && /^(?:hklm|hkey_local_machine|hkcr|hkey_classes_root|hku|hkey_users)\b/i.test(words[2] ?? '')) {
        a.hit('windows-system-change', 'deny', segment, `reg delete removes machine-wide registry keys (${words[2]})`);
        continue;
      }
      if (name === 'takeown' || name === 'icacls' || name === 'cacls') {
        const target = name === 'takeown' ? words[words.findIndex((w) => /^\/f$/i.test(w)) + 1] : words[1];
        const w = target ? winPath(a, target) : { cls: 'other' as const };
        const wide = w.cls === 'root' || w.cls === 'system' || w.cls === 'home';
        const recursive = words.some((x) => /^\/[rt]$/i.test(x));
        const everyone = words.some((x) => /everyone|\*s-1-1-0|users:\(?[fm]/i.test(x) && /grant/i.test(stmt));
        if (wide && recursive && (name === 'takeown' || everyone)) a.hit(name === 'takeown' ? 'chown-recursive-system' : 'chmod-recursive-world-writable', 'deny', segment, `${words[0]} changes ownership or opens permissions of ${target} and everything under it`);
        continue;
      }
      if (name === 'wsl' || name === 'bash' && depth > 0 && /^-c$/.test(words[1] ?? '')) {
        const inner = wslCommand(words, stmt);
        if (inner) a.analyzeSource(inner, depth + 1, 'wsl', cwd, new Map());
        continue;
      }
      if (name === 'cmd') {
        const k = words.findIndex((w, i) => i > 0 && /^\/[ckCK]$/.test(w));
        if (k > 0) {
          const idx = stmt.search(/\/[ckCK]\b/);
          const rest = stmt.slice(idx + 2).trim().replace(/^"([\s\S]*)"$/, '$1');
          checkWindowsLine(a, rest, depth + 1);
        }
        continue;
      }
      if (name === 'powershell' || name === 'pwsh' || name === 'powershell_ise') {
        const inner = powershellInner(words, stmt);
        if (inner.code !== undefined) checkWindowsLine(a, inner.code, depth + 1);
        if (inner.encoded !== undefined) {
          const decoded = decodeEncodedCommand(inner.encoded);
          if (decoded === undefined) a.hit('dynamic-command', 'ask', segment, 'powershell -EncodedCommand with text that is not base64');
          else checkWindowsLine(a, decoded, depth + 1);
        }
        continue;
      }
      if (name === 'get-childitem' || name === 'gci' || name === 'dir' || name === 'ls') {
        // -Filter / -Include / a wildcard narrow what is listed, like find -name.
        listedFiltered = words.some((w) => /^-(?:fi|filter|inc|include|n|name)/i.test(w)) || words.slice(1).some((w) => !w.startsWith('-') && /[*?]/.test(w.replace(/^.*[\\/]/, '')) && !/^\*(?:\.\*)?$/.test(w.replace(/^.*[\\/]/, '')));
        listed = words.slice(1).filter((w, i, arr) => !w.startsWith('-') && !w.startsWith('/') && !/^-(?:fi|filter|inc|include|exc|exclude|depth)/i.test(arr[i - 1] ?? ''));
        if (listed.length === 0) listed = ['.'];
        if (!words.slice(1).some((w) => /^-r/i.test(w) || /^\/s$/i.test(w))) listed = listed.map((l) => l);
        continue;
      }
      if (WIN_DELETE.includes(name)) {
        const targets: string[] = [];
        let recursive = false;
        for (let k = 1; k < words.length; k++) {
          const w = words[k];
          if (/^\/[a-zA-Z]$/.test(w) && name !== 'rm') {
            if (/^\/s$/i.test(w)) recursive = true;
            continue;
          }
          if (w.startsWith('-') && w.length > 1 && !/^-\d/.test(w)) {
            const p = expandParam(w, REMOVE_ITEM_PARAMS);
            if (p === '-recurse') recursive = true;
            if (REMOVE_ITEM_WITH_VALUE.includes(p)) {
              if ((p === '-path' || p === '-literalpath') && words[k + 1] !== undefined) targets.push(words[k + 1]);
              k++;
            }
            continue;
          }
          targets.push(w);
        }
        // rd / rmdir without /s only removes an empty folder; Remove-Item of a folder without -Recurse asks first.
        if (targets.length === 0 && listed.length) {
          for (const l of listed) judgeDelete(a, l.replace(/[\\/][^\\/]*[*?][^\\/]*$/, '') || '.', true, cwd, segment, winCwd, listedFiltered);
        }
        for (const t of targets) judgeDelete(a, t, recursive, cwd, segment, winCwd);
        continue;
      }
      if (WIN_DISK_ERASERS.includes(name)) {
        a.hit('disk-destroy', 'deny', segment, `${words[0]} erases a disk, a volume or a partition`);
        continue;
      }
      if (WIN_POWER.includes(name)) {
        a.hit('shutdown', 'ask', segment, `${words[0]} stops or restarts the machine`);
        continue;
      }
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
      if (depth > 0 && !WIN_READERS.includes(name) && !WIN_WRITERS.includes(name) && !WIN_COPIERS.includes(name)) {
        // Inside cmd /c or powershell -Command: every other program is judged by the POSIX rules (git, curl, sqlite3 ...).
        const argv = words.map((w, i) => (i === 0 ? w.replace(/^[&.]\s*/, '').replace(/\.exe$/i, '') : mapped(a, w) ?? w));
        const c: SimpleCommand = { words: argv.map((text) => ({ text, dynamic: false, quoted: true, glob: false })), assignments: [], redirects: [], pipeline: 0, stage: stages.indexOf(stmt), background: false };
        a.analyzeCommand(c, depth, 'windows', cwd, [c], new Map());
        continue;
      }
      if (WIN_READERS.includes(name)) {
        const files = name === 'select-string' || name === 'sls' ? operands.slice(1) : operands;
        for (const f of files) {
          const p = mapped(a, f);
          if (p) readsPath(a, p, cwd, segment);
        }
        continue;
      }
      if (WIN_WRITERS.includes(name)) {
        const p = mapped(a, operands[0] ?? '');
        if (p) writesPath(a, p, cwd, segment);
        continue;
      }
      if (WIN_COPIERS.includes(name)) {
        const to = dest ?? (operands.length > 1 ? operands[operands.length - 1] : undefined);
        const from = dest ? operands : operands.slice(0, -1);
        if (to) {
          const p = mapped(a, to);
          if (p) writesPath(a, p, cwd, segment);
        }
        for (const f of from) {
          const p = mapped(a, f);
          if (!p) continue;
          carriesFolder(a, p, cwd, segment);
          if (['move-item', 'mi', 'move', 'mv'].includes(name)) deletesPath(a, p, cwd, segment, { recursive: true, verb: 'moves' });
        }
      }
    }
  }
}
