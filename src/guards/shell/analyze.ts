// How the shell guard sees a command: lex it, unwrap what runs other
// commands (bash -c, eval, sudo, env, xargs, find -exec, $(...), ...), and
// run every rule over every simple command found. Each hit names its rule,
// the action the policy gives it, and the part of the command that hit.
import { posix } from 'node:path';
import type { Decision } from '../../contract/types';
import { actionFor, type Policy } from '../../policy/policy';
import { Lexer, toCommands, type LexContext, type SimpleCommand, type Word } from './lexer';
import { judgeFindDeletes } from './families/delete';
import { readsPath, writesPath } from './path-rules';
import { checkWindowsLine, RULES, WINDOWS_HINT, type RuleContext } from './rules';
import { BLOCK_DEVICE } from './tables/devices';
import { isDownloader } from './tables/programs';

export const MAX_DEPTH = 8;
export const MAX_COMMAND_LENGTH = 256 * 1024;

export interface Hit {
  rule: string;
  action: Decision;
  segment: string;
  detail: string;
}

export interface FoundCommand {
  argv: string[];
  depth: number;
  via: string;
}

export interface Analysis {
  decision: Decision;
  hits: Hit[];
  commands: FoundCommand[];
  reason: string;
}

export interface AnalyzeOptions {
  projectDir: string;
  cwd: string;
  home: string;
  tmp: string;
  policy: Policy;
  /** Pack root and loom state dirs, protected from modification. */
  protectedPaths: string[];
  /** Current branch of the project, when known (for pushes without a refspec). */
  currentBranch?: string;
}

const RANK: Record<Decision, number> = { allow: 0, ask: 1, deny: 2 };
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'fish', 'busybox']);

const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./~$…()<>-]+$/;

export function quoteArgv(argv: string[]): string {
  let out = '';
  for (const raw of argv) {
    // \u0000 marks what the lexer could not know statically (substitutions); most words have none.
    const a = raw.includes('\u0000') ? raw.replace(/\u0000procsub:(.)\(/g, '$1(…)').replace(/\u0000/g, '$…') : raw;
    out += (out ? ' ' : '') + (PLAIN_WORD.test(a) ? a : JSON.stringify(a));
  }
  return out;
}

export class Analyzer {
  readonly hits: Hit[] = [];
  readonly commands: FoundCommand[] = [];
  private seenHit = new Set<string>();
  private nestedStack: string[][] = [];

  constructor(readonly opts: AnalyzeOptions) {}

  hit(rule: string, fallback: Decision, segment: string, detail: string): void {
    const action = actionFor(this.opts.policy, rule, fallback);
    const key = `${rule}\u0001${segment}`;
    if (this.seenHit.has(key)) return;
    this.seenHit.add(key);
    this.hits.push({ rule, action, segment: segment.length > 200 ? segment.slice(0, 199) + '…' : segment, detail });
  }

  /** Analyzes a command line (or script) found at `depth`, running in `cwd`. */
  analyzeSource(src: string, depth: number, via: string, cwd: string, vars = new Map<string, string>()): void {
    if (depth > MAX_DEPTH) {
      this.hit('unparseable', 'ask', src.slice(0, 80), `nested more than ${MAX_DEPTH} levels deep`);
      return;
    }
    if (/[\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/.test(src)) this.hit('invisible-characters', 'ask', src.slice(0, 80), 'the command contains invisible or bidirectional control characters');
    if (src.includes('(){') || src.includes('() {')) this.checkForkBomb(src);
    if (WINDOWS_HINT.test(src)) checkWindowsLine(this, src);
    const ctx: LexContext = { home: this.opts.home, cwd, tmp: this.opts.tmp, vars };
    let lexer = new Lexer(src, ctx, (inner) => this.staticEcho(inner, cwd));
    let tokens = lexer.tokens();
    // Static assignments on the line (X=rm; $X -rf /): lex again knowing them.
    if (src.includes('$')) {
      const before = vars.size;
      for (const c of toCommands(tokens)) if (c.words.length === 0) for (const a of c.assignments) if (!a.value.dynamic) vars.set(a.name, a.value.text);
      if (vars.size > before) {
        lexer = new Lexer(src, ctx, (inner) => this.staticEcho(inner, cwd));
        tokens = lexer.tokens();
      }
    }
    if (lexer.errors.length) this.hit('unparseable', 'ask', src.slice(0, 80), `cannot parse: ${lexer.errors[0]}`);
    const cmds = toCommands(tokens);
    this.nestedStack.push(lexer.nested);
    let curCwd = cwd;
    for (let idx = 0; idx < cmds.length; idx++) {
      const c = cmds[idx];
      // A line of only assignments sets variables for what follows (X=rm; $X -rf /).
      if (c.words.length === 0) {
        for (const a of c.assignments) if (!a.value.dynamic) vars.set(a.name, a.value.text);
      }
      const pipe = cmds.filter((o) => o.pipeline === c.pipeline);
      this.analyzeCommand(c, depth, via, curCwd, pipe, vars);
      // cd DIR changes where the following commands run.
      const argv = c.words.map((w) => w.text);
      if (argv[0] === 'cd' || argv[0] === 'pushd') {
        const target = c.words[1];
        if (!target) curCwd = this.opts.home;
        else if (!target.dynamic && target.text !== '-') curCwd = posix.resolve(curCwd, target.text);
      }
    }
    this.nestedStack.pop();
    for (const n of lexer.nested) this.analyzeSource(n, depth + 1, `${via} > $(...)`, curCwd, new Map(vars));
  }

  /** A shell or interpreter whose script comes from a substitution: deny when that substitution downloads. */
  markRunsSubstitution(segment: string, name: string): void {
    const nested = this.nestedStack[this.nestedStack.length - 1] ?? [];
    const dl = nested.find((src) => isDownloader(/^\s*(?:sudo\s+)?([\w.-]+)/.exec(src)?.[1] ?? ''));
    if (dl) this.hit('pipe-download-to-interpreter', 'deny', segment, `${name} runs a script downloaded by \`${dl.trim().slice(0, 60)}\``);
  }

  /** Sources of the substitutions on the line being analysed ($(...), <(...)). */
  currentNested(): string[] {
    return this.nestedStack[this.nestedStack.length - 1] ?? [];
  }

  private staticEcho(inner: string, cwd: string): string | undefined {
    const ctx: LexContext = { home: this.opts.home, cwd, tmp: this.opts.tmp, vars: new Map() };
    const lx = new Lexer(inner, ctx, () => undefined);
    const cmds = toCommands(lx.tokens());
    if (lx.errors.length || cmds.length !== 1 || lx.nested.length) return undefined;
    const w = cmds[0].words;
    if (w.some((x) => x.dynamic)) return undefined;
    if (w[0]?.text === 'echo') return w.slice(1).filter((x, i) => !(i === 0 && /^-[neE]+$/.test(x.text))).map((x) => x.text).join(' ');
    if (w[0]?.text === 'printf' && w[1] && !w[1].text.includes('%')) return w[1].text.replace(/\\n/g, '\n');
    if (w[0]?.text === 'printf' && w[1]?.text === '%s') return w.slice(2).map((x) => x.text).join('');
    return undefined;
  }

  private checkForkBomb(src: string): void {
    // Quoted text only mentions a fork bomb; drop it before looking.
    const compact = src.slice(0, 2000).replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, '').replace(/\s+/g, '');
    const m = /([A-Za-z_:][A-Za-z0-9_:.-]{0,30})\(\)\{/.exec(compact);
    if (!m) return;
    const name = m[1];
    const body = compact.slice(m.index + m[0].length, m.index + m[0].length + 200);
    if (body.includes(`${name}|${name}`) || body.includes(`${name}&`)) this.hit('fork-bomb', 'deny', src.slice(0, 60), `function ${name} calls itself in the background: a fork bomb`);
  }

  analyzeCommand(c: SimpleCommand, depth: number, via: string, cwd: string, pipe: SimpleCommand[], vars: Map<string, string>): void {
    const words = c.words;
    if (words.length === 0) {
      this.checkRedirects(c, cwd, '');
      return;
    }
    const argv = words.map((w) => w.text);
    const segment = quoteArgv(argv);
    this.commands.push({ argv, depth, via });
    if (words[0].dynamic) {
      if (words[0].text.startsWith('\u0000procsub')) return;
      this.hit('dynamic-command', 'ask', segment, 'the command name is only known when it runs');
      return;
    }
    const name = posix.basename(argv[0]);
    const rctx: RuleContext = { analyzer: this, opts: this.opts, cmd: c, words, argv, name, segment, cwd, pipe, depth, via, vars };
    this.checkRedirects(c, cwd, segment);
    for (const rule of RULES) rule(rctx);
    this.unwrap(rctx);
  }

  private checkRedirects(c: SimpleCommand, cwd: string, segment: string): void {
    for (const r of c.redirects) {
      if (r.op === '<' || r.op === '<>' || r.op === '<<<') {
        if (!r.target.dynamic) this.readsPath(r.target.text, cwd, segment || `< ${r.target.text}`);
        continue;
      }
      if (r.target.dynamic || r.target.text === '' || /^\d+$/.test(r.target.text) || r.target.text === '-') continue;
      this.writesPath(r.target.text, cwd, segment || `> ${r.target.text}`);
      if (BLOCK_DEVICE.test(r.target.text)) this.hit('disk-destroy', 'deny', segment || `> ${r.target.text}`, `writes straight to the block device ${r.target.text}`);
    }
  }

  readsPath(path: string, cwd: string, segment: string): void {
    readsPath(this, path, cwd, segment);
  }

  writesPath(path: string, cwd: string, segment: string): void {
    writesPath(this, path, cwd, segment);
  }

  private unwrap(r: RuleContext): void {
    const { argv, name, depth, via, cwd, words } = r;
    const next = (rest: Word[], how: string) => {
      if (rest.length === 0) return;
      const c2: SimpleCommand = { ...r.cmd, words: rest, assignments: [], redirects: [] };
      this.analyzeCommand(c2, depth + 1, `${via} > ${how}`, cwd, r.pipe, r.vars);
    };
    if (SHELLS.has(name)) {
      // sh -c 'script' [name args], bash -lc, bash -ec ...
      for (let k = 1; k < argv.length; k++) {
        const a = argv[k];
        if (a === '--') break;
        if (/^-[A-Za-z]*c[A-Za-z]*$/.test(a) && k + 1 < argv.length) {
          this.analyzeSource(argv[k + 1], depth + 1, `${via} > ${name} -c`, cwd, new Map());
          return;
        }
        if (!a.startsWith('-') && !a.startsWith('+')) break;
      }
      // bash <<EOF ... EOF, or a downloaded script: the heredoc is the script.
      if (r.cmd.heredoc && !argv.slice(1).some((a) => !a.startsWith('-'))) this.analyzeSource(r.cmd.heredoc.text, depth + 1, `${via} > ${name} <<heredoc`, cwd, new Map());
      return;
    }
    if (name === 'eval') {
      this.analyzeSource(argv.slice(1).join(' '), depth + 1, `${via} > eval`, cwd, r.vars);
      return;
    }
    if (name === 'sudo' || name === 'doas') {
      let k = 1;
      while (k < argv.length && argv[k].startsWith('-')) {
        if (/^-[ugChpDrtT]$/.test(argv[k])) k++;
        if (argv[k] === '--') {
          k++;
          break;
        }
        k++;
      }
      next(words.slice(k), name);
      return;
    }
    if (name === 'env') {
      let k = 1;
      while (k < argv.length && (argv[k].startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[k]))) {
        if (argv[k] === '-u' || argv[k] === '-C' || argv[k] === '-S') k++;
        k++;
      }
      if (argv[k - 1] === '-S' && argv[k - 1]) {
        this.analyzeSource(argv[k - 1 + 1] ?? '', depth + 1, `${via} > env -S`, cwd, new Map());
        return;
      }
      next(words.slice(k), 'env');
      return;
    }
    if (['nice', 'nohup', 'time', 'command', 'builtin', 'exec', 'stdbuf', 'ionice', 'setsid', 'chroot', 'unbuffer', 'caffeinate', 'watch', 'strace', 'ltrace', 'flock', 'taskset', 'chrt'].includes(name)) {
      if (name === 'command' && (argv[1] === '-v' || argv[1] === '-V')) return;
      let k = 1;
      while (k < argv.length && argv[k].startsWith('-')) {
        if (['-n', '-c', '-o', '-e', '-i', '-u', '-p', '-s'].includes(argv[k]) && name !== 'command' && name !== 'exec') k++;
        k++;
      }
      if (name === 'chroot' || name === 'flock' || name === 'taskset' || name === 'chrt') k++;
      next(words.slice(k), name);
      return;
    }
    if (name === 'timeout') {
      let k = 1;
      while (k < argv.length && argv[k].startsWith('-')) {
        if (argv[k] === '-s' || argv[k] === '-k' || argv[k] === '--signal' || argv[k] === '--kill-after') k++;
        k++;
      }
      next(words.slice(k + 1), 'timeout');
      return;
    }
    if (name === 'xargs' || name === 'parallel') {
      let k = 1;
      while (k < argv.length && argv[k].startsWith('-')) {
        if (/^-[IdaLnPsE]$/.test(argv[k]) || ['--max-args', '--replace', '--delimiter', '--arg-file', '--max-procs'].includes(argv[k])) k++;
        k++;
      }
      const inner = name === 'parallel' && argv.includes(':::') ? words.slice(k, argv.indexOf(':::')) : words.slice(k);
      // The deleted paths arrive on stdin: from an upstream find, its roots; otherwise unknown.
      if (inner[0] && ['rm', 'unlink', 'shred'].includes(posix.basename(inner[0].text)) && !inner.slice(1).some((w) => !w.text.startsWith('-'))) {
        const finder = r.pipe.find((c) => c.stage < r.cmd.stage && c.words[0] && posix.basename(c.words[0].text) === 'find');
        const recursive = inner.some((w) => /^-[a-zA-Z]*[rR]/.test(w.text) || w.text === '--recursive');
        if (finder) {
          judgeFindDeletes(r, finder.words.map((w) => w.text), `find | ${name} rm`);
        } else if (recursive) this.hit('rm-unknown-target', 'ask', r.segment, `${name} feeds paths from its input to rm -r`);
      }
      next(inner, name);
      return;
    }
  }
}

export function analyzeCommand(command: string, opts: AnalyzeOptions): Analysis {
  const a = new Analyzer(opts);
  if (command.length > MAX_COMMAND_LENGTH) a.hit('unparseable', 'ask', command.slice(0, 80), `the command is longer than ${MAX_COMMAND_LENGTH} characters`);
  else a.analyzeSource(command, 0, 'command', opts.cwd, new Map());
  let decision: Decision = 'allow';
  for (const h of a.hits) if (RANK[h.action] > RANK[decision]) decision = h.action;
  const top = a.hits.filter((h) => h.action === decision && decision !== 'allow');
  const reason = top.map((h) => `${h.rule}: ${h.detail} (\`${h.segment}\`)`).join('; ');
  return { decision, hits: a.hits, commands: a.commands, reason };
}
