// A POSIX/bash tokenizer for guarding commands: it splits a command line
// into simple commands (on ; && || | & newlines and subshells), removes
// quoting the way the shell does (r''m, \rm, "rm", $'\x72m'), expands what
// is static (~, $HOME, brace lists, $(echo x)), and hands back every
// command substitution, process substitution and heredoc-fed script as
// nested source for the analyzer. It never executes anything. Linear in the
// input: one pass, no regex backtracking.

export interface Word {
  /** The word after quote removal and static expansion. */
  text: string;
  /** Part of it depends on run-time values ($VAR, $(cmd), globs are not dynamic). */
  dynamic: boolean;
  /** Any part was quoted (so it is not a glob, not an assignment keyword). */
  quoted: boolean;
  /** Unquoted glob characters present. */
  glob: boolean;
}

export interface Redirect {
  op: string;
  target: Word;
  /** fd number written before the operator, if any. */
  fd?: number;
}

export interface SimpleCommand {
  words: Word[];
  assignments: { name: string; value: Word }[];
  redirects: Redirect[];
  /** Index of this command's pipeline within the line and its position in it. */
  pipeline: number;
  stage: number;
  /** A heredoc fed to this command's stdin (its text is filled in once the body lines are read). */
  heredoc?: Word;
  background: boolean;
}

export interface LexResult {
  commands: SimpleCommand[];
  /** Source of $(...), `...`, <(...), >(...) found anywhere: they run too. */
  nested: string[];
  errors: string[];
}

export interface LexContext {
  home: string;
  cwd: string;
  tmp: string;
  /** Variables known statically (assignments earlier on the line). */
  vars: Map<string, string>;
}

const META = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);

function decodeAnsiC(body: string): string {
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

/** Index just past the `)` that closes a `$(` / `<(` opened before `start`. */
function matchParen(s: string, start: number): number {
  let depth = 1;
  let i = start;
  while (i < s.length) {
    const c = s[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === "'") {
      const j = s.indexOf("'", i + 1);
      i = j < 0 ? s.length : j + 1;
      continue;
    }
    if (c === '"') {
      i = skipDouble(s, i + 1);
      continue;
    }
    if (c === '`') {
      const j = s.indexOf('`', i + 1);
      i = j < 0 ? s.length : j + 1;
      continue;
    }
    if (c === '<' && s[i + 1] === '<' && s[i + 2] !== '<') {
      // A heredoc inside $( ... ): its body may hold any parenthesis.
      const m = /^<<-?[ \t]*(['"]?)([A-Za-z_0-9.-]+)\1/.exec(s.slice(i, i + 140));
      const nl = s.indexOf('\n', i);
      if (m && nl >= 0) {
        let k = nl + 1;
        for (;;) {
          const e = s.indexOf('\n', k);
          const line = s.slice(k, e < 0 ? s.length : e).replace(/^\t+/, '');
          if (line === m[2] || e < 0) {
            i = e < 0 ? s.length : e;
            break;
          }
          k = e + 1;
        }
        continue;
      }
    }
    if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return -1;
}

/** Index just past the closing `"` of a double-quoted string starting at `start` (after the opening quote). */
function skipDouble(s: string, start: number): number {
  let i = start;
  while (i < s.length) {
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
    if (c === '`') {
      const j = s.indexOf('`', i + 1);
      i = j < 0 ? s.length : j + 1;
      continue;
    }
    i++;
  }
  return s.length;
}

const STATIC_SUBST = /^\s*(?:echo|printf)\s/;

interface Token {
  kind: 'word' | 'op' | 'redir';
  value: string;
  word?: Word;
  fd?: number;
}

export class Lexer {
  private i = 0;
  readonly nested: string[] = [];
  readonly errors: string[] = [];
  private pendingHeredocs: { delim: string; quoted: boolean; strip: boolean; onBody: (b: string) => void }[] = [];

  constructor(
    private readonly s: string,
    private readonly ctx: LexContext,
    /** Evaluates a static $(echo ...) substitution; undefined when it cannot. */
    private readonly evalStatic: (src: string) => string | undefined,
  ) {}

  private expandVar(name: string): string | undefined {
    if (this.ctx.vars.has(name)) return this.ctx.vars.get(name);
    if (name === 'HOME') return this.ctx.home;
    if (name === 'PWD') return this.ctx.cwd;
    if (name === 'TMPDIR') return this.ctx.tmp;
    if (name === 'USER' || name === 'LOGNAME') return undefined;
    return undefined;
  }

  /** Reads `$...` at this.i (pointing at '$'); appends to w. */
  private dollar(w: { text: string; dynamic: boolean }, inDouble: boolean): void {
    const s = this.s;
    const n = s[this.i + 1];
    if (n === '(' && s[this.i + 2] === '(') {
      const j = matchParen(s, this.i + 2);
      this.i = j < 0 ? s.length : j + 1;
      w.text += '0';
      w.dynamic = true;
      return;
    }
    if (n === '(') {
      const j = matchParen(s, this.i + 2);
      if (j < 0) {
        this.errors.push('unterminated $(');
        this.i = s.length;
        w.dynamic = true;
        return;
      }
      const inner = s.slice(this.i + 2, j - 1);
      this.nested.push(inner);
      const v = STATIC_SUBST.test(inner) ? this.evalStatic(inner) : undefined;
      if (v !== undefined) w.text += v;
      else {
        w.text += '\u0000';
        w.dynamic = true;
      }
      this.i = j;
      return;
    }
    if (n === '{') {
      const j = s.indexOf('}', this.i + 2);
      if (j < 0) {
        this.errors.push('unterminated ${');
        this.i = s.length;
        w.dynamic = true;
        return;
      }
      const body = s.slice(this.i + 2, j);
      const m = /^([A-Za-z_][A-Za-z0-9_]*)(.*)$/s.exec(body);
      const v = m && m[2] === '' ? this.expandVar(m[1]) : undefined;
      if (v !== undefined) w.text += v;
      else {
        // ${X:-default} and friends: the default may run $(...)
        if (m && m[2].includes('$(')) this.nested.push(m[2].slice(m[2].indexOf('$(') + 2).replace(/\)[^)]*$/, ''));
        w.text += '\u0000';
        w.dynamic = true;
      }
      this.i = j + 1;
      return;
    }
    if (n === "'" && !inDouble) {
      const j = this.findAnsiEnd(this.i + 2);
      w.text += decodeAnsiC(s.slice(this.i + 2, j));
      this.i = j + 1;
      return;
    }
    const m = /^[A-Za-z_][A-Za-z0-9_]*|^[0-9@*#?$!-]/.exec(s.slice(this.i + 1, this.i + 257));
    if (!m) {
      w.text += '$';
      this.i++;
      return;
    }
    const v = this.expandVar(m[0]);
    if (v !== undefined) w.text += v;
    else {
      w.text += '\u0000';
      w.dynamic = true;
    }
    this.i += 1 + m[0].length;
  }

  private findAnsiEnd(from: number): number {
    let k = from;
    while (k < this.s.length && this.s[k] !== "'") k += this.s[k] === '\\' ? 2 : 1;
    return Math.min(k, this.s.length);
  }

  private backtick(w: { text: string; dynamic: boolean }): void {
    const j = this.s.indexOf('`', this.i + 1);
    const end = j < 0 ? this.s.length : j;
    const inner = this.s.slice(this.i + 1, end).replace(/\\([`\\$])/g, '$1');
    this.nested.push(inner);
    const v = STATIC_SUBST.test(inner) ? this.evalStatic(inner) : undefined;
    if (v !== undefined) w.text += v;
    else {
      w.text += '\u0000';
      w.dynamic = true;
    }
    this.i = end + 1;
  }

  private readWord(): Word {
    const s = this.s;
    const w = { text: '', dynamic: false, quoted: false, glob: false };
    const start = this.i;
    while (this.i < s.length) {
      const c = s[this.i];
      if (META.has(c)) break;
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
          const d = s[this.i];
          if (d === '\\' && '$`"\\\n'.includes(s[this.i + 1] ?? '')) {
            if (s[this.i + 1] !== '\n') w.text += s[this.i + 1];
            this.i += 2;
          } else if (d === '$') this.dollar(w, true);
          else if (d === '`') this.backtick(w);
          else {
            w.text += d;
            this.i++;
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
        this.backtick(w);
        continue;
      }
      if (c === '*' || c === '?' || c === '[') w.glob = true;
      if (c === '~' && this.i === start) {
        const rest = s.slice(this.i + 1, this.i + 2);
        if (rest === '' || rest === '/' || META.has(rest)) {
          w.text += this.ctx.home;
          this.i++;
          continue;
        }
        w.dynamic = true; // ~user
      }
      w.text += c;
      this.i++;
    }
    return w;
  }

  private readHeredocBodies(): void {
    // Bodies start on the line after the operator: here, at a newline.
    for (const h of this.pendingHeredocs) {
      const lines: string[] = [];
      while (this.i < this.s.length) {
        let nl = this.s.indexOf('\n', this.i);
        if (nl < 0) nl = this.s.length;
        let line = this.s.slice(this.i, nl);
        this.i = nl + 1;
        if (h.strip) line = line.replace(/^\t+/, '');
        if (line === h.delim) break;
        lines.push(line);
      }
      const body = lines.join('\n');
      if (!h.quoted) {
        // $(...) and `...` inside an unquoted heredoc run when it is read.
        for (let k = 0; k < body.length; k++) {
          if (body[k] === '$' && body[k + 1] === '(') {
            const j = matchParen(body, k + 2);
            if (j > 0) {
              this.nested.push(body.slice(k + 2, j - 1));
              k = j - 1;
            }
          } else if (body[k] === '`') {
            const j = body.indexOf('`', k + 1);
            if (j > 0) {
              this.nested.push(body.slice(k + 1, j));
              k = j;
            }
          }
        }
      }
      h.onBody(body);
    }
    this.pendingHeredocs = [];
  }

  tokens(): Token[] {
    const s = this.s;
    const out: Token[] = [];
    while (this.i < s.length) {
      const c = s[this.i];
      if (c === ' ' || c === '\t' || c === '\r') {
        this.i++;
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
        this.i = nl < 0 ? s.length : nl;
        continue;
      }
      const three = s.slice(this.i, this.i + 3);
      const two = s.slice(this.i, this.i + 2);
      if (two === '<(' || two === '>(') {
        const j = matchParen(s, this.i + 2);
        const inner = s.slice(this.i + 2, j < 0 ? s.length : j - 1);
        this.nested.push(inner);
        out.push({ kind: 'word', value: two, word: { text: `\u0000procsub:${two}`, dynamic: true, quoted: false, glob: false } });
        this.i = j < 0 ? s.length : j;
        continue;
      }
      if (three === '<<-' || (two === '<<' && three !== '<<<')) {
        const strip = three === '<<-';
        this.i += strip ? 3 : 2;
        while (s[this.i] === ' ' || s[this.i] === '\t') this.i++;
        const delimWord = this.readWord();
        const tok: Token = { kind: 'redir', value: strip ? '<<-' : '<<', word: { text: '', dynamic: false, quoted: delimWord.quoted, glob: false } };
        this.pendingHeredocs.push({ delim: delimWord.text, quoted: delimWord.quoted, strip, onBody: (b) => (tok.word!.text = b) });
        out.push(tok);
        continue;
      }
      if (['&&', '||', ';;', '|&'].includes(two)) {
        out.push({ kind: 'op', value: two === '|&' ? '|' : two });
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
      if (c === ';' || c === '&' || c === '|' || c === '(' || c === ')') {
        out.push({ kind: 'op', value: c });
        this.i++;
        continue;
      }
      const before = this.i;
      const w = this.readWord();
      // `2>` : a number glued to a redirection is its fd.
      const next = s[this.i];
      if ((next === '>' || next === '<') && /^\d+$/.test(w.text) && !w.quoted) {
        const t = this.tokens1Redir();
        t.fd = Number(w.text);
        out.push(t);
        continue;
      }
      if (this.i === before) {
        this.i++;
        continue;
      }
      out.push({ kind: 'word', value: w.text, word: w });
    }
    return out;
  }

  private tokens1Redir(): Token {
    const s = this.s;
    const three = s.slice(this.i, this.i + 3);
    const two = s.slice(this.i, this.i + 2);
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

/** Bash brace expansion of one unquoted word with a single top-level {a,b,...} list. */
export function braceExpand(w: Word): Word[] {
  if (w.quoted || w.dynamic) return [w];
  const open = w.text.indexOf('{');
  if (open < 0) return [w];
  let depth = 0;
  const commas: number[] = [];
  let close = -1;
  for (let k = open; k < w.text.length; k++) {
    const c = w.text[k];
    if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) {
        close = k;
        break;
      }
    } else if (c === ',' && depth === 1) commas.push(k);
  }
  if (close < 0 || commas.length === 0) return [w];
  const pre = w.text.slice(0, open);
  const post = w.text.slice(close + 1);
  const parts: string[] = [];
  let from = open + 1;
  for (const k of [...commas, close]) {
    parts.push(w.text.slice(from, k));
    from = k + 1;
  }
  return parts.slice(0, 64).map((p) => ({ ...w, text: pre + p + post }));
}

/** Splits tokens into simple commands. */
export function toCommands(tokens: Token[]): SimpleCommand[] {
  const out: SimpleCommand[] = [];
  let pipeline = 0;
  let stage = 0;
  let cur: SimpleCommand = { words: [], assignments: [], redirects: [], pipeline, stage, background: false };
  const flush = () => {
    if (cur.words.length || cur.assignments.length || cur.redirects.length) out.push(cur);
    cur = { words: [], assignments: [], redirects: [], pipeline, stage, background: false };
  };
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.kind === 'op') {
      if (t.value === '|') {
        flush();
        stage++;
        cur.stage = stage;
        continue;
      }
      if (t.value === '&') cur.background = true;
      flush();
      pipeline++;
      stage = 0;
      cur.pipeline = pipeline;
      cur.stage = 0;
      continue;
    }
    if (t.kind === 'redir') {
      if (t.value === '<<' || t.value === '<<-') {
        cur.heredoc = t.word!;
        continue;
      }
      const target = tokens[k + 1];
      if (target && target.kind === 'word') {
        cur.redirects.push({ op: t.value, target: target.word!, fd: t.fd });
        k++;
      } else if (t.value === '>&' || t.value === '<&') {
        // 2>&1 style without a word target is fine
      } else cur.redirects.push({ op: t.value, target: { text: '', dynamic: true, quoted: false, glob: false }, fd: t.fd });
      continue;
    }
    const w = t.word!;
    if (cur.words.length === 0 && !w.quoted) {
      const eq = w.text.indexOf('=');
      if (eq > 0 && /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?$/.test(w.text.slice(0, eq))) {
        cur.assignments.push({ name: w.text.slice(0, eq).replace(/\+$/, ''), value: { ...w, text: w.text.slice(eq + 1) } });
        continue;
      }
    }
    // Words that open or close compound commands separate commands, they do not run.
    if (cur.words.length === 0 && !w.quoted && ['{', '}', '!', 'then', 'do', 'else', 'elif', 'fi', 'done', 'esac', 'if', 'while', 'until', 'time'].includes(w.text)) continue;
    for (const e of braceExpand(w)) cur.words.push(e);
  }
  flush();
  return out;
}
