// Bash's grammar over the tokenizer's output: lists, pipelines, simple
// commands and the compound commands (subshells, groups, if, loops, case,
// function definitions, coproc). Words stay as source text: the analyzer
// expands them when it reaches them, knowing what ran before (variables,
// cd, functions, loop variables), as bash does. Recursive descent with a
// depth limit; every loop consumes a token, so it is linear.
import type { Token } from './lexer';
import { work } from './work';

export interface RedirNode {
  op: string;
  fd?: number;
  /** Target word source (absent for heredocs). */
  raw?: string;
  heredoc?: { body: string; quoted: boolean };
}

export type Node =
  | { t: 'cmd'; words: string[]; assigns: string[]; redirs: RedirNode[] }
  | { t: 'test'; words: string[] }
  | { t: 'arith'; src: string }
  | { t: 'pipe'; cmds: Node[] }
  /** `op` is set on the items of an and-or list after the first: the connector before it. */
  | { t: 'list'; items: { node: Node; bg: boolean; op?: '&&' | '||' }[] }
  | { t: 'sub'; body: Node; redirs: RedirNode[] }
  | { t: 'group'; body: Node; redirs: RedirNode[] }
  | { t: 'block'; kind: string; parts: Node[]; redirs: RedirNode[]; infinite?: boolean }
  | { t: 'for'; name: string; words: string[] | null; body: Node; redirs: RedirNode[] }
  | { t: 'func'; name: string; body: Node }
  | { t: 'coproc'; body: Node; name: string };

const MAX_NEST = 64;
const ASSIGN = /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/;

export class Parser {
  private k = 0;
  private nest = 0;
  readonly errors: string[] = [];

  constructor(private readonly toks: Token[]) {}

  parse(): Node {
    const items: { node: Node; bg: boolean }[] = [{ node: this.list(new Set()), bg: false }];
    while (this.k < this.toks.length) {
      const t = this.toks[this.k];
      if (this.errors.length < 8) this.errors.push(`unexpected ${t.kind === 'word' ? `\`${t.raw}\`` : `\`${t.value}\``}`);
      // Keep going past the stray token: what follows is still analyzed.
      this.k++;
      items.push({ node: this.list(new Set()), bg: false });
    }
    return items.length === 1 ? items[0].node : { t: 'list', items };
  }

  private peek(): Token | undefined {
    return this.toks[this.k];
  }

  private isWord(t: Token | undefined, ...values: string[]): boolean {
    return !!t && t.kind === 'word' && values.includes(t.raw ?? '');
  }

  private isOp(t: Token | undefined, ...values: string[]): boolean {
    return !!t && t.kind === 'op' && values.includes(t.value);
  }

  private skipNewlines(): void {
    while (this.isOp(this.peek(), '\n')) this.k++;
  }

  private expectWord(value: string): void {
    this.skipNewlines();
    if (this.isWord(this.peek(), value)) this.k++;
    else this.errors.push(`expected \`${value}\``);
  }

  /** A list, up to a reserved word of `stops` at command position (or `)`, `;;`, end). */
  private list(stops: Set<string>): Node {
    const items: { node: Node; bg: boolean }[] = [];
    if (++this.nest > MAX_NEST) {
      this.errors.push('nested too deeply');
      this.k = this.toks.length;
      this.nest--;
      return { t: 'list', items };
    }
    for (;;) {
      work.units++;
      this.skipNewlines();
      const t = this.peek();
      if (!t || this.isOp(t, ')', ';;') || (t.kind === 'word' && stops.has(t.raw ?? ''))) break;
      if (this.isOp(t, ';', '&', '&&', '||', '|')) {
        this.errors.push(`unexpected \`${t.value}\``);
        this.k++;
        continue;
      }
      const node = this.andOr(stops);
      const sep = this.peek();
      let bg = false;
      if (this.isOp(sep, '&')) {
        bg = true;
        this.k++;
      } else if (this.isOp(sep, ';', '\n')) this.k++;
      items.push({ node, bg });
    }
    this.nest--;
    return items.length === 1 && !items[0].bg ? items[0].node : { t: 'list', items };
  }

  private andOr(stops: Set<string>): Node {
    const items: { node: Node; bg: boolean; op?: '&&' | '||' }[] = [{ node: this.pipeline(stops), bg: false }];
    while (this.isOp(this.peek(), '&&', '||')) {
      const op = this.peek()!.value as '&&' | '||';
      this.k++;
      this.skipNewlines();
      items.push({ node: this.pipeline(stops), bg: false, op });
    }
    return items.length === 1 ? items[0].node : { t: 'list', items };
  }

  private pipeline(stops: Set<string>): Node {
    while (this.isWord(this.peek(), '!', 'time') || (this.isWord(this.toks[this.k - 1], 'time') && this.isWord(this.peek(), '-p'))) this.k++;
    const cmds = [this.command(stops)];
    while (this.isOp(this.peek(), '|')) {
      this.k++;
      this.skipNewlines();
      cmds.push(this.command(stops));
    }
    return cmds.length === 1 ? cmds[0] : { t: 'pipe', cmds };
  }

  private redirects(out: RedirNode[]): void {
    for (;;) {
      const t = this.peek();
      if (!t || t.kind !== 'redir') return;
      this.k++;
      if (t.heredoc) {
        out.push({ op: t.value, fd: t.fd, heredoc: t.heredoc });
        continue;
      }
      const target = this.peek();
      if (target && target.kind === 'word') {
        out.push({ op: t.value, fd: t.fd, raw: target.raw });
        this.k++;
      } else this.errors.push(`redirection \`${t.value}\` without a target`);
    }
  }

  private command(stops: Set<string>): Node {
    const t = this.peek();
    if (!t) return { t: 'cmd', words: [], assigns: [], redirs: [] };
    if (this.isOp(t, '((')) {
      this.k++;
      return this.arithCommand();
    }
    if (this.isOp(t, '(')) {
      this.k++;
      const body = this.list(new Set());
      if (this.isOp(this.peek(), ')')) this.k++;
      else this.errors.push('unclosed (');
      const redirs: RedirNode[] = [];
      this.redirects(redirs);
      return { t: 'sub', body, redirs };
    }
    if (t.kind === 'word') {
      const w = t.raw ?? '';
      switch (w) {
        case '{': {
          this.k++;
          const body = this.list(new Set(['}']));
          this.expectWord('}');
          const redirs: RedirNode[] = [];
          this.redirects(redirs);
          return { t: 'group', body, redirs };
        }
        case 'if':
          return this.ifCommand();
        case 'while':
        case 'until':
          return this.loop(w);
        case 'for':
        case 'select':
          return this.forCommand();
        case 'case':
          return this.caseCommand();
        case 'function':
          return this.funcDef(true);
        case 'coproc':
          return this.coproc(stops);
        case '[[':
          return this.testCommand();
      }
      // name() compound
      if (this.isOp(this.toks[this.k + 1], '(') && this.isOp(this.toks[this.k + 2], ')') && !ASSIGN.test(w)) return this.funcDef(false);
    }
    return this.simple();
  }

  private arithCommand(): Node {
    // (( expr )): tokens up to the matching `))` (the `((` is consumed); only its substitutions run.
    let depth = 0;
    let src = '';
    while (this.k < this.toks.length) {
      work.units++;
      const t = this.toks[this.k++];
      if (this.isOp(t, '(')) depth++;
      else if (this.isOp(t, '((')) depth += 2;
      else if (this.isOp(t, ')')) {
        if (depth === 0 && this.isOp(this.peek(), ')')) {
          this.k++;
          break;
        }
        depth--;
      }
      src += ` ${t.raw ?? t.value}`;
    }
    const redirs: RedirNode[] = [];
    this.redirects(redirs);
    return { t: 'arith', src };
  }

  private testCommand(): Node {
    const words: string[] = [];
    while (this.k < this.toks.length) {
      work.units++;
      const t = this.toks[this.k++];
      const v = t.raw ?? t.value;
      words.push(v);
      if (t.kind === 'word' && v === ']]') break;
    }
    return { t: 'test', words };
  }

  private simple(): Node {
    const words: string[] = [];
    const assigns: string[] = [];
    const redirs: RedirNode[] = [];
    for (;;) {
      work.units++;
      const t = this.peek();
      if (!t) break;
      if (t.kind === 'redir') {
        this.redirects(redirs);
        continue;
      }
      if (this.isOp(t, '(') && words.length > 0) {
        // `declare -a x=(a b)`: a declaration builtin's array assignment spans the parenthesis.
        const last = words[words.length - 1];
        if (ASSIGN.test(last) && last.endsWith('=')) {
          let body = '';
          this.k++;
          while (this.k < this.toks.length && !this.isOp(this.peek(), ')')) {
            work.units++;
            body += ` ${this.toks[this.k++].raw ?? ''}`;
          }
          this.k++;
          words[words.length - 1] = `${last}(${body.trim()})`;
          continue;
        }
        // `echo \$(cmd)`, `echo x (cmd)`: a `(` after a command's words is bash's syntax error, and the
        // line runs nothing; what is inside the parentheses is not a subshell.
        this.errors.push('syntax error near `(`');
        let depth = 0;
        while (this.k < this.toks.length) {
          work.units++;
          const u = this.toks[this.k++];
          if (this.isOp(u, '(')) depth++;
          else if (this.isOp(u, '((')) depth += 2;
          else if (this.isOp(u, ')') && --depth <= 0) break;
        }
        continue;
      }
      if (t.kind !== 'word') break;
      const raw = t.raw ?? '';
      this.k++;
      if (words.length === 0 && ASSIGN.test(raw)) {
        // NAME=(a b c): an array assignment spans the parenthesis.
        if (raw.endsWith('=') && this.isOp(this.peek(), '(')) {
          let body = '';
          this.k++;
          while (this.k < this.toks.length && !this.isOp(this.peek(), ')')) {
            work.units++;
            body += ` ${this.toks[this.k++].raw ?? ''}`;
          }
          this.k++;
          assigns.push(`${raw}(${body.trim()})`);
          continue;
        }
        assigns.push(raw);
        continue;
      }
      words.push(raw);
    }
    return { t: 'cmd', words, assigns, redirs };
  }

  private ifCommand(): Node {
    this.k++;
    const parts: Node[] = [this.list(new Set(['then']))];
    this.expectWord('then');
    parts.push(this.list(new Set(['elif', 'else', 'fi'])));
    for (;;) {
      const t = this.peek();
      if (this.isWord(t, 'elif')) {
        this.k++;
        parts.push(this.list(new Set(['then'])));
        this.expectWord('then');
        parts.push(this.list(new Set(['elif', 'else', 'fi'])));
        continue;
      }
      if (this.isWord(t, 'else')) {
        this.k++;
        parts.push(this.list(new Set(['fi'])));
      }
      break;
    }
    this.expectWord('fi');
    const redirs: RedirNode[] = [];
    this.redirects(redirs);
    return { t: 'block', kind: 'if', parts, redirs };
  }

  private doGroup(): Node {
    this.skipNewlines();
    if (this.isWord(this.peek(), '{')) {
      // for x in a; { ...; } is accepted by bash too.
      this.k++;
      const body = this.list(new Set(['}']));
      this.expectWord('}');
      return body;
    }
    this.expectWord('do');
    const body = this.list(new Set(['done']));
    this.expectWord('done');
    return body;
  }

  private loop(kind: string): Node {
    this.k++;
    const condStart = this.k;
    const cond = this.list(new Set(['do']));
    // Only a short condition can be `true`, `:` or `[ 1 ]` (and a long one must not be copied).
    const condToks = this.k - condStart <= 6 ? this.toks.slice(condStart, this.k).filter((t) => t.kind === 'word').map((t) => t.raw) : [];
    const infinite =
      (kind === 'while' && condToks.length === 1 && (condToks[0] === 'true' || condToks[0] === ':')) ||
      (kind === 'until' && condToks.length === 1 && condToks[0] === 'false') ||
      (kind === 'while' && condToks.length === 3 && condToks[0] === '[' && condToks[2] === ']' && /^\d+$/.test(condToks[1] ?? ''));
    const body = this.doGroup();
    const redirs: RedirNode[] = [];
    this.redirects(redirs);
    return { t: 'block', kind, parts: [cond, body], redirs, infinite };
  }

  private forCommand(): Node {
    this.k++;
    if (this.isOp(this.peek(), '((')) {
      // for (( init; cond; step )): infinite when the condition is empty.
      this.k++;
      const arith = this.arithCommand() as { t: 'arith'; src: string };
      const infinite = /^\s*[^;]*;\s*;/.test(arith.src);
      this.skipNewlines();
      if (this.isOp(this.peek(), ';')) this.k++;
      const body = this.doGroup();
      const redirs: RedirNode[] = [];
      this.redirects(redirs);
      return { t: 'block', kind: 'for((', parts: [arith, body], redirs, infinite };
    }
    const name = this.peek()?.raw ?? '';
    this.k++;
    let words: string[] | null = null;
    this.skipNewlines();
    if (this.isWord(this.peek(), 'in')) {
      this.k++;
      words = [];
      while (this.peek()?.kind === 'word') words.push(this.toks[this.k++].raw ?? '');
    }
    if (this.isOp(this.peek(), ';', '\n')) this.k++;
    const body = this.doGroup();
    const redirs: RedirNode[] = [];
    this.redirects(redirs);
    return { t: 'for', name, words, body, redirs };
  }

  private caseCommand(): Node {
    this.k++;
    const subject = this.peek()?.raw ?? '';
    this.k++;
    this.expectWord('in');
    const parts: Node[] = [{ t: 'cmd', words: [], assigns: [], redirs: [{ op: '<<<', raw: subject }] }];
    for (;;) {
      this.skipNewlines();
      const t = this.peek();
      if (!t || this.isWord(t, 'esac')) break;
      // pattern list: [(] word [| word]... )
      if (this.isOp(t, '(')) this.k++;
      const pats: string[] = [];
      while (this.k < this.toks.length && !this.isOp(this.peek(), ')')) {
        work.units++;
        const p = this.toks[this.k++];
        if (p.kind === 'word') pats.push(p.raw ?? '');
      }
      this.k++;
      parts.push({ t: 'cmd', words: [], assigns: [], redirs: pats.map((raw) => ({ op: '<<<', raw })) });
      parts.push(this.list(new Set(['esac'])));
      if (this.isOp(this.peek(), ';;')) this.k++;
    }
    this.expectWord('esac');
    const redirs: RedirNode[] = [];
    this.redirects(redirs);
    return { t: 'block', kind: 'case', parts, redirs };
  }

  private funcDef(keyword: boolean): Node {
    if (keyword) this.k++;
    const name = this.peek()?.raw ?? '';
    this.k++;
    if (this.isOp(this.peek(), '(') && this.isOp(this.toks[this.k + 1], ')')) this.k += 2;
    this.skipNewlines();
    const body = this.command(new Set());
    return { t: 'func', name, body };
  }

  private coproc(stops: Set<string>): Node {
    this.k++;
    // coproc NAME { ...; } / coproc NAME ( ... ): a name only before a compound command.
    const t = this.peek();
    const n = this.toks[this.k + 1];
    let name = 'COPROC';
    if (t?.kind === 'word' && (this.isWord(n, '{') || this.isOp(n, '('))) {
      name = t.raw ?? 'COPROC';
      this.k++;
    }
    return { t: 'coproc', body: this.command(stops), name };
  }
}

export function parse(toks: Token[]): { node: Node; errors: string[] } {
  const p = new Parser(toks);
  const node = p.parse();
  return { node, errors: p.errors };
}
