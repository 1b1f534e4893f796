// Code in languages loom does not parse in full (tables/foreign.ts: Go, Rust,
// C, the JVM family, Lisps, Erlang/Elixir, Haskell, Swift ...) given on the
// command line, on stdin or in a file written earlier on the line, and the
// shell escapes of database shells (sqlite3 `.shell`, psql `\!`, mysql
// `system`). Without a parser for each language the guard reads what any of
// them needs to do damage: a string that is a shell command, a list of
// strings that is an argv, a call that deletes a tree next to the path or
// home expression it deletes. Each is judged like the command it stands for.
import type { Feed } from '../feed';
import { deletesPath } from '../path-rules';
import type { Rule, RuleContext } from '../rules';
import { FOREIGN_RUNNERS, HOME_EXPRESSIONS, SHELL_DIALECTS, SQL_SHELLS, TREE_DELETE_CALLS, type ForeignRunner } from '../tables/foreign';
import { own } from './args';

const MAX_CODE = 64 * 1024;
const MAX_LITERALS = 64;
const MAX_DELETES = 16;
/** A binding of a name to a value in these languages: let / let mut / var / val / const / auto / final / a declared type / := . */
const BINDING = /(?:\b(?:let(?:\s+mut)?|var|val|const|auto|final|String|string|def|my)\s+\$?([A-Za-z_]\w{0,63})\s*(?::\s*[\w<>&:\[\]]{1,60}\s*)?=|\b([A-Za-z_]\w{0,63})(?:\s*,\s*[A-Za-z_]\w{0,63}){0,3}\s*:=)(?!=)\s*([^;\n]{0,300})/g;
const STDIN = new Set(['-', '/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);

/** Whole calls whose value is the home folder, in the languages read here. */
const HOME_CALLS = /\(\s*(?:native-)?namestring\s+\(\s*user-homedir-pathname\s*\)\s*\)|\(\s*user-homedir-pathname\s*\)|\(\s*(?:getenv|posix-getenv|sb-posix:getenv|uiop:getenv)\s+"HOME"\s*\)|\b(?:os\.)?getHomeDir\s*\(\s*\)|\b(?:System\.getenv|getenv|Sys\.getenv|os\.Getenv)\s*\(\s*"HOME"\s*\)|\bstd::env::var\s*\(\s*"HOME"\s*\)(?:\.unwrap\(\))?|\bos\.UserHomeDir\s*\(\s*\)|\b(?:dirs::)?home_dir\s*\(\s*\)(?:\.unwrap\(\))?|\bSystem\.user_home!?\s*(?:\(\s*\))?|\b(?:System\.get_env|os:getenv)\s*\(\s*"HOME"\s*\)|\bSystem\.getProperty\s*\(\s*"user\.home"\s*\)|\bsys\.props\s*\(\s*"user\.home"\s*\)|\bNSHomeDirectory\s*\(\s*\)|\bEnvironment\.GetFolderPath\s*\(\s*Environment\.SpecialFolder\.UserProfile\s*\)|\bgetHomeDirectory\b|\bhomedir\s*\(\s*\)|\bPath\.expand\s*\(\s*"~"\s*\)/g;

/** A double-quoted string literal with backslash escapes (every language here has one). */
const LITERAL = /"((?:[^"\\\n]|\\.){0,2000})"/g;
/** A command-looking text: a program name then at least one word. */
const COMMAND_TEXT = /^\s*(?:sudo\s+)?[\w.\/~+-]+\s+\S/;
/** Between the strings of one argv list: commas, brackets, quotes of a Lisp list, `(list `, `new String[]{`. */
const LIST_GAP = /^[\s,'(){}\[\]]*$|^\s*,?\s*(?:new\s+String\s*\[\s*\]\s*\{|List\.of\(|listOf\(|Arrays\.asList\(|vec!\[|&\[|\[|\(\s*(?:list|vector)\b)\s*$/;

function unescape(s: string): string {
  return s.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
}

function judgeShellText(r: RuleContext, text: string, via: string): void {
  r.analyzer.analyzeSource(text, r.depth + 1, `${r.via} > ${via}`, r.cwd, new Map());
}

/** Reads a program text in any of these languages and judges what it would run or delete. */
export function scanForeignCode(r: RuleContext, code: string, via: string): void {
  if (code.length > MAX_CODE) {
    r.analyzer.hit('unparseable', 'ask', r.segment, `${via} code longer than ${MAX_CODE} characters`);
    return;
  }
  // A call naming the home folder (`(getenv "HOME")`, `(user-homedir-pathname)`, `getHomeDir()`) is that folder's
  // path, as a literal: in an argv (`(system* "rm" "-rf" (getenv "HOME"))`) it is the argument.
  code = code.replace(HOME_CALLS, JSON.stringify(r.analyzer.opts.home));
  const lits: { text: string; start: number; end: number }[] = [];
  for (const m of code.matchAll(LITERAL)) {
    lits.push({ text: unescape(m[1]), start: m.index, end: m.index + m[0].length });
    if (lits.length >= MAX_LITERALS) break;
  }
  // Runs of strings separated only by list punctuation: an argv ("rm", "-rf", "/home/dev").
  const used = new Set<number>();
  for (let i = 0; i < lits.length; i++) {
    let j = i;
    while (j + 1 < lits.length && LIST_GAP.test(code.slice(lits[j].end, lits[j + 1].start))) j++;
    if (j > i && /^[\w.\/+-]+$/.test(lits[i].text)) {
      const argv = lits.slice(i, j + 1).map((l) => l.text);
      judgeShellText(r, argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' '), `${via} argv`);
      for (let k = i; k <= j; k++) used.add(k);
      i = j;
    }
  }
  // A single string that reads as a shell command ("rm -rf ~", `sh -c "..."` arguments).
  lits.forEach((l, i) => {
    if (!used.has(i) && COMMAND_TEXT.test(l.text)) judgeShellText(r, l.text, `${via} string`);
  });
  // Names bound to a path or a home expression (`let home = std::env::var("HOME")`, `val d = "/x"`): a delete of the name deletes it.
  const bound = new Map<string, string>();
  for (const m of code.matchAll(BINDING)) {
    const rhs = m[3];
    const lit = [...rhs.matchAll(LITERAL)].map((x) => unescape(x[1])).find((t) => /^(?:\/|~|\.\.?(?:\/|$)|[A-Za-z]:\\)/.test(t));
    const value = lit ?? (HOME_EXPRESSIONS.test(rhs) ? '~' : bound.get(rhs.trim().replace(/[;)\s].*$/, '')));
    if (value !== undefined && bound.size < 64) bound.set(m[1] ?? m[2], value);
  }
  // Tree deletes: the path string in the same statement, else a home expression there, else a name bound to one.
  let n = 0;
  for (const m of code.matchAll(TREE_DELETE_CALLS)) {
    if (++n > MAX_DELETES) break;
    const from = Math.max(code.lastIndexOf(';', m.index), code.lastIndexOf('\n', m.index), 0);
    let to = code.slice(m.index).search(/[;\n]/);
    to = to < 0 ? code.length : m.index + to;
    const stmt = code.slice(from, to);
    const path = [...stmt.matchAll(LITERAL)].map((x) => unescape(x[1])).find((t) => /^(?:\/|~|\.\.?(?:\/|$)|[A-Za-z]:\\)/.test(t));
    const named = [...stmt.slice(m.index - from).matchAll(/[A-Za-z_]\w*/g)].map((x) => bound.get(x[0])).find((v) => v !== undefined);
    // The call's own first argument when it is a literal, relative names included (`remove_dir_all(".git")`).
    const direct = /^\s*!?\s*\(\s*&?\s*(?:(?:Path|PathBuf|File|Paths)(?:::|\.)(?:new|from|of|get)\s*\(\s*)?"((?:[^"\\\n]|\\.){1,400})"/.exec(code.slice(m.index + m[0].length))?.[1];
    const target = path ?? (direct !== undefined && /^[\w.@+-][\w.\/@+-]*$/.test(direct) ? unescape(direct) : undefined) ?? (HOME_EXPRESSIONS.test(stmt) ? '~' : named);
    if (target) deletesPath(r.analyzer, target, r.cwd, `${r.segment} (${via}: ${m[0]})`, { recursive: true });
  }
}

/** The code a runner is given: option values, `sub` then a source file or stdin, a source operand. */
function codesOf(r: RuleContext, spec: ForeignRunner): string[] {
  const out: string[] = [];
  const args = r.argv.slice(1);
  let sawProgram = false;
  const feedText = (f: Feed | undefined, what: string): void => {
    if (!f) return;
    if (f.kind === 'static') out.push(f.text);
    else if (f.kind === 'download') r.analyzer.hit('pipe-download-to-interpreter', 'deny', r.segment, `${r.name} runs ${what} downloaded by ${f.by}`);
    else if (f.kind === 'runtime') r.analyzer.hit('dynamic-command', 'ask', r.segment, `${r.name} runs ${what} only known at run time (${f.why})`);
  };
  const stdinText = (): void => {
    const here = r.cmd.heredoc && !r.cmd.heredoc.dynamic ? r.cmd.heredoc.text : undefined;
    const str = r.cmd.redirects.find((x) => x.op === '<<<' && !x.target.dynamic)?.target.text;
    if (here !== undefined || str !== undefined) out.push((here ?? str)!);
    else feedText(r.stdin, 'a program on stdin');
  };
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    // `--eval=CODE`, and nim's `--eval:CODE`.
    const eq = a.search(/[=:]/);
    const key = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    if (spec.code?.includes(key)) {
      if (key !== a) out.push(a.slice(eq + 1));
      else if (args[k + 1] !== undefined) out.push(args[++k]);
      sawProgram = true;
      continue;
    }
    if (STDIN.has(a) && spec.stdin) {
      stdinText();
      sawProgram = true;
      continue;
    }
    if (!a.startsWith('-') && spec.source?.test(a)) {
      feedText(r.fileFeed?.(a), `the source file ${a}`);
      sawProgram = true;
    }
  }
  if (!sawProgram && spec.stdin === 'always' && !(spec.sub && spec.sub.includes(args[0] ?? ''))) stdinText();
  return out;
}

const foreign: Rule = (r) => {
  const spec = own(FOREIGN_RUNNERS, r.name);
  if (!spec) return;
  if (spec.sub && !spec.code && !spec.sub.includes(r.argv[1] ?? '')) return;
  for (const code of codesOf(r, spec)) {
    scanForeignCode(r, code, r.name);
    if (spec.shellText) {
      let text = code.slice(0, MAX_CODE);
      for (const [re, to] of own(SHELL_DIALECTS, r.name) ?? []) text = text.replace(re, to);
      judgeShellText(r, text, `${r.name} code`);
    }
    if (spec.shellCall) {
      let n = 0;
      for (const m of code.slice(0, MAX_CODE).matchAll(spec.shellCall)) {
        if (++n > MAX_LITERALS) break;
        // m4 quotes: `cmd' and [cmd]
        const text = (m.slice(1).find((g) => g !== undefined) ?? '').trim().replace(/^`([^']*)'$/, '$1').replace(/^\[([^\]]*)\]$/, '$1');
        if (text) judgeShellText(r, unescape(text), `${r.name} shell call`);
      }
    }
  }
};
foreign.names = Object.keys(FOREIGN_RUNNERS);

/** Database shells: a `.shell` / `\!` / `system` escape runs its text in a shell. */
const sqlShells: Rule = (r) => {
  const spec = own(SQL_SHELLS, r.name);
  if (!spec) return;
  const texts: string[] = [];
  const args = r.argv.slice(1);
  let operands = 0;
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    // `--eval=CODE`, and nim's `--eval:CODE`.
    const eq = a.search(/[=:]/);
    const key = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    if (spec.code.includes(key)) texts.push(key !== a ? a.slice(eq + 1) : args[++k] ?? '');
    else if (/^-[ce].+/.test(a) && spec.code.includes(a.slice(0, 2))) texts.push(a.slice(2));
    else if (!a.startsWith('-') && spec.operandsAreCode && operands++ > 0) texts.push(a);
  }
  const here = r.cmd.heredoc && !r.cmd.heredoc.dynamic ? r.cmd.heredoc.text : undefined;
  const str = r.cmd.redirects.find((x) => x.op === '<<<' && !x.target.dynamic)?.target.text;
  const fed = here ?? str ?? (r.stdin?.kind === 'static' ? r.stdin.text : undefined);
  if (fed !== undefined) texts.push(fed);
  for (const t of texts) {
    for (const m of t.matchAll(spec.escape)) if (m[1].trim()) judgeShellText(r, m[1], `${r.name} shell escape`);
    // The results piped into a command: that command reads text the query makes, known only when it runs.
    for (const m of t.matchAll(spec.pipe)) if (m[1].trim()) judgeShellText(r, `${r.name} | ${m[1]}`, `${r.name} results piped to a command`);
  }
};
sqlShells.names = Object.keys(SQL_SHELLS);

// A package.json script set by code (`p.scripts.test = 'rm -rf ~'`, jq `.scripts.build = "git push -f …"`,
// `pkg["scripts"]["x"] = "…"`): npm, yarn and pnpm run it through sh the next time the script is run, which an
// agent can do on the same line. Whatever writes it, the command it stores is judged as the script it is.
const SCRIPT_ASSIGNMENT = /\bscripts(?:["'`]\s*\])?\s*(?:\.\s*[\w$-]{1,64}|\[\s*(["'`])[\w:.@\/-]{1,64}\1\s*\])\s*\|?=\s*(["'`])((?:(?!\2)[^\\\n]|\\.){1,2000})\2/g;
const SCRIPT_WRITERS = ['node', 'nodejs', 'deno', 'bun', 'python', 'python3', 'ruby', 'perl', 'php', 'jq', 'gojq', 'jaq', 'yq', 'fx', 'dasel'];

const packageScriptsSet: Rule = (r) => {
  let n = 0;
  for (const a of r.argv.slice(1)) {
    if (a.length > MAX_CODE || !a.includes('scripts')) continue;
    SCRIPT_ASSIGNMENT.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = SCRIPT_ASSIGNMENT.exec(a)) && n++ < MAX_LITERALS) judgeShellText(r, unescape(m[3]), `${r.name} sets a package.json script`);
  }
};
packageScriptsSet.names = SCRIPT_WRITERS;

export const FOREIGN_CODE_RULES: Rule[] = [foreign, sqlShells, packageScriptsSet];
