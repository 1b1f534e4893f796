// Build files a toolchain runs as code when it builds (Rust build scripts and
// proc-macro crates, setup.py, Gradle scripts, sbt and mill builds, CMake
// scripts, Maven's exec and antrun plugins): which programs read which files,
// and how each language's obvious delete / run calls read as the calls loom's
// foreign-code scan knows. Tables only: build-files.ts reads them.

export type BuildLang = 'rust' | 'python' | 'gradle' | 'scala' | 'cmake' | 'maven';

export interface BuildTool {
  /** Subcommands (first operand) that build; absent: every run but `--version` / `--help`. */
  sub?: readonly string[];
  /** Files under the build folder that are build code. */
  files: RegExp;
  lang: BuildLang;
  /** Options naming the build folder (`-p DIR`), or a file in it (`--manifest-path F`, `-f pom.xml`): its folder. */
  dirOptions?: readonly string[];
  fileOptions?: readonly string[];
}

const CARGO = { sub: ['build', 'b', 'run', 'r', 'test', 't', 'check', 'c', 'bench', 'install', 'clippy', 'doc', 'd', 'fix', 'rustc', 'package', 'publish'], files: /\.rs$/, lang: 'rust', fileOptions: ['--manifest-path'] } as const;
const GRADLE = { files: /(?:^|\/)[^/]*\.gradle(?:\.kts)?$|\/buildSrc\/.*\.(?:kts|groovy|java|kt)$/, lang: 'gradle', dirOptions: ['-p', '--project-dir'], fileOptions: ['-b', '--build-file', '-c', '--settings-file', '-I', '--init-script'] } as const;
const MAVEN = { files: /(?:^|\/)pom\.xml$/, lang: 'maven', fileOptions: ['-f', '--file'] } as const;

export const BUILD_TOOLS: Record<string, BuildTool> = {
  cargo: CARGO,
  'cargo-nextest': CARGO,
  cross: CARGO,
  gradle: GRADLE,
  gradlew: GRADLE,
  'gradlew.bat': GRADLE,
  mvn: MAVEN,
  mvnw: MAVEN,
  'mvnw.cmd': MAVEN,
  sbt: { files: /(?:^|\/)(?:[^/]+\.sbt|project\/[^/]+\.(?:scala|sbt))$/, lang: 'scala' },
  mill: { files: /(?:^|\/)(?:build\.sc|build\.mill|[^/]+\.mill|package\.mill)$/, lang: 'scala' },
  // cmake -P FILE and configuring a source folder (CMakeLists.txt and the *.cmake it includes).
  cmake: { files: /(?:^|\/)(?:CMakeLists\.txt|[^/]+\.cmake)$/, lang: 'cmake' },
};

/** Installers and builders of a Python package folder: they run its setup.py. */
/** The programs PY_BUILDERS' lines start with: the lines are built and matched only for these. */
export const PY_BUILDER_PROGRAMS = /^(?:pip\d*(?:\.\d+)?|uv|pipx|python\d*(?:\.\d+)?|pyproject-build|pdm)$/;
export const PY_BUILDERS: { match: RegExp; dirFrom: 'operand' | 'cwd' }[] = [
  // pip install . / pip install -e ./pkg / pip wheel . / pip download .
  { match: /^(?:pip\d*(?:\.\d+)?|uv pip|pipx|python\d*(?:\.\d+)? -m pip) (?:install|wheel|download|i)\b/, dirFrom: 'operand' },
  // python -m build [DIR], pyproject-build, uv build, hatch/flit/pdm build fall back to setup.py too
  { match: /^(?:python\d*(?:\.\d+)? -m build|pyproject-build|uv build|pdm build)\b/, dirFrom: 'cwd' },
];

/** Rewrites (in order) that make a build language's calls read as the foreign-code scan's tree deletes, argv lists and home expressions. */
export const BUILD_REWRITES: Record<Exclude<BuildLang, 'python' | 'cmake' | 'maven'>, [RegExp, string][]> = {
  // Command::new("rm").args(["-rf", X]) / .arg("-rf").arg(X): one argv list.
  rust: [[/\)\s*\.args?\s*\(\s*&?(?:vec!)?\[?/g, ', ']],
  // delete(X) / delete X / project.delete(file(X)) / fileTree deletes (Gradle's delete is recursive); the project folder as ".".
  gradle: [
    [/\b(?:project\.)?delete\s*(?:\(\s*)?(?:(?:file|files|fileTree|project\.file)\s*\(\s*)?(?=["'\w$])/g, 'remove_dir_all('],
    [/\bdeleteDir\s*\(\s*\)/g, 'deleteRecursively()'],
    [/\b(?:rootProject\.)?(?:rootDir|projectDir)\b|\blayout\.projectDirectory\b/g, '"."'],
    [/'([^'\n]*)'/g, '"$1"'],
    [/\)\s*\.(?:args?|commandLine)\s*\(\s*\[?/g, ', '],
  ],
  // IO.delete(X), os.remove.all(X), os.home, os.pwd, Seq(...).! / Process(...).!
  scala: [[/\b(?:IO\.delete|os\.remove\.all|sbt\.IO\.delete)\b/g, 'remove_dir_all'], [/\bos\.home\b/g, 'homedir'], [/\bos\.pwd\b/g, '"."'], [/\bos\.proc\s*\(/g, 'proc(']],
};

/**
 * Task runners whose task file runs when a task runs: code in a language (Rakefile, noxfile.py, gulpfile.js), or
 * a file of its own format whose commands run in a shell (Ant and MSBuild XML, tox.ini, pre-commit's local
 * hooks). Default files are looked for in the folder the runner runs in; `fileOptions` name one.
 */
export type TaskFormat = 'ruby' | 'python' | 'node' | 'ant' | 'msbuild' | 'tox' | 'pre-commit';
export interface TaskFile {
  files: readonly string[];
  fileOptions: readonly string[];
  format: TaskFormat;
  /** Subcommands (first operand) that run the file's tasks; absent: any run but `--help` / `--version`. */
  sub?: readonly string[];
}
export const TASK_FILES: Record<string, TaskFile> = {
  rake: { files: ['Rakefile', 'rakefile', 'Rakefile.rb', 'rakefile.rb'], fileOptions: ['-f', '--rakefile'], format: 'ruby' },
  nox: { files: ['noxfile.py'], fileOptions: ['-f', '--noxfile'], format: 'python' },
  invoke: { files: ['tasks.py'], fileOptions: [], format: 'python' },
  inv: { files: ['tasks.py'], fileOptions: [], format: 'python' },
  fab: { files: ['fabfile.py'], fileOptions: ['-f'], format: 'python' },
  doit: { files: ['dodo.py'], fileOptions: ['-f', '--file'], format: 'python' },
  gulp: { files: ['gulpfile.js', 'gulpfile.mjs', 'gulpfile.cjs'], fileOptions: ['-f', '--gulpfile'], format: 'node' },
  grunt: { files: ['Gruntfile.js', 'gruntfile.js'], fileOptions: ['--gruntfile'], format: 'node' },
  jake: { files: ['Jakefile', 'Jakefile.js', 'jakefile.js'], fileOptions: ['-f', '--jakefile'], format: 'node' },
  ant: { files: ['build.xml'], fileOptions: ['-f', '-file', '-buildfile', '--buildfile'], format: 'ant' },
  msbuild: { files: [], fileOptions: [], format: 'msbuild' },
  'dotnet msbuild': { files: [], fileOptions: [], format: 'msbuild' },
  'dotnet build': { files: [], fileOptions: [], format: 'msbuild' },
  tox: { files: ['tox.ini'], fileOptions: ['-c', '--conf'], format: 'tox' },
  'pre-commit': { files: ['.pre-commit-config.yaml'], fileOptions: ['-c', '--config'], format: 'pre-commit', sub: ['run', 'try-repo'] },
  // Test runners and bundlers load their config as code before anything else: a config the line writes runs.
  pytest: { files: ['conftest.py'], fileOptions: [], format: 'python' },
  'py.test': { files: ['conftest.py'], fileOptions: [], format: 'python' },
  jest: { files: ['jest.config.js', 'jest.config.mjs', 'jest.config.cjs', 'jest.config.ts'], fileOptions: ['-c', '--config'], format: 'node' },
  vitest: { files: ['vitest.config.ts', 'vitest.config.js', 'vitest.config.mjs', 'vitest.config.mts', 'vite.config.ts', 'vite.config.js', 'vite.config.mjs'], fileOptions: ['-c', '--config'], format: 'node' },
  vite: { files: ['vite.config.ts', 'vite.config.js', 'vite.config.mjs', 'vite.config.cjs', 'vite.config.mts'], fileOptions: ['-c', '--config'], format: 'node' },
  webpack: { files: ['webpack.config.js', 'webpack.config.mjs', 'webpack.config.cjs', 'webpack.config.ts'], fileOptions: ['-c', '--config'], format: 'node' },
  rollup: { files: ['rollup.config.js', 'rollup.config.mjs', 'rollup.config.cjs', 'rollup.config.ts'], fileOptions: ['-c', '--config'], format: 'node' },
  eslint: { files: ['eslint.config.js', 'eslint.config.mjs', 'eslint.config.cjs', '.eslintrc.js', '.eslintrc.cjs'], fileOptions: ['-c', '--config'], format: 'node' },
  prettier: { files: ['prettier.config.js', 'prettier.config.mjs', 'prettier.config.cjs', '.prettierrc.js', '.prettierrc.cjs'], fileOptions: ['--config'], format: 'node' },
  mocha: { files: ['.mocharc.js', '.mocharc.cjs'], fileOptions: ['--config'], format: 'node' },
  playwright: { files: ['playwright.config.ts', 'playwright.config.js', 'playwright.config.mjs'], fileOptions: ['-c', '--config'], format: 'node', sub: ['test'] },
  cypress: { files: ['cypress.config.js', 'cypress.config.ts', 'cypress.config.mjs'], fileOptions: ['-C', '--config-file'], format: 'node', sub: ['run', 'open'] },
  next: { files: ['next.config.js', 'next.config.mjs', 'next.config.ts'], fileOptions: [], format: 'node', sub: ['build', 'dev', 'start', 'lint'] },
  nuxt: { files: ['nuxt.config.ts', 'nuxt.config.js'], fileOptions: [], format: 'node', sub: ['build', 'dev', 'generate'] },
  astro: { files: ['astro.config.mjs', 'astro.config.js', 'astro.config.ts'], fileOptions: ['--config'], format: 'node', sub: ['build', 'dev', 'check'] },
};
/** Project files MSBuild takes as its operand (or finds in the folder). */
export const MSBUILD_FILES = /\.(?:proj|csproj|fsproj|vbproj|vcxproj|targets|props|sln)$/i;
