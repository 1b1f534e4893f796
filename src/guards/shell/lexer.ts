// A POSIX/bash tokenizer for guarding commands. Two jobs, as in bash:
// `tokens()` splits a line into words, operators and redirections (and reads
// heredoc bodies), keeping each word's source; `expandWord()` later expands
// one word's source the way bash does (brace expansion, tilde, parameters
// known statically, command substitutions that are static, quote removal,
// IFS splitting), and hands back every substitution it met: they run too.
// It never executes anything. Linear in the input: one pass, no regex
// backtracking; brace expansion is capped. Every scanning loop charges the
// work meter (work.ts), so tests can prove it linear.
import { arrayAssocOf, orderedElements, SPLIT, subscriptKey } from './arrays';
import { evalArithmetic } from './arithmetic';
import { overBudget, work } from './work';

export interface Sub {
  /** Source of the substitution's script. */
  src: string;
  kind: '$(' | '`' | '<(' | '>(' | '$((';
}

export interface Word {
  /** The word after quote removal and static expansion. */
  text: string;
  /** Part of it depends on run-time values ($VAR, $(cmd)); \u0000 marks where. */
  dynamic: boolean;
  /** Any part was quoted (so it is not a glob, not an assignment keyword). */
  quoted: boolean;
  /** Unquoted glob characters present. */
  glob: boolean;
  /** Command and process substitutions in the word. */
  subs?: Sub[];
  /** The word's source text. */
  raw?: string;
  /** What each substitution printed, as far as known (set by the analyzer). */
  subOut?: { kind: string }[];
  /** The word expanded to nothing and is removed (kept only to carry its substitutions). */
  vanished?: boolean;
  /** An array assignment's elements (`a=(x y)`). */
  array?: string[];
  /** Their keys, when any was given (`declare -A m=([k]=v)`, `a[5]=x`): subscripts then name elements by key. */
  arrayKeys?: string[];
}


export interface Redirect {
  op: string;
  target: Word;
  /** fd number written before the operator, if any. */
  fd?: number;
}

/**
 * A here-doc's delimiter as bash compares it: the word as written, with quote removal only (no parameter,
 * command or arithmetic expansion: `<<$X` ends at a line that reads `$X`). A word with no `$` or backquote
 * is the lexer's own reading of it.
 */
function heredocDelimiter(raw: string, read: string): string {
  if (!raw.includes('$') && !raw.includes('`')) return read;
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === '\\' && i + 1 < raw.length) out += raw[++i];
    else if (c === "'") {
      const e = raw.indexOf("'", i + 1);
      out += raw.slice(i + 1, e < 0 ? raw.length : e);
      i = e < 0 ? raw.length : e;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < raw.length && raw[j] !== '"'; j++) out += raw[j] === '\\' && /[$`"\\]/.test(raw[j + 1] ?? '') ? raw[++j] : raw[j];
      i = j;
    } else out += c;
  }
  return out;
}

export interface SimpleCommand {
  words: Word[];
  assignments: { name: string; value: Word }[];
  redirects: Redirect[];
  /** Index of this command's pipeline within the line and its position in it. */
  pipeline: number;
  stage: number;
  /** A heredoc fed to this command's stdin. */
  heredoc?: Word;
  background: boolean;
}

export interface LexContext {
  home: string;
  cwd: string;
  tmp: string;
  /** Variables known statically (assignments earlier on the line). */
  vars: Map<string, string>;
  /** Positional parameters ($1...), when known (a function call, `set --`). */
  positional?: string[];
  /** `$0`, when known (`sh -c TEXT NAME`). */
  arg0?: string;
  /** The previous directory (`cd -`, `~-`), when known. */
  oldpwd?: string;
}

export interface Token {
  kind: 'word' | 'op' | 'redir';
  value: string;
  /** For words: the source text. */
  raw?: string;
  fd?: number;
  /** For << and <<-: the body and whether the delimiter was quoted (no expansion). */
  heredoc?: { body: string; quoted: boolean };
}

const META = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);
/** Characters with no meaning to the word reader (letters, digits, most punctuation). */
const PLAIN_CHAR = new Uint8Array(128);
for (const ch of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:@%+,^-') PLAIN_CHAR[ch.charCodeAt(0)] = 1;
export const MAX_BRACE_WORDS = 256;
/** Arithmetic expansions nested in one another that are searched for substitutions in one pass. */
const MAX_ARITH_NEST = 16;
/** Longest `NAME[subscript]` before an assignment's `=`. */
const MAX_ASSIGN_NAME = 512;

/**
 * $'...' as a word: bash keeps words as C strings, so a NUL an escape makes ($'rm\0x', \x00, \c@, \u0000) ends the
 * text there. (printf's and echo -e's escapes are decoded by decodeAnsiC too, and their NULs are output.)
 */
function ansiCWord(body: string): string {
  const out = decodeAnsiC(body);
  const nul = out.indexOf('\u0000');
  return nul === -1 ? out : out.slice(0, nul);
}

function decodeAnsiC(body: string): string {
  work.units += body.length;
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\' || i + 1 >= body.length) {
      out += c;
      continue;
    }
    const n = body[++i];
    switch (n) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'a': out += '\x07'; break;
      case 'b': out += '\b'; break;
      case 'e': case 'E': out += '\x1b'; break;
      case 'f': out += '\f'; break;
      case 'v': out += '\v'; break;
      case '\\': out += '\\'; break;
      case "'": out += "'"; break;
      case '"': out += '"'; break;
      case '?': out += '?'; break;
      case 'x': {
        const m = /^[0-9a-fA-F]{1,2}/.exec(body.slice(i + 1, i + 3));
        if (m) {
          out += String.fromCharCode(parseInt(m[0], 16));
          i += m[0].length;
        } else out += '\\x';
        break;
      }
      case 'u': case 'U': {
        const m = /^[0-9a-fA-F]{1,8}/.exec(body.slice(i + 1, i + (n === 'u' ? 5 : 9)));
        if (m) {
          const cp = parseInt(m[0], 16);
          out += cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
          i += m[0].length;
        } else out += '\\' + n;
        break;
      }
      case 'c': {
        const ch = body[i + 1];
        if (ch) {
          out += String.fromCharCode(ch.charCodeAt(0) & 0x1f);
          i++;
        }
        break;
      }
      default:
        if (n >= '0' && n <= '7') {
          const m = /^[0-7]{1,3}/.exec(body.slice(i, i + 3))!;
          out += String.fromCharCode(parseInt(m[0], 8) & 0xff);
          i += m[0].length - 1;
        } else out += '\\' + n;
    }
  }
  return out;
}
export { ansiCWord, decodeAnsiC };

/** A bash pattern (`*`, `?`, `[...]`, backslash and quotes for literals) as a regular expression body; undefined when it holds an expansion. */
function patternRegex(raw: string, greedy: boolean): string | undefined {
  let re = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === '$' || c === '`') return undefined;
    if (c === '\\') {
      i++;
      re += (raw[i] ?? '').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    } else if (c === "'" || c === '"') {
      const end = raw.indexOf(c, i + 1);
      if (end < 0) return undefined;
      re += raw.slice(i + 1, end).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      i = end;
    } else if (c === '*') re += greedy ? '[\\s\\S]*' : '[\\s\\S]*?';
    else if (c === '?') re += '[\\s\\S]';
    else if (c === '[') {
      const end = raw.indexOf(']', i + 2);
      if (end < 0) re += '\\[';
      else {
        let body = raw.slice(i + 1, end);
        const neg = body[0] === '!' || body[0] === '^';
        if (neg) body = body.slice(1);
        re += `[${neg ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
        i = end;
      }
    } else re += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return re;
}

/** `${X<op>...}` for the removal and replacement operators, on a known value; undefined when not statically known. */
export function patternOp(value: string, rest: string): string | undefined {
  if (rest.length > 1024 || value.length > 8192) return undefined;
  work.units += rest.length + value.length;
  const tryRe = (src: string, flags = ''): RegExp | undefined => {
    try {
      return new RegExp(src, flags);
    } catch {
      return undefined;
    }
  };
  // Case modification: ${X^^} ${X,,} (every character), ${X^} ${X,} (the first); a pattern limits it to the characters it matches.
  const cm = /^(\^\^|,,|\^|,)([\s\S]*)$/.exec(rest);
  if (cm) {
    const [, op, pat] = cm;
    const body = pat === '' ? '[\\s\\S]' : patternRegex(pat, false);
    const one = body === undefined ? undefined : tryRe(`^(?:${body})$`, 's');
    if (!one) return undefined;
    const up = op[0] === '^';
    let out = '';
    for (let k = 0; k < value.length; k++) {
      const ch = value[k];
      out += (op.length === 2 || k === 0) && one.test(ch) ? (up ? ch.toUpperCase() : ch.toLowerCase()) : ch;
    }
    return out;
  }
  const rm = /^(##|#|%%|%)([\s\S]*)$/.exec(rest);
  if (rm) {
    const [, op, pat] = rm;
    if (op === '#' || op === '##') {
      const body = patternRegex(pat, op === '##');
      const re = body === undefined ? undefined : tryRe(`^(?:${body})`);
      return re ? value.replace(re, '') : undefined;
    }
    // Suffix removal: the shortest (%) or longest (%%) suffix matching the whole pattern.
    const body = patternRegex(pat, true);
    const re = body === undefined ? undefined : tryRe(`^(?:${body})$`);
    if (!re) return undefined;
    if (op === '%') {
      for (let k = value.length; k >= 0; k--) if (re.test(value.slice(k))) return value.slice(0, k);
    } else for (let k = 0; k <= value.length; k++) if (re.test(value.slice(k))) return value.slice(0, k);
    return value;
  }
  const rp = /^\/([/#%]?)([\s\S]*)$/.exec(rest);
  if (!rp) return undefined;
  const [, mode, tail] = rp;
  // The pattern ends at the first unescaped slash; the rest is the replacement.
  let cut = -1;
  for (let i = 0; i < tail.length; i++) {
    if (tail[i] === '\\') i++;
    else if (tail[i] === '/') {
      cut = i;
      break;
    }
  }
  const pat = cut < 0 ? tail : tail.slice(0, cut);
  const repRaw = cut < 0 ? '' : tail.slice(cut + 1);
  if (/[$`]/.test(repRaw)) return undefined;
  const rep = repRaw.replace(/\\(.)/g, '$1').replace(/^'([\s\S]*)'$|^"([\s\S]*)"$/, (_m, a, b) => a ?? b);
  const body = patternRegex(pat, true);
  if (body === undefined || pat === '') return undefined;
  const re = tryRe(mode === '#' ? `^(?:${body})` : mode === '%' ? `(?:${body})$` : body, mode === '/' ? 'g' : '');
  return re ? value.replace(re, () => rep) : undefined;
}

const isWordStart = (s: string, i: number): boolean => i === 0 || ' \t\n;&|()<>'.includes(s[i - 1]);

/** Quotes and substitutions nested deeper than this read as never closed: the scanners recurse, and the stack is finite. */
const MAX_SCAN_NEST = 200;
/**
 * How deep the scanners are nested now. Kept as a field so an analysis can start from zero: loom serve's
 * watchdog (a vm timeout) ends an over-long analysis without running its `finally` blocks, which left the
 * count raised, and after a few such requests every later `$(...)` read as never closed.
 */
export const scanState = { nest: 0 };

/** Index just past the `)` that closes a `$(` / `<(` opened before `start`; -1 when it is never closed. */
/** Whether the `$((` whose inner `(` is at start ends with `))` (else bash reads `$( (...) )`). */
function closesArithmetic(s: string, start: number): boolean {
  // As bash decides: the inner `(` must close right before a `)`; `$(( cmd ) ; x)` is a substitution of a subshell.
  const j = matchParen(s, start + 1);
  return j < 0 || s[j] === ')';
}

export function matchParen(s: string, start: number): number {
  if (scanState.nest >= MAX_SCAN_NEST) return -1;
  scanState.nest++;
  try {
    return matchParenAt(s, start);
  } finally {
    scanState.nest--;
  }
}

function skipDouble(s: string, start: number): number {
  if (scanState.nest >= MAX_SCAN_NEST) return s.length;
  scanState.nest++;
  try {
    return skipDoubleAt(s, start);
  } finally {
    scanState.nest--;
  }
}

/** Index just past the `}` closing a `${` (start is after the brace); quotes and nested expansions inside are skipped. */
export function skipBrace(s: string, start: number): number {
  if (scanState.nest >= MAX_SCAN_NEST) return s.length;
  scanState.nest++;
  try {
    return skipBraceAt(s, start);
  } finally {
    scanState.nest--;
  }
}

/**
 * Reads a heredoc body inside a substitution: returns the index of the newline ending its delimiter line,
 * or, for a line that starts with the delimiter and has a `)` after it, the index just past the delimiter:
 * bash 5.2 ends the body there and reads the rest of that line as commands (`$(cat <<EOF\nx\nEOF) && ...`).
 */
function skipHeredoc(s: string, i: number): number {
  const m = /^<<-?[ \t]*(['"]?)([A-Za-z_0-9.-]+)\1/.exec(s.slice(i, i + 140));
  const nl = s.indexOf('\n', i);
  if (!m || nl < 0) return -1;
  let k = nl + 1;
  for (;;) {
    const e = s.indexOf('\n', k);
    work.units += (e < 0 ? s.length : e) - k + 1;
    const raw = s.slice(k, e < 0 ? s.length : e);
    const line = raw.replace(/^\t+/, '');
    if (line === m[2]) return e < 0 ? s.length : e;
    if (line.startsWith(m[2]) && line.includes(')', m[2].length)) return k + (raw.length - line.length) + m[2].length;
    if (e < 0) return s.length;
    k = e + 1;
  }
}

/** Index just past the `)` that closes a `$(` / `<(` opened before `start`; -1 when it is never closed. */
function matchParenAt(s: string, start: number): number {
  let depth = 1;
  let caseDepth = 0;
  let i = start;
  while (i < s.length) {
    work.units++;
    const c = s[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === "'") {
      const j = s.indexOf("'", i + 1);
      work.units += (j < 0 ? s.length : j) - i;
      i = j < 0 ? s.length : j + 1;
      continue;
    }
    if (c === '"') {
      i = skipDouble(s, i + 1);
      continue;
    }
    if (c === '`') {
      i = skipBacktick(s, i + 1);
      continue;
    }
    if (c === '$' && s[i + 1] === '{') {
      i = skipBrace(s, i + 2);
      continue;
    }
    if (c === '#' && isWordStart(s, i)) {
      // A comment: a `)` in it does not close anything.
      const nl = s.indexOf('\n', i);
      work.units += (nl < 0 ? s.length : nl) - i;
      i = nl < 0 ? s.length : nl;
      continue;
    }
    if (c === '<' && s[i + 1] === '<' && s[i + 2] === '<') {
      // A here-string: its second `<` does not start a heredoc.
      i += 3;
      continue;
    }
    if (c === '<' && s[i + 1] === '<') {
      const e = skipHeredoc(s, i);
      if (e >= 0) {
        i = e;
        continue;
      }
    }
    if (isWordStart(s, i) && (c === 'c' || c === 'e')) {
      const w = /^(?:case|esac)(?=[\s;&|)]|$)/.exec(s.slice(i, i + 5));
      if (w) {
        caseDepth += w[0] === 'case' ? 1 : caseDepth > 0 ? -1 : 0;
        i += 4;
        continue;
      }
    }
    if (c === '(') depth++;
    else if (c === ')') {
      // In `case x in a) ...`, a pattern's `)` closes nothing.
      if (caseDepth > 0 && depth === 1) {
        i++;
        continue;
      }
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return -1;
}

/** Index just past the closing `"` of a double-quoted string starting at `start` (after the opening quote). */
function skipDoubleAt(s: string, start: number): number {
  let i = start;
  while (i < s.length) {
    work.units++;
    const c = s[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '"') return i + 1;
    if (c === '$' && s[i + 1] === '(') {
      const j = matchParen(s, i + 2);
      i = j < 0 ? s.length : j;
      continue;
    }
    if (c === '$' && s[i + 1] === '{') {
      i = skipBrace(s, i + 2);
      continue;
    }
    if (c === '`') {
      i = skipBacktick(s, i + 1);
      continue;
    }
    i++;
  }
  return s.length;
}

/** Index just past the closing backtick (start is after the opening one). */
export function skipBacktick(s: string, start: number): number {
  let i = start;
  while (i < s.length) {
    work.units++;
    if (s[i] === '\\') {
      i += 2;
      continue;
    }
    if (s[i] === '`') return i + 1;
    i++;
  }
  return s.length;
}

/** Index just past the `}` closing a `${` (start is after the brace); quotes and nested expansions inside are skipped. */
function skipBraceAt(s: string, start: number): number {
  let i = start;
  while (i < s.length) {
    work.units++;
    const c = s[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '}') return i + 1;
    if (c === "'") {
      const j = s.indexOf("'", i + 1);
      work.units += (j < 0 ? s.length : j) - i;
      i = j < 0 ? s.length : j + 1;
      continue;
    }
    if (c === '"') {
      i = skipDouble(s, i + 1);
      continue;
    }
    if (c === '`') {
      i = skipBacktick(s, i + 1);
      continue;
    }
    if (c === '$' && s[i + 1] === '(') {
      const j = matchParen(s, i + 2);
      i = j < 0 ? s.length : j;
      continue;
    }
    if (c === '$' && s[i + 1] === '{') {
      i = skipBrace(s, i + 2);
      continue;
    }
    i++;
  }
  return s.length;
}

/** `$(` and backticks inside a text that is expanded as a whole (an arithmetic body, a heredoc). */
export function findSubs(body: string, out: Sub[], level = 0): void {
  for (let k = 0; k < body.length && out.length < 64; k++) {
    work.units++;
    if (body[k] === '\\') {
      k++;
      continue;
    }
    if (body[k] === '$' && body[k + 1] === '(') {
      const arith = body[k + 2] === '(' && closesArithmetic(body, k + 2);
      const j = matchParen(body, k + 2);
      if (j < 0) {
        // Never closed: the rest is its script, as the tokenizer reads it (scanning on from each `$(` would be quadratic).
        out.push({ src: body.slice(k + 2), kind: '$(' });
        return;
      }
      const inner = body.slice(k + 2, j - 1);
      // Each nested $(( )) is scanned again: deeper than MAX_ARITH_NEST, the rest is analysed as its own (( )) command.
      if (arith && level < MAX_ARITH_NEST) findSubs(inner, out, level + 1);
      else if (arith) out.push({ src: `(${inner})`, kind: '$((' });
      else out.push({ src: inner, kind: '$(' });
      k = j - 1;
    } else if (body[k] === '`') {
      const j = skipBacktick(body, k + 1);
      out.push({ src: body.slice(k + 1, j - 1).replace(/\\([`\\$])/g, '$1'), kind: '`' });
      k = j - 1;
    }
  }
}

/** Marks a field boundary produced by an unquoted expansion (IFS splitting happens after the word is built). */
export { SPLIT } from './arrays';

export type StaticEval = (src: string) => string | undefined;

export class Lexer {
  private i = 0;
  readonly errors: string[] = [];
  private pendingHeredocs: { delim: string; quoted: boolean; strip: boolean; tok: Token }[] = [];
  private subs: Sub[] = [];
  /**
   * The text is the body of a `$( )`, `<( )` or `>( )`, cut at its closing `)`: a last line that starts with
   * a heredoc's delimiter ends that heredoc, and what follows the delimiter is read as commands (bash 5.2).
   */
  subBody = false;

  constructor(
    private readonly s: string,
    private readonly ctx: LexContext,
    /** Evaluates a static $(echo ...) substitution; undefined when it cannot. */
    private readonly evalStatic: StaticEval = () => undefined,
    /** Nesting of ${X:-${Y:-...}} words being expanded. */
    private readonly level = 0,
    /** The text is one word however it is spaced (the word of ${X:-word}). */
    private readonly wholeWord = false,
  ) {}

  private ifs(): string {
    return this.ctx.vars.get('IFS') ?? ' \t\n';
  }

  private expandVar(name: string): string | undefined {
    if (this.ctx.vars.has(name)) return this.ctx.vars.get(name);
    if (name === '0' && this.ctx.arg0 !== undefined) return this.ctx.arg0;
    const pos = this.ctx.positional;
    if (pos && /^[1-9][0-9]*$/.test(name)) return pos[Number(name) - 1] ?? '';
    if (pos && name === '#') return String(pos.length);
    if (name === 'HOME') return this.ctx.home;
    if (name === 'PWD') return this.ctx.cwd;
    if (name === 'OLDPWD') return this.ctx.oldpwd;
    if (name === 'TMPDIR') return this.ctx.tmp;
    // Unset, IFS splits on blanks and newlines: `rm -rf$IFS/` is `rm -rf /`.
    if (name === 'IFS') return ' \t\n';
    return undefined;
  }

  /** Appends an expansion's value: unquoted, its IFS characters split fields. */
  private put(w: { text: string; glob?: boolean }, v: string, inDouble: boolean): void {
    if (inDouble) {
      w.text += v;
      return;
    }
    if (w.glob === false && /[*?[]/.test(v)) w.glob = true;
    const ifs = this.ifs();
    work.units += v.length;
    let out = '';
    for (const ch of v) out += ifs.includes(ch) ? SPLIT : ch;
    w.text += out;
  }

  private substitution(w: { text: string; dynamic: boolean }, inner: string, kind: '$(' | '`', inDouble: boolean): void {
    this.subs.push({ src: inner, kind });
    const v = this.evalStatic(inner);
    if (v !== undefined) this.put(w, v.replace(/\n+$/, ''), inDouble);
    else {
      w.text += '\u0000';
      w.dynamic = true;
    }
  }

  /** Reads `$...` at this.i (pointing at '$'); appends to w. */
  private dollar(w: { text: string; dynamic: boolean }, inDouble: boolean): void {
    const s = this.s;
    const n = s[this.i + 1];
    // $(( ... )) is arithmetic only when it closes with `))`; `$((cmd) )` is a substitution holding a subshell.
    if (n === '(' && s[this.i + 2] === '(' && closesArithmetic(s, this.i + 2)) {
      // $(( ... )): matchParen from the inner `(` returns just past the closing `))`.
      const j = matchParen(s, this.i + 2);
      const end = j < 0 ? s.length : j;
      const body = s.slice(this.i + 3, Math.max(this.i + 3, end - 2));
      findSubs(body, this.subs);
      this.i = end;
      // Literals and known variables: the number bash prints (`${a[$((i+1))]}`, `rm -rf ~/$((0))`).
      const known = j < 0 ? undefined : evalArithmetic(body, (name) => this.expandVar(name));
      if (known !== undefined) {
        this.put(w, String(known), inDouble);
        return;
      }
      w.text += '\u0000';
      w.dynamic = true;
      return;
    }
    if (n === '(') {
      const j = matchParen(s, this.i + 2);
      if (j < 0) {
        this.errors.push('unterminated $(');
        this.subs.push({ src: s.slice(this.i + 2), kind: '$(' });
        this.i = s.length;
        w.text += '\u0000';
        w.dynamic = true;
        return;
      }
      const inner = s.slice(this.i + 2, j - 1);
      this.i = j;
      this.substitution(w, inner, '$(', inDouble);
      return;
    }
    if (n === '{') {
      const j = skipBrace(s, this.i + 2);
      if (j > s.length || s[j - 1] !== '}') {
        this.errors.push('unterminated ${');
        this.i = s.length;
        w.text += '\u0000';
        w.dynamic = true;
        return;
      }
      this.braceParam(w, s.slice(this.i + 2, j - 1), inDouble);
      this.i = j;
      return;
    }
    if (n === "'" && !inDouble) {
      (w as { quoted?: boolean }).quoted = true;
      const j = this.findAnsiEnd(this.i + 2);
      w.text += ansiCWord(s.slice(this.i + 2, j));
      this.i = j + 1;
      return;
    }
    const m = /^[A-Za-z_][A-Za-z0-9_]*|^[0-9@*#?$!-]/.exec(s.slice(this.i + 1, this.i + 257));
    if (!m) {
      w.text += '$';
      this.i++;
      return;
    }
    this.i += 1 + m[0].length;
    if ((m[0] === '@' || m[0] === '*') && this.ctx.positional) {
      // "$@" is one word per parameter; "$*" joins them with the first IFS character. Unquoted, either is a word
      // per parameter, each then split at IFS as any unquoted expansion is (IFS=:; set -- rm:-rf:x; $* runs rm -rf x).
      if (!inDouble) {
        this.ctx.positional.forEach((p, i) => {
          if (i > 0) w.text += SPLIT;
          this.put(w, p, false);
        });
        return;
      }
      w.text += this.ctx.positional.join(m[0] === '@' ? SPLIT : this.ifs()[0] ?? '');
      return;
    }
    const v = this.expandVar(m[0]);
    if (v !== undefined) this.put(w, v, inDouble);
    else {
      w.text += '\u0000';
      w.dynamic = true;
    }
  }

  /** ${NAME}, ${NAME:-word} and friends: the word part is expanded too (its substitutions run). */
  private braceParam(w: { text: string; dynamic: boolean }, body: string, inDouble: boolean): void {
    // Indirection (${!v}: the variable named by v's value) and array elements (${a[0]}, "${a[@]}") read as bash does.
    const ind = /^!([A-Za-z_][A-Za-z0-9_]*)$/.exec(body);
    if (ind) {
      const target = this.expandVar(ind[1]);
      const v = target !== undefined && /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+)$/.test(target) ? this.expandVar(target) : undefined;
      if (v !== undefined) return this.put(w, v, inDouble);
      w.text += '\u0000';
      w.dynamic = true;
      return;
    }
    // ${!a[@]}: the array's keys (indices when it has none of its own), in bash's order.
    const keysOf = /^!([A-Za-z_][A-Za-z0-9_]*)\[[@*]\]$/.exec(body);
    if (keysOf) {
      const el = orderedElements(this.ctx.vars, keysOf[1]);
      if (el) return this.put(w, el.keys.join(SPLIT), inDouble);
      w.text += '\u0000';
      w.dynamic = true;
      return;
    }
    const arr = /^([A-Za-z_][A-Za-z0-9_]*)\[([^\]]{1,256})\]$/.exec(body);
    if (arr) {
      const el = orderedElements(this.ctx.vars, arr[1]);
      let v: string | undefined;
      if (arr[2] === '@' || arr[2] === '*') v = el !== undefined ? (arr[2] === '@' || !inDouble ? el.values.join(SPLIT) : el.values.join(this.ifs()[0] ?? '')) : this.expandVar(arr[1]);
      else {
        const assoc = this.ctx.vars.get(arrayAssocOf(arr[1])) === 'A';
        const key = subscriptKey(arr[2], assoc, (n) => this.expandVar(n));
        // A key the array does not hold is the empty string, as bash gives it; one known only at run time is unknown.
        if (key === undefined) v = undefined;
        else if (el !== undefined) v = el.values[el.keys.indexOf(key)] ?? '';
        else v = key === '0' && !assoc ? this.expandVar(arr[1]) : undefined;
      }
      if (v !== undefined) {
        if (arr[2] === '@' && inDouble) w.text += v;
        else this.put(w, v, inDouble);
        return;
      }
      w.text += '\u0000';
      w.dynamic = true;
      return;
    }
    const m = /^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(.*)$/s.exec(body);
    const name = m?.[1];
    const rest = m?.[2] ?? body;
    const known = name !== undefined ? this.expandVar(name) : undefined;
    // ${X@P} expands X's value as a prompt: its $(...) and backticks run. A value only known at run time
    // is code only known at run time: the substitution `eval "$X"` stands for it (the analyzer asks).
    if (m && rest === '@P' && this.level < 16) {
      if (known !== undefined) {
        const sub = new Lexer(known, this.ctx, this.evalStatic, this.level + 1);
        sub.expandInDouble();
        this.subs.push(...sub.subs);
      } else this.subs.push({ src: `eval "$${name}"`, kind: '$(' });
      w.text += '\u0000';
      w.dynamic = true;
      return;
    }
    let wordPart: Word | undefined;
    const op = /^(:?[-=+?])/.exec(rest)?.[1];
    if (rest !== '' && this.level < 16) {
      // Expand the operator's word (as inside double quotes) to collect what it runs.
      const from = op ? op.length : /^[#%/^,]{1,2}/.exec(rest)?.[0].length ?? 0;
      // Inside double quotes the word's single quotes are literal ("${x:-'$(cmd)'}" runs cmd): read it as double-quoted.
      const word = rest.slice(from);
      const asDouble = inDouble && op !== undefined && word.includes("'") && !word.includes('"');
      const sub = new Lexer(asDouble ? `"${word}"` : word, this.ctx, this.evalStatic, this.level + 1, true);
      const parts = sub.expandOne();
      wordPart = { text: parts.map((p) => p.text).join(' '), dynamic: parts.some((p) => p.dynamic), quoted: true, glob: false };
      this.subs.push(...sub.subs);
    }
    // ${X#p} ${X##p} ${X%p} ${X%%p} ${X/p/r} ${X//p/r} ${X/#p/r} ${X/%p/r} on a known value with a literal pattern.
    if (m && known !== undefined && rest !== '' && !op) {
      const v = patternOp(known, rest);
      if (v !== undefined) return this.put(w, v, inDouble);
    }
    if (!m || (rest !== '' && !op)) {
      w.text += '\u0000';
      w.dynamic = true;
      return;
    }
    if (rest === '' && known !== undefined) return this.put(w, known, inDouble);
    // ${X:?msg} / ${X?msg}: the value when set (the shell stops otherwise, running nothing).
    if (op && (op === '?' || op === ':?') && known !== undefined && (op === '?' || known !== '')) return this.put(w, known, inDouble);

    if (op && (op === '-' || op === ':-' || op === '=' || op === ':=')) {
      const useDefault = known === undefined || (op.startsWith(':') && known === '');
      // An unset variable takes the default: what an attacker relies on.
      if (useDefault && wordPart && !wordPart.dynamic) return this.put(w, wordPart.text, inDouble);
      if (!useDefault && known !== undefined) return this.put(w, known, inDouble);
    }
    w.text += '\u0000';
    w.dynamic = true;
  }

  private findAnsiEnd(from: number): number {
    let k = from;
    while (k < this.s.length && this.s[k] !== "'") k += this.s[k] === '\\' ? 2 : 1;
    work.units += k - from;
    return Math.min(k, this.s.length);
  }

  private backtick(w: { text: string; dynamic: boolean }, inDouble: boolean): void {
    const end = skipBacktick(this.s, this.i + 1);
    const inner = this.s.slice(this.i + 1, this.s[end - 1] === '`' ? end - 1 : end).replace(/\\([`\\$])/g, '$1');
    this.i = end;
    this.substitution(w, inner, '`', inDouble);
  }

  /** The whole text expanded as inside double quotes (a ${X:-word} word, an unquoted heredoc body). */
  expandInDouble(): Word {
    const w = { text: '', dynamic: false, quoted: true, glob: false };
    const s = this.s;
    while (this.i < s.length) {
      work.units++;
      const d = s[this.i];
      if (d === '\\' && '$`"\\\n'.includes(s[this.i + 1] ?? '')) {
        if (s[this.i + 1] !== '\n') w.text += s[this.i + 1];
        this.i += 2;
      } else if (d === '$') this.dollar(w, true);
      else if (d === '`') this.backtick(w, true);
      else {
        // A run of text with no expansion is copied in one slice (a long heredoc is mostly that).
        let j = this.i + 1;
        while (j < s.length && s[j] !== '\\' && s[j] !== '$' && s[j] !== '`') j++;
        work.units += j - this.i - 1;
        w.text += s.slice(this.i, j);
        this.i = j;
      }
    }
    return { text: w.text, dynamic: w.dynamic, quoted: true, glob: false, subs: this.subs };
  }

  /** Reads one word at this.i; with `scan`, only finds its end. */
  private readWord(): Word {
    const s = this.s;
    const w = { text: '', dynamic: false, quoted: false, glob: false };
    const start = this.i;
    let assignAt = -1;
    while (this.i < s.length) {
      work.units++;
      const c = s[this.i];
      // zsh's `=(cmd)` is `<(cmd)` kept in a file (bash refuses the word, so reading it so loses nothing).
      // bash reads `<(cmd)` / `>(cmd)` inside a word too (`BASH_ENV=<(cmd)`, `x<(cmd)` is `x/dev/fd/63`): not a redirection.
      if ((c === '<' || c === '>' || (c === '=' && this.i === start)) && s[this.i + 1] === '(') {
        const j = matchParen(s, this.i + 2);
        const inner = s.slice(this.i + 2, j < 0 ? s.length : j - 1);
        if (j < 0) this.errors.push(`unterminated ${c}(`);
        this.subs.push({ src: inner, kind: c === '>' ? '>(' : '<(' });
        w.text += `\u0000procsub:${c === '>' ? '>' : '<'}(`;
        w.dynamic = true;
        this.i = j < 0 ? s.length : j;
        continue;
      }
      // extglob patterns ?(p) *(p) +(p) @(p) !(p): the parenthesis is part of the word (a glob), not a subshell.
      if (c === '(' && this.i > start && '?*+@!'.includes(s[this.i - 1]) && s[this.i - 2] !== '\\') {
        const j = matchParen(s, this.i + 1);
        if (j > 0) {
          work.units += j - this.i;
          // Judged as `*`, which matches at least what the pattern matches (`!(keep)` is nearly everything).
          w.text = w.text.slice(0, -1) + '*';
          w.glob = true;
          this.i = j;
          continue;
        }
      }
      if (META.has(c) && !this.wholeWord) break;
      if (c === '\\') {
        if (s[this.i + 1] === '\n') {
          this.i += 2;
          continue;
        }
        if (this.i + 1 < s.length) w.text += s[this.i + 1];
        w.quoted = true;
        this.i += 2;
        continue;
      }
      if (c === "'") {
        const j = s.indexOf("'", this.i + 1);
        work.units += (j < 0 ? s.length : j) - this.i;
        if (j < 0) {
          this.errors.push("unterminated '");
          w.text += s.slice(this.i + 1);
          this.i = s.length;
        } else {
          w.text += s.slice(this.i + 1, j);
          this.i = j + 1;
        }
        w.quoted = true;
        continue;
      }
      if (c === '"' || (c === '$' && s[this.i + 1] === '"')) {
        if (c === '$') this.i++;
        w.quoted = true;
        this.i++;
        while (this.i < s.length && s[this.i] !== '"') {
          work.units++;
          const d = s[this.i];
          if (d === '\\' && '$`"\\\n'.includes(s[this.i + 1] ?? '')) {
            if (s[this.i + 1] !== '\n') w.text += s[this.i + 1];
            this.i += 2;
          } else if (d === '$') this.dollar(w, true);
          else if (d === '`') this.backtick(w, true);
          else {
            let j = this.i + 1;
            while (j < s.length && s[j] !== '"' && s[j] !== '\\' && s[j] !== '$' && s[j] !== '`') j++;
            work.units += j - this.i;
            w.text += s.slice(this.i, j);
            this.i = j;
          }
        }
        if (this.i >= s.length) this.errors.push('unterminated "');
        this.i++;
        continue;
      }
      if (c === '$') {
        this.dollar(w, false);
        continue;
      }
      if (c === '`') {
        this.backtick(w, false);
        continue;
      }
      if (PLAIN_CHAR[c.charCodeAt(0)] === 1 && c !== '=') {
        // A run of ordinary characters is copied in one slice.
        let j = this.i + 1;
        while (j < s.length && PLAIN_CHAR[s.charCodeAt(j)] === 1 && s[j] !== '=') j++;
        work.units += j - this.i;
        w.text += s.slice(this.i, j);
        this.i = j;
        continue;
      }
      if (c === '*' || c === '?' || c === '[') w.glob = true;
      // Only a short text can be NAME or NAME[subscript] (a test per `=` of a long word would be quadratic).
      if (c === '=' && assignAt < 0 && !w.quoted && w.text.length <= MAX_ASSIGN_NAME && /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?$/.test(w.text)) assignAt = w.text.length + 1;
      // A tilde starts the word, or follows an assignment's `=` or a `:` in its value.
      if (c === '~' && (this.i === start || (assignAt > 0 && (w.text.length === assignAt || w.text.endsWith(':'))))) {
        const t = this.tilde(start);
        if (t !== undefined) {
          w.text += t;
          continue;
        }
      }
      w.text += c;
      this.i++;
    }
    return w;
  }

  /** Expands a tilde prefix at this.i; undefined leaves it literal. */
  private tilde(_start: number): string | undefined {
    const s = this.s;
    let j = this.i + 1;
    while (j < s.length && !META.has(s[j]) && s[j] !== '/' && s[j] !== ':') j++;
    work.units += j - this.i;
    const name = s.slice(this.i + 1, j);
    let v: string | undefined;
    if (name === '') v = this.ctx.vars.get('HOME') ?? this.ctx.home;
    else if (name === '+') v = this.ctx.cwd;
    else if (name === '-') v = this.ctx.oldpwd ?? '\u0000';
    else if (/^[A-Za-z_][A-Za-z0-9._-]*$/.test(name)) {
      const homeParent = this.ctx.home.slice(0, this.ctx.home.lastIndexOf('/')) || '/home';
      v = name === 'root' ? '/root' : `${homeParent}/${name}`;
    }
    if (v === undefined) return undefined;
    this.i = j;
    return v;
  }

  /** Expands the whole source as one word (after brace expansion); IFS splitting may make it several. */
  expandOne(): Word[] {
    const raw = this.s;
    const w = this.readWord();
    // Operators glued inside a raw word cannot happen (the tokenizer split them); a leftover means a lone metachar.
    if (this.i < raw.length) w.text += raw.slice(this.i);
    const subs = this.subs;
    work.units += w.text.length;
    // A run-time placeholder in the source (a partly run-time script analysed as text) stays run-time.
    if (raw.includes('\u0000')) w.dynamic = true;
    // A word with no quoted part whose expansions are all empty disappears, as in bash
    // (`echo $(rm f)` runs `echo`); so does a lone "$@" with no parameters.
    const gone = (): Word[] => [{ text: '', dynamic: w.dynamic, quoted: w.quoted, glob: false, subs, raw, vanished: true }];
    if (w.text === '' && (!w.quoted || (raw === '"$@"' && this.ctx.positional?.length === 0))) return gone();
    if (!w.text.includes(SPLIT)) return [{ text: w.text, dynamic: w.dynamic, quoted: w.quoted, glob: w.glob, subs, raw }];
    // Fields an unquoted expansion left empty disappear, as in bash.
    const out: Word[] = [];
    for (const p of w.text.split(SPLIT)) if (p !== '') out.push({ text: p, dynamic: w.dynamic, quoted: w.quoted, glob: w.glob && /[*?[]/.test(p), subs, raw });
    return out.length ? out : gone();
  }

  private readHeredocBodies(): void {
    // Bodies start on the line after the operator: here, at a newline.
    for (const h of this.pendingHeredocs) {
      const lines: string[] = [];
      let closed = false;
      while (this.i < this.s.length) {
        let nl = this.s.indexOf('\n', this.i);
        if (nl < 0) nl = this.s.length;
        const start = this.i;
        let line = this.s.slice(this.i, nl);
        work.units += nl - this.i + 1;
        this.i = nl + 1;
        if (h.strip) line = line.replace(/^\t+/, '');
        if (line === h.delim) {
          closed = true;
          break;
        }
        if (this.subBody && nl === this.s.length && h.delim !== '' && line.startsWith(h.delim)) {
          closed = true;
          this.i = start + (nl - start - line.length) + h.delim.length;
          break;
        }
        lines.push(line);
      }
      if (!closed && lines.length === 0) this.errors.push(`heredoc ${h.delim} has no body`);
      h.tok.heredoc = { body: lines.join('\n') + (lines.length ? '\n' : ''), quoted: h.quoted };
    }
    this.pendingHeredocs = [];
  }

  tokens(): Token[] {
    const s = this.s;
    const out: Token[] = [];
    while (this.i < s.length) {
      work.units++;
      const c = s[this.i];
      if (c === ' ' || c === '\t' || c === '\r') {
        this.i++;
        continue;
      }
      if (c === '\\' && s[this.i + 1] === '\n') {
        this.i += 2;
        continue;
      }
      if (c === '\n') {
        this.i++;
        out.push({ kind: 'op', value: '\n' });
        if (this.pendingHeredocs.length) this.readHeredocBodies();
        continue;
      }
      if (c === '#') {
        // Here '#' starts a token, so it is a comment (inside a word it is literal).
        const nl = s.indexOf('\n', this.i);
        work.units += (nl < 0 ? s.length : nl) - this.i;
        this.i = nl < 0 ? s.length : nl;
        continue;
      }
      // Every operator starts with one of these: a word start needs no look-ahead slices.
      const op = c === '<' || c === '>' || c === '&' || c === '|' || c === ';' || c === '(' || c === ')';
      const three = op ? s.slice(this.i, this.i + 3) : '';
      const two = op ? s.slice(this.i, this.i + 2) : '';
      if (two === '<(' || two === '>(') {
        const start = this.i;
        this.readWord();
        out.push({ kind: 'word', value: s.slice(start, this.i), raw: s.slice(start, this.i) });
        continue;
      }
      if (three === '<<-' || (two === '<<' && three !== '<<<')) {
        const strip = three === '<<-';
        this.i += strip ? 3 : 2;
        while (s[this.i] === ' ' || s[this.i] === '\t') this.i++;
        const dstart = this.i;
        const delimWord = this.readWord();
        const quoted = /['"\\]/.test(s.slice(dstart, this.i));
        const tok: Token = { kind: 'redir', value: strip ? '<<-' : '<<', heredoc: { body: '', quoted } };
        this.pendingHeredocs.push({ delim: heredocDelimiter(s.slice(dstart, this.i), delimWord.text), quoted, strip, tok });
        out.push(tok);
        continue;
      }
      if (three === ';;&') {
        out.push({ kind: 'op', value: ';;' });
        this.i += 3;
        continue;
      }
      if (['&&', '||', ';;', '|&', ';&'].includes(two)) {
        out.push({ kind: 'op', value: two === '|&' ? '|' : two === ';&' ? ';;' : two });
        this.i += 2;
        continue;
      }
      if (['&>>', '<<<'].includes(three)) {
        out.push({ kind: 'redir', value: three });
        this.i += 3;
        continue;
      }
      if (['>>', '&>', '>&', '<&', '>|', '<>'].includes(two)) {
        out.push({ kind: 'redir', value: two });
        this.i += 2;
        continue;
      }
      if (c === '>' || c === '<') {
        out.push({ kind: 'redir', value: c });
        this.i++;
        continue;
      }
      if (c === '(' && s[this.i + 1] === '(') {
        // `((` opens an arithmetic command (bash reads `( (` as two subshells).
        out.push({ kind: 'op', value: '((' });
        this.i += 2;
        continue;
      }
      if (c === ';' || c === '&' || c === '|' || c === '(' || c === ')') {
        out.push({ kind: 'op', value: c });
        this.i++;
        continue;
      }
      const before = this.i;
      const w = this.readWord();
      const raw = s.slice(before, this.i);
      // `2>` : a number glued to a redirection is its fd; so is `{fd}>`.
      const next = s[this.i];
      if ((next === '>' || next === '<') && (/^\d+$/.test(raw) || /^\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(raw)) && s[this.i + 1] !== '(') {
        const t = this.tokens1Redir();
        if (/^\d+$/.test(raw)) t.fd = Number(raw);
        out.push(t);
        continue;
      }
      if (this.i === before) {
        this.i++;
        continue;
      }
      out.push({ kind: 'word', value: w.text, raw });
    }
    if (this.pendingHeredocs.length) this.readHeredocBodies();
    return out;
  }

  private tokens1Redir(): Token {
    const s = this.s;
    const three = s.slice(this.i, this.i + 3);
    const two = s.slice(this.i, this.i + 2);
    if (three === '<<<') {
      this.i += 3;
      return { kind: 'redir', value: '<<<' };
    }
    if (two === '<<') {
      // n<<EOF: a heredoc on fd n.
      const strip = three === '<<-';
      this.i += strip ? 3 : 2;
      while (s[this.i] === ' ' || s[this.i] === '\t') this.i++;
      const dstart = this.i;
      const delimWord = this.readWord();
      const quoted = /['"\\]/.test(s.slice(dstart, this.i));
      const tok: Token = { kind: 'redir', value: strip ? '<<-' : '<<', heredoc: { body: '', quoted } };
      this.pendingHeredocs.push({ delim: heredocDelimiter(s.slice(dstart, this.i), delimWord.text), quoted, strip, tok });
      return tok;
    }
    for (const op of [three, two, s[this.i]]) {
      if (['&>>', '>>', '>&', '<&', '>|', '<>', '>', '<'].includes(op)) {
        this.i += op.length;
        return { kind: 'redir', value: op };
      }
    }
    this.i++;
    return { kind: 'redir', value: '>' };
  }
}

/**
 * Bash brace expansion over a word's source, before any other expansion:
 * `{a,b}`, nested `{{rm,-rf},~}`, sequences `{1..3}` / `{a..c}`. Quoted
 * braces and `${...}` are not expanded. At most MAX_BRACE_WORDS words.
 */
export function braceExpandRaw(raw: string, budget = { n: MAX_BRACE_WORDS, tries: 64 }): string[] {
  if (!raw.includes('{') || budget.n <= 0 || raw.length > 8192) return [raw];
  let i = 0;
  while (i < raw.length) {
    work.units++;
    const c = raw[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === "'") {
      const j = raw.indexOf("'", i + 1);
      i = j < 0 ? raw.length : j + 1;
      continue;
    }
    if (c === '"') {
      i = skipDouble(raw, i + 1);
      continue;
    }
    if (c === '$' && (raw[i + 1] === '{' || raw[i + 1] === '(')) {
      i = raw[i + 1] === '{' ? skipBrace(raw, i + 2) : Math.max(i + 2, matchParen(raw, i + 2));
      continue;
    }
    if (c === '`') {
      i = skipBacktick(raw, i + 1);
      continue;
    }
    if (c === '{') {
      // Each failed `{` costs a scan: a word of many unmatched braces stops being expanded.
      if (--budget.tries < 0) return [raw];
      const group = braceGroup(raw, i);
      if (group) {
        const pre = raw.slice(0, i);
        const post = raw.slice(group.end);
        const out: string[] = [];
        for (const alt of group.alts) {
          for (const a of braceExpandRaw(alt, budget)) {
            for (const p of braceExpandRaw(post, budget)) {
              if (budget.n-- <= 0 || overBudget()) return out.length ? out : [raw];
              work.units += pre.length + a.length + p.length;
              out.push(pre + a + p);
            }
          }
        }
        return out;
      }
    }
    i++;
  }
  return [raw];
}

function braceGroup(raw: string, open: number): { alts: string[]; end: number } | undefined {
  let depth = 0;
  const commas: number[] = [];
  for (let k = open; k < raw.length; k++) {
    work.units++;
    const c = raw[k];
    if (c === '\\') {
      k++;
      continue;
    }
    if (c === "'") {
      const j = raw.indexOf("'", k + 1);
      if (j < 0) return undefined;
      k = j;
      continue;
    }
    if (c === '"') {
      k = skipDouble(raw, k + 1) - 1;
      continue;
    }
    if (c === '$' && raw[k + 1] === '{') {
      k = skipBrace(raw, k + 2) - 1;
      continue;
    }
    if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) {
        const body = raw.slice(open + 1, k);
        if (commas.length) {
          const alts: string[] = [];
          let from = open + 1;
          for (const q of [...commas, k]) {
            alts.push(raw.slice(from, q));
            from = q + 1;
          }
          return { alts, end: k + 1 };
        }
        const seq = /^(-?\d{1,6}|[A-Za-z])\.\.(-?\d{1,6}|[A-Za-z])(?:\.\.(-?\d{1,4}))?$/.exec(body);
        if (seq) {
          const num = /\d/.test(seq[1]);
          const a = num ? Number(seq[1]) : seq[1].charCodeAt(0);
          const b = num ? Number(seq[2]) : seq[2].charCodeAt(0);
          const step = Math.max(1, Math.abs(Number(seq[3] ?? 1)));
          const alts: string[] = [];
          for (let v = a; (a <= b ? v <= b : v >= b) && alts.length < MAX_BRACE_WORDS; v += a <= b ? step : -step) alts.push(num ? String(v) : String.fromCharCode(v));
          work.units += alts.length;
          return { alts, end: k + 1 };
        }
        return undefined;
      }
    } else if (c === ',' && depth === 1) commas.push(k);
    else if (c === ' ' || c === '\t' || c === '\n') return undefined;
  }
  return undefined;
}

/** Expands one word's source: brace expansion, then tilde, parameters, substitutions, quote removal, IFS splitting. */
const PLAIN_RAW = /^[A-Za-z0-9_./:=@%+,^-]+$/;
/** `*.ts`, `src/**`, `file?.txt`: plain characters and `*` / `?` only (no class, no tilde, no braces). */
const PLAIN_GLOB = /^[A-Za-z0-9_./:=@%+,^*?-]+$/;
const SINGLE_QUOTED = /^'[^']*'$/;
const DOUBLE_PLAIN = /^"[^"$`\\]*"$/;

/** A word that needs no expansion at all (most of them): its one word, without running the lexer; else undefined. */
export function plainWord(raw: string): Word | undefined {
  if (PLAIN_RAW.test(raw)) return { text: raw, dynamic: false, quoted: false, glob: false, raw };
  if (PLAIN_GLOB.test(raw)) return { text: raw, dynamic: false, quoted: false, glob: true, raw };
  if ((SINGLE_QUOTED.test(raw) || DOUBLE_PLAIN.test(raw)) && !raw.includes('\u0000')) return { text: raw.slice(1, -1), dynamic: false, quoted: true, glob: false, raw };
  return undefined;
}

export function expandWord(raw: string, ctx: LexContext, evalStatic: StaticEval, errors?: string[], braces = true): Word[] {
  work.units += raw.length;
  const plain = plainWord(raw);
  if (plain) return [plain];
  const out: Word[] = [];
  // An assignment's value is not brace-expanded (`a={x,y}` holds the braces).
  for (const r of braces ? braceExpandRaw(raw) : [raw]) {
    if (overBudget()) break;
    const lx = new Lexer(r, ctx, evalStatic);
    for (const w of lx.expandOne()) out.push(w);
    if (errors && lx.errors.length) errors.push(lx.errors[0]);
  }
  return out;
}
