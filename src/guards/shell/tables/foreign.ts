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
}

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
  ghc: { code: ['-e'], source: /\.hs$/ },
  runghc: { source: /\.hs$/, stdin: 'dash' },
  runhaskell: { source: /\.hs$/, stdin: 'dash' },
  stack: { sub: ['runghc', 'runhaskell'], source: /\.hs$/ },
  swift: { source: /\.swift$/, stdin: 'dash' },
  swiftc: { source: /\.swift$/ },
  crystal: { sub: ['eval', 'run'], source: /\.cr$/ },
  nim: { sub: ['r', 'c', 'compile', 'run'], source: /\.nim$/ },
  zig: { sub: ['run', 'build-exe'], source: /\.zig$/ },
  dart: { sub: ['run'], source: /\.dart$/ },
  dotnet: { sub: ['run', 'script'], source: /\.(?:cs|csx)$/ },
  'dotnet-script': { code: ['eval'], source: /\.csx$/, stdin: 'dash' },
  csharp: { source: /\.cs$/, stdin: 'always' },
  ocaml: { source: /\.ml$/, stdin: 'dash' },
  nu: { code: ['-c', '--commands'], source: /\.nu$/ },
  v: { sub: ['run'], source: /\.v$/ },
  vlang: { sub: ['run'], source: /\.v$/ },
  'd8': { code: ['-e'] },
  jjs: { source: /\.js$/ },
};

/** Calls that delete a whole tree in these languages (the target is the path or home expression beside them). */
export const TREE_DELETE_CALLS = /\b(?:RemoveAll|remove_dir_all|deleteRecursively|rm_rf!?|rm_r|delete[-_]directory(?:[-_]tree)?|deleteDirectory|forceDelete|cleanDirectory|rmtree|del_tree|deltree|remove_all|removeRecursive|Directory\.Delete|delete-recursively|rimraf|Remove-Item|rmdir)\b|\bfile\s+delete\s+-force\b/g;

/** Expressions that name the home folder in these languages. */
export const HOME_EXPRESSIONS = /(?:[Gg]et[Ee]nv|getenv|env::var|System\.getenv|os:getenv|System\.get_env|env\(|ENV\[|\$env\()\s*\(?\s*["']?HOME["']?|UserHomeDir|user\.home|user_home|Dir\.home|homedir|home_dir|HomeDirectory|getHomeDirectory|user-homedir-pathname|\(user-home\)|FileSystems\.getDefault\(\)\.getPath\(\s*"~/;

/** Database shells whose text can escape to a shell: where the code comes from and how an escape looks. */
export interface SqlShell {
  code: string[];
  /** Operands (after the database) are commands too. */
  operandsAreCode?: boolean;
  escape: RegExp;
}
export const SQL_SHELLS: Record<string, SqlShell> = {
  sqlite3: { code: ['-cmd'], operandsAreCode: true, escape: /(?:^|\n)\s*\.(?:shell|system)\s+([^\n]*)/g },
  sqlite: { code: ['-cmd'], operandsAreCode: true, escape: /(?:^|\n)\s*\.(?:shell|system)\s+([^\n]*)/g },
  psql: { code: ['-c', '--command'], escape: /\\!\s*([^\n]*)/g },
  mysql: { code: ['-e', '--execute'], escape: /(?:^|[;\n])\s*(?:system|\\!)\s+([^;\n]*)/g },
  mariadb: { code: ['-e', '--execute'], escape: /(?:^|[;\n])\s*(?:system|\\!)\s+([^;\n]*)/g },
  duckdb: { code: ['-c', '-cmd'], operandsAreCode: true, escape: /(?:^|\n)\s*\.(?:shell|system)\s+([^\n]*)/g },
};
