// Languages loom does not parse in full (compiled languages, the JVM family,
// Lisps, Erlang/Elixir) and database shells with shell escapes: how each takes
// its code on the command line, and the calls that delete a tree or name the
// home folder in any of them. Tables only: families/foreign-code.ts reads them.

export interface ForeignRunner {
  /** Options whose value is code (`-e CODE`, `--eval=CODE`, `-eval CODE`). */
  code?: string[];
  /** A first operand that runs the rest (`go run`, `zig run`). */
  sub?: string[];
  /** Source file operands it compiles or runs. */
  source?: RegExp;
  /** It reads its program from stdin when given `-` / `/dev/stdin` (or, when `always`, no program at all). */
  stdin?: 'dash' | 'always';
  /** The language's own call that runs a shell string (global; the first group that matched is the command). */
  shellCall?: RegExp;
  /** The code itself is shell-like command text (shells with their own syntax: nu, xonsh, elvish). */
  shellText?: boolean;
  /** The language, for the documentation (when the program name does not say it). */
  lang?: string;
}

/** Single-quoted or double-quoted text in a call: `system("cmd")`, `system('cmd')`. */
const Q = `["']([^"'\\n]*)["']`;
/** m4's syscmd / esyscmd, with m4's quotes (`cmd' or [cmd]) stripped by the rule. */
const M4_CALL = /\b(?:syscmd|esyscmd)\s*\(([^)\n]*)\)/g;
const GNUPLOT_CALL = new RegExp(`\\bsystem\\s*\\(?\\s*${Q}|\`([^\`\\n]+)\`|(?:^|[\\n;])\\s*!([^\\n]*)|["']\\s*[<|]\\s*([^"'\\n]+)["']`, 'g');
const OCTAVE_CALL = new RegExp(`\\b(?:system|unix|dos|shell_cmd|popen2?)\\s*\\(\\s*${Q}|(?:^|[\\n;])\\s*!([^\\n]*)`, 'g');

export const FOREIGN_RUNNERS: Record<string, ForeignRunner> = {
  go: { sub: ['run', 'build'], source: /\.go$/, stdin: 'dash' },
  gccgo: { source: /\.go$/ },
  rustc: { source: /\.rs$/, stdin: 'dash' },
  'rust-script': { code: ['-e', '--expr'], source: /\.rs$/ },
  cargo: { sub: ['script'], source: /\.rs$/ },
  gcc: { source: /\.(?:c|cc|cpp|cxx|C|m)$/, stdin: 'dash' },
  'g++': { source: /\.(?:c|cc|cpp|cxx|C)$/, stdin: 'dash' },
  cc: { source: /\.(?:c|cc|cpp|cxx|C)$/, stdin: 'dash' },
  'c++': { source: /\.(?:c|cc|cpp|cxx|C)$/, stdin: 'dash' },
  clang: { source: /\.(?:c|cc|cpp|cxx|C|m)$/, stdin: 'dash' },
  'clang++': { source: /\.(?:c|cc|cpp|cxx|C)$/, stdin: 'dash' },
  tcc: { source: /\.c$/, stdin: 'dash' },
  java: { source: /\.java$/, stdin: 'dash' },
  javac: { source: /\.java$/ },
  jshell: { source: /\.jsh$/, stdin: 'always' },
  jbang: { code: ['--code'], source: /\.(?:java|jsh|kt|groovy)$/, stdin: 'dash' },
  groovy: { code: ['-e'], source: /\.groovy$/, stdin: 'dash' },
  groovysh: { stdin: 'always' },
  scala: { code: ['-e'], source: /\.(?:scala|sc)$/, stdin: 'dash' },
  'scala-cli': { code: ['-e', '--execute-script', '--execute-scala'], source: /\.(?:scala|sc)$/, stdin: 'dash' },
  amm: { code: ['-c', '--code'], source: /\.sc$/ },
  kotlin: { code: ['-e', '-expression'], source: /\.kts?$/ },
  kotlinc: { code: ['-e', '-expression', '-script'], source: /\.kts?$/ },
  elixir: { code: ['-e', '--eval'], source: /\.exs?$/, stdin: 'dash' },
  iex: { code: ['-e', '--eval'], stdin: 'always' },
  mix: { sub: ['run'], code: ['-e', '--eval'], source: /\.exs$/ },
  erl: { code: ['-eval', '-s'], stdin: 'always' },
  escript: { source: /\.(?:erl|escript)$/, stdin: 'dash' },
  guile: { code: ['-c', '-e'], source: /\.scm$/, stdin: 'dash' },
  racket: { code: ['-e', '--eval'], source: /\.rkt$/, stdin: 'dash' },
  sbcl: { code: ['--eval'], source: /\.lisp$/, stdin: 'always' },
  clisp: { code: ['-x'], source: /\.lisp$/, stdin: 'dash' },
  ecl: { code: ['-eval'], source: /\.lisp$/ },
  ccl: { code: ['--eval', '-e'], source: /\.lisp$/ },
  clojure: { code: ['-e', '--eval'], source: /\.cljc?$/, stdin: 'dash' },
  clj: { code: ['-e', '--eval'], source: /\.cljc?$/, stdin: 'dash' },
  bb: { code: ['-e', '--eval'], source: /\.(?:clj|bb)$/, stdin: 'dash' },
  csi: { code: ['-e', '-eval', '-p'], source: /\.scm$/ },
  chez: { source: /\.ss$/, stdin: 'always' },
  raku: { code: ['-e'], source: /\.(?:raku|rakumod|p6|pl6)$/, stdin: 'dash', shellCall: /\b(?:shell|qqx|qx)\s*\(?\s*(?:["']([^"'\n]*)["']|\{([^}\n]*)\}|q\{([^}\n]*)\})|\brun\s*\(?\s*<([^>\n]*)>/g },
  perl6: { lang: 'raku', code: ['-e'], source: /\.(?:p6|pl6)$/, stdin: 'dash', shellCall: /\b(?:shell|qqx|qx)\s*\(?\s*(?:["']([^"'\n]*)["']|\{([^}\n]*)\}|q\{([^}\n]*)\})|\brun\s*\(?\s*<([^>\n]*)>/g },
  ghc: { code: ['-e'], source: /\.hs$/ },
  runghc: { source: /\.hs$/, stdin: 'dash' },
  runhaskell: { source: /\.hs$/, stdin: 'dash' },
  stack: { sub: ['runghc', 'runhaskell'], source: /\.hs$/ },
  swift: { code: ['-e'], source: /\.swift$/, stdin: 'dash' },
  swiftc: { source: /\.swift$/ },
  crystal: { sub: ['eval', 'run'], code: ['eval'], source: /\.cr$/ },
  nim: { sub: ['r', 'c', 'e', 'compile', 'run'], code: ['--eval'], source: /\.nims?$/ },
  // zx: JavaScript whose $`...` templates run as shell commands.
  zx: { lang: 'zx', source: /\.(?:mjs|js|md)$/, stdin: 'always', shellCall: /\$`([^`\n]*)`/g },
  zig: { sub: ['run', 'build-exe'], source: /\.zig$/ },
  dart: { sub: ['run'], source: /\.dart$/ },
  dotnet: { sub: ['run', 'script'], source: /\.(?:cs|csx)$/ },
  'dotnet-script': { code: ['eval'], source: /\.csx$/, stdin: 'dash' },
  csharp: { source: /\.cs$/, stdin: 'always' },
  ocaml: { source: /\.ml$/, stdin: 'dash' },
  v: { sub: ['run'], source: /\.v$/ },
  vlang: { sub: ['run'], source: /\.v$/ },
  'd8': { code: ['-e'] },
  jjs: { source: /\.js$/ },
  // Macro processors, plotting and math tools with a call that runs a shell command.
  m4: { lang: 'm4', source: /\.m4$/, stdin: 'always', shellCall: M4_CALL },
  gm4: { lang: 'm4', source: /\.m4$/, stdin: 'always', shellCall: M4_CALL },
  gnuplot: { lang: 'gnuplot', code: ['-e'], source: /\.(?:gp|gnu|gnuplot|plt|plot)$/, stdin: 'always', shellCall: GNUPLOT_CALL },
  octave: { lang: 'octave', code: ['--eval'], source: /\.m$/, stdin: 'always', shellCall: OCTAVE_CALL },
  'octave-cli': { lang: 'octave', code: ['--eval'], source: /\.m$/, stdin: 'always', shellCall: OCTAVE_CALL },
  dc: { lang: 'dc', code: ['-e', '--expression'], source: /\.dc$/, stdin: 'always', shellCall: /(?:^|[\s\w.])!(?![<>=])([^\n]+)/g },
  maxima: { lang: 'maxima', code: ['--batch-string', '-r', '--run-string'], source: /\.(?:mac|max)$/, stdin: 'always', shellCall: new RegExp(`\\bsystem\\s*\\(\\s*${Q}`, 'g') },
  gp: { lang: 'PARI/GP', source: /\.gp$/, stdin: 'always', shellCall: new RegExp(`\\b(?:system|extern|externstr)\\s*\\(\\s*${Q}`, 'g') },
  wolframscript: { lang: 'Wolfram', code: ['-code', '-c'], source: /\.(?:wl|wls|m)$/, shellCall: /\b(?:Run|RunProcess)\s*\[\s*"([^"\n]*)"|\b(?:ReadString|Import|ReadList|OpenRead)\s*\[\s*"!([^"\n]*)"/g },
  make: { lang: 'make', code: ['--eval', '-E'], shellCall: /\$[({]shell\s+([^)}\n]*)[)}]/g },
  gmake: { lang: 'make', code: ['--eval', '-E'], shellCall: /\$[({]shell\s+([^)}\n]*)[)}]/g },
  // Shells with their own syntax, whose commands read like sh's (their own spellings rewritten by SHELL_DIALECTS).
  xonsh: { lang: 'xonsh', code: ['-c'], source: /\.xsh$/, stdin: 'always', shellText: true },
  elvish: { lang: 'elvish', code: ['-c'], source: /\.elv$/, stdin: 'always', shellText: true },
  nu: { lang: 'nushell', code: ['-c', '--commands'], source: /\.nu$/, stdin: 'always', shellText: true },
  murex: { lang: 'murex', code: ['-c'], source: /\.mx$/, stdin: 'always', shellText: true },
  ysh: { lang: 'ysh', code: ['-c'], source: /\.ysh$/, stdin: 'always', shellText: true },
  oil: { lang: 'ysh', code: ['-c'], source: /\.oil$/, stdin: 'always', shellText: true },
  ion: { lang: 'ion', code: ['-c'], source: /\.ion$/, stdin: 'always', shellText: true },
  rc: { lang: 'rc', code: ['-c'], stdin: 'always', shellText: true },
  es: { lang: 'es', code: ['-c'], stdin: 'always', shellText: true },
};

/**
 * How these shells' own spellings read in sh (rewrites applied in order before the text is judged as a
 * shell script): xonsh's subprocess forms `![cmd]` `$[cmd]` `!(cmd)` `$(cmd)`; nushell's `^cmd` (the external
 * program), `$env.HOME` / `$nu.home-path`, and `rm --recursive --permanent`; elvish's `e:cmd`, `os:remove-all`,
 * `$E:HOME`; ysh/oil's `$[ENV.HOME]`.
 */
export const SHELL_DIALECTS: Record<string, [RegExp, string][]> = {
  xonsh: [[/[!$]\[([^\]\n]*)\]/g, '\n$1\n'], [/[!$]\(([^()\n]*)\)/g, '\n$1\n'], [/\$HOME\b|\$\{\s*['"]HOME['"]\s*\}/g, '~']],
  nu: [[/(^|[\s;|(])\^(?=[\w./-])/g, '$1'], [/\$env\.HOME\b|\$nu\.home-path\b|\$env\.USERPROFILE\b/g, '~'], [/--recursive\b/g, '-r'], [/\s(?:--permanent|--trash|-p|-t)\b/g, '']],
  elvish: [[/(^|[\s;|(])e:(?=[\w./-])/g, '$1'], [/\bos:remove-all\b/g, 'rm -rf'], [/\bos:remove\b/g, 'rm'], [/\$E:HOME\b|\(get-env HOME\)/g, '~']],
  ysh: [[/\$\[ENV\.HOME\]|\$\{ENV\.HOME\}/g, '~']],
  oil: [[/\$\[ENV\.HOME\]|\$\{ENV\.HOME\}/g, '~']],
};

/** Calls that delete a whole tree in these languages (the target is the path or home expression beside them). */
export const TREE_DELETE_CALLS = /\b(?:RemoveAll|removeDir|remove_dir_all|deleteRecursively|rm_rf!?|rm_r|delete[-_]directory(?:[-_]tree)?|deleteDirectory|forceDelete|cleanDirectory|rmtree|del_tree|deltree|remove_all|removeRecursive|Directory\.Delete|delete-recursively|rimraf|Remove-Item|rmdir|removeItem|trashItem|deleteDir|os\.remove\.all|delete-directory\/files)\b|\bfile\s+delete\s+-force\b/g;

/** Expressions that name the home folder in these languages. */
export const HOME_EXPRESSIONS = /(?:[Gg]et[Ee]nv|getenv|env::var|System\.getenv|os:getenv|System\.get_env|env\(|ENV\[|\$env\()\s*\(?\s*["']?HOME["']?|UserHomeDir|user\.home|user_home|Dir\.home|homedir|home_dir|HomeDirectory|getHomeDirectory|NSHomeDirectory|homeDirectoryForCurrentUser|user-homedir-pathname|\(user-home\)|home-dir\b|expand-user-path|\bos\.home\b|\bPath\.home\b|FileSystems\.getDefault\(\)\.getPath\(\s*"~/;

/** Database shells whose text can escape to a shell: where the code comes from and how an escape looks. */
export interface SqlShell {
  code: string[];
  /** Operands (after the database) are commands too. */
  operandsAreCode?: boolean;
  escape: RegExp;
  /** A command the query results are piped into (`.once |sh`, psql `\o |sh`, mysql `pager sh`). */
  pipe: RegExp;
}
const SQLITE_ESCAPE = /(?:^|\n)\s*\.(?:shell|system)\s+([^\n]*)/g;
const SQLITE_PIPE = /(?:^|\n)\s*\.(?:once|output)\s+(?:-[a-z]+\s+)*\|\s*([^\n]*)/g;
const MYSQL_ESCAPE = /(?:^|[;\n])\s*(?:system|\\!)\s+([^;\n]*)/g;
const MYSQL_PIPE = /(?:^|[;\n])\s*(?:pager|\\P)\s+([^;\n]*)/gi;
const BANG_ESCAPE = /(?:^|[;\n])\s*!\s*([^;\n]*)/g;
const LFTP_PIPE = /(?:^|[;\n])[^;\n|]{1,200}\|\s*([^;\n]*)/g;
const NO_PIPE = /(?!)/g;
export const SQL_SHELLS: Record<string, SqlShell> = {
  sqlite3: { code: ['-cmd'], operandsAreCode: true, escape: SQLITE_ESCAPE, pipe: SQLITE_PIPE },
  sqlite: { code: ['-cmd'], operandsAreCode: true, escape: SQLITE_ESCAPE, pipe: SQLITE_PIPE },
  psql: { code: ['-c', '--command'], escape: /\\!\s*([^\n]*)/g, pipe: /\\(?:o|out|g|gx)\s*\|\s*([^\n]*)/g },
  mysql: { code: ['-e', '--execute'], escape: MYSQL_ESCAPE, pipe: MYSQL_PIPE },
  mariadb: { code: ['-e', '--execute'], escape: MYSQL_ESCAPE, pipe: MYSQL_PIPE },
  duckdb: { code: ['-c', '-cmd'], operandsAreCode: true, escape: SQLITE_ESCAPE, pipe: SQLITE_PIPE },
  // File-transfer clients run `!COMMAND` in a local shell, from their command option or their input (and lftp pipes
  // a command's output into one: `cat f | sh`).
  lftp: { code: ['-c', '-e'], escape: BANG_ESCAPE, pipe: LFTP_PIPE },
  ftp: { code: [], escape: BANG_ESCAPE, pipe: NO_PIPE },
  sftp: { code: [], escape: BANG_ESCAPE, pipe: NO_PIPE },
  tnftp: { code: [], escape: BANG_ESCAPE, pipe: NO_PIPE },
  ncftp: { code: [], escape: BANG_ESCAPE, pipe: NO_PIPE },
};
