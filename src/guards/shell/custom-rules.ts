// A team's own command rules (.loom/policy.json "commandRules", and the
// packs in config/packs/): matched on every ANALYSED simple command, so
// `bash -c "terraform destroy"`, `sudo terraform destroy` and
// `env X=1 terraform destroy` hit a rule written for `terraform destroy`; an
// argPattern also reads what the command gets on stdin when that is known
// before it runs (`psql <<< 'DROP DATABASE x'`).
import { globMatch } from './glob';
import { posix } from 'node:path';
import type { Analyzer } from './analyze';

export interface CommandRule {
  id: string;
  match: {
    /** Command name (basename), or several. */
    command: string | string[];
    /**
     * In order: operands that must appear (alternatives with `|`: "namespace|ns"; a trailing `*` matches any operand
     * that starts with the rest: "ns/*" is kubectl's `ns/monitoring`),
     * and flags that must be present anywhere ("-f|--force": -f inside -rf, --force=x, an unambiguous --forc).
     */
    args?: string[];
    /** A regex (linear: no nested quantifiers) one argument must match, e.g. DROP DATABASE in psql -c. */
    argPattern?: string;
    /** Flags that make the command harmless (`--dry-run`, `--help`): with one present the rule does not match. */
    unless?: string[];
    /** argPattern reads the arguments and stdin as SQL: string literals and comments removed first. */
    sql?: boolean;
  };
  action: 'allow' | 'ask' | 'deny';
  reason?: string;
}

export interface CompiledCommandRule {
  id: string;
  action: 'allow' | 'ask' | 'deny';
  reason: string;
  /** `stdin`: the text the command reads on stdin when it is known before it runs (a here-string, a heredoc, an echo piped in). */
  test: (argv: string[], stdin?: string) => boolean;
}

function operandMatches(alts: string[], a: string): boolean {
  for (const w of alts) if (w.endsWith('*') ? a.startsWith(w.slice(0, -1)) : a === w) return true;
  return false;
}

function flagPresent(argv: string[], alts: string[]): boolean {
  for (const a of argv.slice(1)) {
    if (a === '--') return false;
    for (const f of alts) {
      if (f.startsWith('--')) {
        const name = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
        // Tools built on getopt_long accept an unambiguous prefix of a long option.
        if (name === f || (name.startsWith('--') && name.length >= 5 && f.startsWith(name))) return true;
      } else if (f.length === 2 && /^-[A-Za-z]+$/.test(a) && !a.startsWith('--') && a.includes(f[1])) return true;
      // An operand given as a glob (`/tmp/*`): a database file in a scratch folder, say.
      else if (a === f || (f.includes('*') && globMatch(f, a))) return true;
    }
  }
  return false;
}

/** Compiles rules (already schema-checked, their patterns already found linear); `regex` compiles a pattern when its rule is first tried. */
export function compileCommandRules(rules: CommandRule[], regex: (source: string) => RegExp): CompiledCommandRule[] {
  return rules.map((r) => {
    const names = new Set(Array.isArray(r.match.command) ? r.match.command : [r.match.command]);
    const words: string[][] = [];
    const flags: string[][] = [];
    for (const a of r.match.args ?? []) (a.startsWith('-') ? flags : words).push(a.split('|'));
    let pattern: RegExp | undefined;
    const source = r.match.argPattern;
    const unless = (r.match.unless ?? []).map((u) => u.split('|'));
    const test = (argv: string[], stdin?: string): boolean => {
      if (!names.has(posix.basename(argv[0] ?? ''))) return false;
      let k = 1;
      for (const alts of words) {
        while (k < argv.length && !operandMatches(alts, argv[k])) k++;
        if (k >= argv.length) return false;
        k++;
      }
      for (const alts of flags) if (!flagPresent(argv, alts)) return false;
      if (source !== undefined) pattern ??= regex(source);
      const p = pattern;
      // The pattern reads the arguments, and what a client reads as its script (`psql <<< 'DROP DATABASE x'`).
      // An option's value is SQL, not the option (`--execute=DROP …`: its dashes are no comment).
      const read = r.match.sql ? (t: string) => (t.startsWith('-') ? (t.includes('=') ? t.slice(0, t.indexOf('=') + 1) + sqlCode(t.slice(t.indexOf('=') + 1)) : t) : sqlCode(t)) : (t: string) => t;
      if (p && !argv.slice(1).some((a) => p.test(read(a.slice(0, 4096)))) && !(stdin !== undefined && stdinLines(read(stdin)).some((l) => p.test(l)))) return false;
      for (const alts of unless) if (flagPresent(argv, alts)) return false;
      return true;
    };
    return { id: r.id, action: r.action, reason: r.reason ?? `the project's rule ${r.id}`, test };
  });
}

/**
 * SQL as the server reads it: comments (`-- …`, `/* … *\/`) gone and each string literal (`'…'`, `''` inside it)
 * emptied, so `SELECT 'DROP TABLE ' || name` drops nothing and `DROP /* old *\/ TABLE t` drops t. One pass, linear.
 */
function sqlCode(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'") {
      let j = i + 1;
      while (j < text.length && !(text[j] === "'" && text[j + 1] !== "'")) j += text[j] === "'" ? 2 : 1;
      out += "''";
      i = j;
    } else if (c === '-' && text[i + 1] === '-') {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl - 1;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      out += ' ';
      i = end < 0 ? text.length : end + 1;
    } else out += c;
  }
  return out;
}

/** A script on stdin, statement by statement (lines, and `;` within one), each cut as an argument is: at most 256 of them. */
function stdinLines(text: string): string[] {
  return text.slice(0, 64 * 1024).split(/[\n;]/).slice(0, 256).map((l) => l.slice(0, 4096));
}

export function customRuleHits(a: Analyzer, argv: string[], segment: string, stdin?: string): void {
  const rules = a.opts.policy.commandRules;
  if (!rules?.length) return;
  for (const r of rules) if (r.test(argv, stdin)) a.hit(r.id, r.action, segment, r.reason);
}
