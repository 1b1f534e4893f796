// Reading PowerShell and cmd.exe text without running it: statements, words,
// (...) / {...} groups, parameter prefixes, -EncodedCommand, and the static
// parts of an expression (string literals joined by +). Every reader here is
// one pass over its text (linear), so the family stays bounded.
import { POWERSHELL_ALIASES } from '../tables/windows';
import { own } from './args';

/**
 * Statements of a line: split on newlines, `;`, `&&`, `||`, `&` outside quotes
 * and outside (...) / {...} (a script block or a cmd group is one statement; its
 * inside is read by `groups`); each split into pipeline stages on `|`.
 */
export function splitStatements(line: string): string[][] {
  const out: string[][] = [];
  let stage = '';
  let stages: string[] = [];
  let quote = '';
  let nest = 0;
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
    if (c === '(' || c === '{') nest++;
    else if ((c === ')' || c === '}') && nest > 0) nest--;
    if (nest > 0 && c !== '\n') {
      stage += c;
      continue;
    }
    if (c === '\n' || c === ';') {
      // A newline inside a block still ends nothing: the block's inside is read on its own.
      if (nest > 0) {
        stage += ' ; ';
        continue;
      }
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
    // `& cmd` at the start of a statement is PowerShell's call operator, not cmd's separator.
    if (c === '&' && stage.trim() !== '') {
      flush(true);
      continue;
    }
    stage += c;
  }
  flush(true);
  return out;
}

/** Words of a statement: blanks, parentheses, braces and commas split; quotes removed. */
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

/** Contents of the outermost (...) and {...} groups, so `iex (irm x)` and `& { Remove-Item ... }` are read as statements too. */
export function groups(stmt: string): { text: string; open: string; start: number }[] {
  const out: { text: string; open: string; start: number }[] = [];
  const stack: number[] = [];
  let quote = '';
  for (let i = 0; i < stmt.length && out.length < 20; i++) {
    const c = stmt[i];
    if (quote) {
      if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '{') stack.push(i);
    else if ((c === ')' || c === '}') && stack.length) {
      const start = stack.pop()!;
      if (stack.length === 0) out.push({ text: stmt.slice(start + 1, i), open: stmt[start], start });
    }
  }
  return out;
}

/** A PowerShell parameter spelled by any unique prefix or a documented alias, in full and lower case. */
export function expandParam(p: string, names: readonly string[]): string {
  const lower = p.toLowerCase().replace(/:.*$/, '');
  if (names.includes(lower)) return lower;
  const alias = own(POWERSHELL_ALIASES, lower);
  if (alias && names.includes(alias)) return alias;
  const found = names.filter((n) => n.startsWith(lower));
  return found.length === 1 ? found[0] : lower;
}

/** cmd switches may be glued (`/s/q`): one word per switch. */
export function splitSwitches(words: string[]): string[] {
  const out: string[] = [];
  for (const w of words) {
    if (/^(?:\/[a-z?](?::[^/\s]*)?){2,}$/i.test(w)) out.push(...(w.match(/\/[a-z?](?::[^/\s]*)?/gi) ?? [w]));
    else out.push(w);
  }
  return out;
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

/** The value of a quoted string or a bare word (`'a''b'` is a'b). */
export function unquote(s: string): string {
  const t = s.trim();
  if (t.length >= 2 && t[0] === "'" && t[t.length - 1] === "'") return t.slice(1, -1).replace(/''/g, "'");
  if (t.length >= 2 && t[0] === '"' && t[t.length - 1] === '"') return t.slice(1, -1).replace(/`"/g, '"');
  return t;
}

/** Terms of `a + b + c` split outside quotes and groups. */
function plusTerms(text: string): string[] {
  const terms: string[] = [];
  let cur = '';
  let quote = '';
  let nest = 0;
  for (const c of text) {
    if (quote) {
      if (c === quote) quote = '';
      cur += c;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') nest++;
    else if ((c === ')' || c === ']') && nest > 0) nest--;
    if (c === '+' && nest === 0) {
      terms.push(cur);
      cur = '';
      continue;
    }
    cur += c;
  }
  terms.push(cur);
  return terms;
}

/**
 * The static value of an expression made of string literals and plain words joined by `+`
 * (`"Remove-" + "Item"`, `$env:HOMEDRIVE + $env:HOMEPATH` once the variables are known),
 * or undefined when a part is only known at run time.
 */
export function staticConcat(expr: string): string | undefined {
  const terms = plusTerms(expr.trim());
  if (terms.length > 64) return undefined;
  let out = '';
  for (const raw of terms) {
    const t = raw.trim();
    if (t === '') return undefined;
    if (/^(['"])[\s\S]*\1$/.test(t) && !t.slice(1, -1).includes(t[0])) out += unquote(t);
    else if (/^[^\s$()'"`@{}[\]|;&]+$/.test(t)) out += t;
    else return undefined;
  }
  return out;
}

/** A word written back as one PowerShell/cmd word (quoted when it holds blanks). */
export function asWord(value: string): string {
  return /[\s;&|(){}]/.test(value) ? `"${value.replace(/"/g, '')}"` : value;
}
