// Build files written earlier on the line and then run by a toolchain: a Rust
// build script or proc-macro crate under `cargo build|run|test`, setup.py under
// `pip install .` / `python -m build`, Gradle scripts under gradle/gradlew, sbt
// and mill builds, CMake scripts (`cmake -P`, configuring), Maven's pom.xml
// exec/antrun plugins and `mvn exec:exec -Dexec.executable=X -Dexec.args=...`.
// Each is handed back as an escape: Python code to the Python analysis, CMake
// and Maven commands translated to shell, the rest to the foreign-code scan
// after the rewrites of tables/build-files.ts.
import { posix } from 'node:path';
import type { Escape, EscapeContext } from './escapes';
import { BUILD_REWRITES, BUILD_TOOLS, PY_BUILDER_PROGRAMS, PY_BUILDERS } from './tables/build-files';

const MAX_FILES = 16;
const MAX_TEXT = 64 * 1024;

const q = (a: string) => (/^[A-Za-z0-9_@%+=:,./~-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);

/** Words of a CMake argument list: quoted strings, bracket-free bare words; variables by what they name. */
function cmakeWords(text: string, vars: Record<string, string>): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/"((?:[^"\\]|\\.)*)"|([^\s"()]+)/g)) {
    const raw = m[1] ?? m[2];
    out.push(raw.replace(/\$ENV\{(\w+)\}|\$\{(\w+)\}/g, (_x, env?: string, v?: string) => (env === 'HOME' ? '~' : env ? '"$__cmake_env"' : (vars[v!] ?? '"$__cmake_var"'))));
  }
  return out;
}

const CMAKE_KEYWORDS = new Set(['COMMAND', 'WORKING_DIRECTORY', 'TIMEOUT', 'RESULT_VARIABLE', 'RESULTS_VARIABLE', 'OUTPUT_VARIABLE', 'ERROR_VARIABLE', 'INPUT_FILE', 'OUTPUT_FILE', 'ERROR_FILE', 'OUTPUT_QUIET', 'ERROR_QUIET', 'COMMAND_ECHO', 'OUTPUT_STRIP_TRAILING_WHITESPACE', 'ERROR_STRIP_TRAILING_WHITESPACE', 'ENCODING', 'ECHO_OUTPUT_VARIABLE', 'ECHO_ERROR_VARIABLE', 'COMMAND_ERROR_IS_FATAL']);

/** The shell commands of a CMake script run at configure time (or by cmake -P): execute_process(COMMAND ...), file(REMOVE[_RECURSE] ...). */
export function cmakeCommands(text: string, vars: Record<string, string>): string[] {
  const out: string[] = [];
  const body = text.replace(/#[^\n]*/g, '');
  for (const m of body.matchAll(/\b(execute_process|file)\s*\(([^()]{0,4000})\)/gi)) {
    const words = cmakeWords(m[2], vars);
    if (m[1].toLowerCase() === 'file') {
      const op = words[0]?.toUpperCase();
      if (op === 'REMOVE_RECURSE' || op === 'REMOVE') out.push(`rm ${op === 'REMOVE' ? '-f' : '-rf'} ${words.slice(1).map((w) => (w.startsWith('"$') || w === '~' || w.startsWith('~/') ? w : q(w))).join(' ')}`);
      continue;
    }
    let cur: string[] | undefined;
    const flush = () => {
      if (cur?.length) out.push(cur.map((w) => (w.startsWith('"$') || w === '~' || w.startsWith('~/') ? w : q(w))).join(' '));
    };
    for (let i = 0; i < words.length; i++) {
      const w = words[i];
      if (w === 'COMMAND') {
        flush();
        cur = [];
      } else if (CMAKE_KEYWORDS.has(w)) {
        flush();
        cur = undefined;
        if (!['OUTPUT_QUIET', 'ERROR_QUIET', 'OUTPUT_STRIP_TRAILING_WHITESPACE', 'ERROR_STRIP_TRAILING_WHITESPACE', 'ECHO_OUTPUT_VARIABLE', 'ECHO_ERROR_VARIABLE'].includes(w)) i++;
      } else cur?.push(w);
    }
    flush();
    if (out.length > 32) break;
  }
  return out;
}

/** `cmake -E COMMAND ...`: the command-line tool mode, as the shell command it stands for. */
function cmakeTool(args: string[]): string | undefined {
  const [cmd, ...rest] = args;
  if (cmd === 'rm') return `rm ${rest.map(q).join(' ')}`;
  if (cmd === 'remove_directory' || cmd === 'rmdir') return `rm -rf ${rest.map(q).join(' ')}`;
  if (cmd === 'remove') return `rm -f ${rest.filter((a) => a !== '-f').map(q).join(' ')}`;
  if (cmd === 'env') return rest.filter((a) => !a.startsWith('--')).map(q).join(' ');
  if (cmd === 'chdir' && rest.length >= 2) return `cd ${q(rest[0])} && ${rest.slice(1).map(q).join(' ')}`;
  return undefined;
}

/** Maven's properties in a value: the user's home, the project folder; others only known at run time. */
function mavenValue(v: string, dir: string): string {
  return v.replace(/\$\{(user\.home|env\.HOME|basedir|project\.basedir|maven\.multiModuleProjectDirectory|[\w.-]+)\}/g, (_m, p: string) => (p === 'user.home' || p === 'env.HOME' ? '~' : /basedir|multiModuleProjectDirectory/.test(p) ? dir : '"$__maven_property"'));
}

/** The commands of a pom.xml's exec-maven-plugin (executable + arguments / commandlineArgs) and antrun tasks (<delete>, <exec>). */
export function pomCommands(text: string, dir: string): string[] {
  const out: string[] = [];
  const x = text.slice(0, MAX_TEXT).replace(/<!--[\s\S]*?-->/g, '');
  const unxml = (s: string) => mavenValue(s.replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&').trim(), dir);
  const word = (s: string) => (s === '~' || s.startsWith('~/') || s.startsWith('"$') ? s : q(s));
  for (const m of x.matchAll(/<executable>([^<]{1,1000})<\/executable>([\s\S]{0,8000}?)(?=<executable>|<\/configuration>|$)/g)) {
    const args = [...m[2].matchAll(/<argument>([^<]{0,2000})<\/argument>/g)].map((a) => word(unxml(a[1])));
    const line = /<commandlineArgs>([^<]{0,4000})<\/commandlineArgs>/.exec(m[2]);
    out.push([word(unxml(m[1])), ...args, ...(line ? [unxml(line[1])] : [])].join(' '));
  }
  for (const m of x.matchAll(/<delete\b([^>]{0,2000})\/?>/g)) {
    const target = /\b(?:dir|file)\s*=\s*"([^"]{1,1000})"/.exec(m[1]);
    if (target) out.push(`rm -rf ${word(unxml(target[1]))}`);
  }
  for (const m of x.matchAll(/<exec\b([^>]{0,2000})>([\s\S]{0,8000}?)<\/exec>/g)) {
    const exe = /\bexecutable\s*=\s*"([^"]{1,1000})"/.exec(m[1]);
    if (!exe) continue;
    const args = [...m[2].matchAll(/<arg\s+(value|line)\s*=\s*"([^"]{0,2000})"/g)].map((a) => (a[1] === 'line' ? unxml(a[2]) : word(unxml(a[2]))));
    out.push([word(unxml(exe[1])), ...args].join(' '));
  }
  return out.slice(0, 32);
}

/** The option value after `opt` (`-p DIR`, `--project-dir=DIR`). */
function optionValues(argv: string[], opts: readonly string[] | undefined): string[] {
  const out: string[] = [];
  if (!opts) return out;
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    const eq = a.indexOf('=');
    if (opts.includes(a) && argv[k + 1] !== undefined) out.push(argv[++k]);
    else if (a.startsWith('--') && eq > 0 && opts.includes(a.slice(0, eq))) out.push(a.slice(eq + 1));
  }
  return out;
}

export function buildFileEscapes(name: string, argv: string[], ctx: EscapeContext): Escape[] {
  const out: Escape[] = [];
  const files = ctx.filesIn;
  // Python packages: setup.py of the folder pip / build is pointed at.
  const builds = files && PY_BUILDER_PROGRAMS.test(name);
  const line = builds ? [name, ...argv.slice(1)].join(' ') : '';
  const py = builds ? PY_BUILDERS.find((b) => b.match.test(line)) : undefined;
  if (py && files) {
    const ops = argv.slice(1).filter((a, i, all) => !a.startsWith('-') || all[i - 1] === '-e');
    const target = ops.find((o) => /^(?:\.{1,2}|\.{0,2}\/.*|~.*)$/.test(o) && !/\.(?:whl|tar\.gz|zip|txt)$/.test(o)) ?? (py.dirFrom === 'cwd' ? '.' : undefined);
    if (target !== undefined) {
      const dir = posix.resolve(ctx.cwd, target.replace(/^~(?=\/|$)/, ctx.home));
      const text = ctx.fileText(posix.join(dir, 'setup.py'));
      if (text !== undefined) out.push({ lang: 'python', code: text.slice(0, MAX_TEXT), how: `${name} runs ${posix.join(target, 'setup.py')}`, cwd: dir });
    }
    return out;
  }
  const spec = Object.prototype.hasOwnProperty.call(BUILD_TOOLS, name) ? BUILD_TOOLS[name] : undefined;
  if (!spec) return out;
  const ops = argv.slice(1).filter((a) => !a.startsWith('-'));
  if (argv.slice(1).every((a) => /^(?:--version|-v|-V|--help|-h|-version)$/.test(a)) && argv.length > 1) return out;
  if (spec.sub && !spec.sub.includes(ops[0] ?? '')) return out;
  let dir = ctx.cwd;
  for (const d of optionValues(argv, spec.dirOptions)) dir = posix.resolve(ctx.cwd, d);
  const named = optionValues(argv, spec.fileOptions).map((f) => posix.resolve(ctx.cwd, f));
  if (name === 'cargo' && named.length) dir = posix.dirname(named[0]);
  // Maven: the exec plugin's command in -Dexec.executable / -Dexec.args, when an exec goal runs.
  if (spec.lang === 'maven') {
    if (named.length) dir = posix.dirname(named[0]);
    const prop = (p: string) => argv.find((a) => a.startsWith(`-D${p}=`))?.slice(p.length + 3);
    const exe = prop('exec.executable');
    if (exe && argv.some((a) => /^(?:[\w.-]+:)*exec(?::exec)?$/.test(a) && !a.startsWith('-'))) out.push({ lang: 'sh', code: `${q(mavenValue(exe, dir))} ${mavenValue(prop('exec.args') ?? '', dir)}`, how: `${name} exec:exec -Dexec.executable`, cwd: dir });
    const pom = ctx.fileText(named[0] ?? posix.join(dir, 'pom.xml'));
    if (pom !== undefined) for (const code of pomCommands(pom, dir)) out.push({ lang: 'sh', code, how: `${name} pom.xml plugin`, cwd: dir });
    return out;
  }
  if (spec.lang === 'cmake') {
    // cmake -E TOOL ...: the tool mode.
    const e = argv.indexOf('-E');
    if (e > 0) {
      const code = cmakeTool(argv.slice(e + 1));
      if (code) out.push({ lang: 'sh', code, how: 'cmake -E' });
      return out;
    }
    const p = optionValues(argv, ['-P']);
    let source = dir;
    let scripts: string[];
    if (p.length) scripts = p.map((f) => posix.resolve(ctx.cwd, f));
    else {
      if (argv.includes('--build') || argv.includes('--install') || argv.some((a) => a.startsWith('--build='))) return out;
      const s = optionValues(argv, ['-S']);
      const operand = argv.slice(1).find((a, i, all) => !a.startsWith('-') && !['-B', '-G', '-D', '-C', '-T', '-A', '-U', '-S'].includes(all[i - 1] ?? ''));
      source = posix.resolve(ctx.cwd, s[0] ?? operand ?? '.');
      scripts = (files?.(source) ?? []).map(([abs]) => abs).filter((abs) => spec.files.test(abs));
    }
    const build = posix.resolve(ctx.cwd, optionValues(argv, ['-B'])[0] ?? '.');
    const vars: Record<string, string> = { CMAKE_SOURCE_DIR: source, CMAKE_CURRENT_SOURCE_DIR: source, CMAKE_CURRENT_LIST_DIR: source, PROJECT_SOURCE_DIR: source, CMAKE_BINARY_DIR: build, CMAKE_CURRENT_BINARY_DIR: build, PROJECT_BINARY_DIR: build };
    for (const f of scripts.slice(0, MAX_FILES)) {
      const text = ctx.fileText(f);
      if (text === undefined) continue;
      for (const code of cmakeCommands(text.slice(0, MAX_TEXT), vars)) out.push({ lang: 'sh', code, how: `cmake ${posix.basename(f)}`, cwd: p.length ? ctx.cwd : build });
    }
    return out;
  }
  const rewrites = BUILD_REWRITES[spec.lang as keyof typeof BUILD_REWRITES] ?? [];
  const seen = new Set<string>();
  const code = (abs: string, text: string) => {
    if (seen.has(abs) || seen.size >= MAX_FILES) return;
    seen.add(abs);
    let t = text.slice(0, MAX_TEXT);
    for (const [re, to] of rewrites) t = t.replace(re, to);
    out.push({ lang: 'foreign', code: t, how: `${name} runs ${posix.relative(ctx.cwd, abs) || abs}`, cwd: dir });
  };
  for (const f of named) {
    const text = ctx.fileText(f);
    if (text !== undefined) code(f, text);
  }
  for (const [abs, text] of files?.(dir) ?? []) if (spec.files.test(abs)) code(abs, text);
  return out;
}
