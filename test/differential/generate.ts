// Command lines for the differential test: the real agent commands and
// the guard corpora as seeds, mutated the ways an attacker hides a command
// (quoting, escapes, substitutions, nesting, compound commands, functions,
// aliases, parameter expansions with tricky words, heredocs, comments),
// plus lines built from a small bash grammar. A seeded PRNG makes every run
// reproducible.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHELL_FAMILIES } from '../fixtures/guard-shell-corpus';

export function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

const NAMES = ['rm', 'ls', 'git', 'curl', 'mycmd', 'npm', 'python3', 'grep', 'chmod', 'find', 'tool-x', 'sudo', 'env', 'xargs', 'touch'];
const ARGS = ['-rf', '-la', '/', '~', '~/x', '.', '..', 'a b', '$HOME', '"$HOME"', "'q'", 'x=1', '--force', '*.ts', '{a,b}', '$(echo sub)', '`echo bt`', '${X:-dflt}', '"${Y:-"}"}"', "$'\\x41'", '\\;', '#c', 'a#b', '$((1+2))', '"a\\"b"', '~+', '-', '--', "'\"'"];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)];
}

/** A simple command from the grammar's vocabulary. */
function simple(r: () => number): string {
  const n = 1 + Math.floor(r() * 3);
  const words = [pick(r, NAMES)];
  for (let i = 0; i < n; i++) words.push(pick(r, ARGS));
  return words.join(' ');
}

/** A command line from a small bash grammar: lists, pipes, compounds, substitutions, functions. */
export function grammarLine(r: () => number, depth = 0): string {
  const c = depth > 2 ? 0 : Math.floor(r() * 22);
  switch (c) {
    case 1: return `${grammarLine(r, depth + 1)} ${pick(r, [';', '&&', '||', '|', '&', '\n'])} ${grammarLine(r, depth + 1)}`;
    case 2: return `{ ${grammarLine(r, depth + 1)}; }`;
    case 3: return `( ${grammarLine(r, depth + 1)} )`;
    case 4: return `if ${simple(r)}; then ${grammarLine(r, depth + 1)}; else ${grammarLine(r, depth + 1)}; fi`;
    case 5: return `for v in ${pick(r, ARGS)} ${pick(r, ARGS)}; do ${pick(r, NAMES)} "$v"; done`;
    case 6: return `f() { ${pick(r, NAMES)} "$1" $2; }; f ${pick(r, ARGS)} ${pick(r, ARGS)}`;
    case 7: return `echo $(${grammarLine(r, depth + 1)})`;
    case 8: return `bash -c ${JSON.stringify(grammarLine(r, depth + 1))}`;
    case 9: return `X=${pick(r, ['rm', 'ls', '"a b"', '~', '/'])}; $X ${pick(r, ARGS)}`;
    case 10: return `case ${pick(r, ['a', 'b'])} in a) ${simple(r)};; *) ${simple(r)};; esac`;
    case 11: return `${simple(r)} <<< ${pick(r, ARGS)}`;
    case 12: return `cat <<EOF\n${pick(r, ARGS)} $(${simple(r)})\nEOF`;
    case 13: return `echo ${pick(r, ['${X:-"}"}', '${X:-`x`}', '$(( 1 + $(echo 2) ))', '$(echo ")")', '"$(echo "(")"'])}; ${simple(r)}`;
    case 14: return `alias a1=${JSON.stringify(simple(r))}\na1 ${pick(r, ARGS)}`;
    case 15: return `echo ${JSON.stringify(simple(r))} | bash`;
    // A cd that may fail (the sandbox has none of these folders but /tmp and ..): the shell stays where it was.
    case 16: return `cd ${pick(r, ['/nonexistent-dir', 'missing', '..', '/tmp'])}${pick(r, [';', ' || true;', ' && true;', '\n', ' 2>/dev/null;'])} ${pick(r, NAMES)} ~+ "$PWD"`;
    case 17: return `f() { f() { ${simple(r)}; }; f; }; f`;
    // A heredoc inside $( ) ended by the line of the closing paren, with text after the delimiter.
    case 18: return `echo $(cat <<EOF\n${pick(r, ARGS)}\nEOF${pick(r, ['', '  ', ' x ', 'Y'])}) ; ${simple(r)}`;
    case 19: return `x=$(${pick(r, NAMES)} <<< ${pick(r, ARGS)})\n${simple(r)}`;
    // Arrays with keys: associative, sparse, set element by element; read by key, whole, or by their keys.
    case 20: {
      const k = pick(r, ['x', 'k1', '3', '0', 'a.b']);
      const decl = pick(r, [`declare -A m=([${k}]=${pick(r, NAMES)} [y]=${pick(r, ARGS)})`, `declare -A m; m[${k}]=${pick(r, NAMES)}; m[y]=${pick(r, ARGS)}`, `m=([${pick(r, ['0', '2', '5'])}]=${pick(r, NAMES)} ${pick(r, ARGS)})`, `m[0]=${pick(r, NAMES)}; m[1]=${pick(r, ARGS)}`]);
      return `${decl}; ${pick(r, [`\${m[${k}]} \${m[y]}`, '"${m[@]}"', '${m[0]} ${m[1]}', `for q in "\${!m[@]}"; do ${pick(r, NAMES)} "\${m[$q]}"; done`, `K=${k}; \${m[$K]} x`])}`;
    }
    case 21: return `a=(${pick(r, NAMES)} ${pick(r, ARGS)}); a[${pick(r, ['1', '2', '0'])}]=${pick(r, ARGS)}; a+=(${pick(r, ARGS)}); "\${a[@]}"`;
    default: return simple(r);
  }
}

/** Mutations of a seed line. */
export function mutate(r: () => number, line: string): string {
  switch (Math.floor(r() * 14)) {
    case 0: return `bash -c ${shellQuote(line)}`;
    case 1: return `echo $(${line})`;
    case 2: return `{ ${line}\n}`;
    case 3: return `( ${line} )`;
    case 4: return `X=1 ${line}`;
    case 5: return `${line} # trailing ${pick(r, ['comment', ')', '"', "'"])}`;
    case 6: return `if true; then ${line}\nfi`;
    case 7: return `g() { ${line}\n}; g a b`;
    case 8: return `eval ${shellQuote(line)}`;
    case 9: {
      // quote one word-like run
      const m = /[A-Za-z]{2,}/.exec(line);
      return m ? line.slice(0, m.index) + `'${m[0]}'` + line.slice(m.index + m[0].length) : line;
    }
    case 10: {
      const m = /[a-z]{2,}/.exec(line);
      return m ? line.slice(0, m.index) + m[0][0] + '\\' + m[0].slice(1) + line.slice(m.index + m[0].length) : line;
    }
    case 11: return `echo ${shellQuote(line)} | bash`;
    case 12: return `for i in 1; do ${line}\ndone`;
    default: return `${line}; ${grammarLine(r)}`;
  }
}

export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Seeds: the real agent commands and the shell-structure corpus (dangerous and everyday). */
export function seedLines(root: string): string[] {
  const agent = readFileSync(join(root, 'test/fixtures/agent-commands/commands.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { cmd: string }).cmd);
  const corpus = SHELL_FAMILIES.flatMap((f) => [...f.dangerous, ...f.everyday]);
  return [...agent, ...corpus].filter((c) => c.length < 400);
}

/** n lines: a third grammar lines, the rest seeds (some mutated once or twice). */
export function generate(seed: number, n: number, seeds: string[]): string[] {
  const r = prng(seed);
  const out: string[] = [];
  while (out.length < n) {
    const k = r();
    if (k < 0.34) out.push(grammarLine(r));
    else {
      let line = pick(r, seeds);
      if (k > 0.5) line = mutate(r, line);
      if (k > 0.85) line = mutate(r, line);
      out.push(line);
    }
  }
  return out;
}
