// Task files written earlier on the line and then run by their task runner
// (tables/build-files.ts TASK_FILES): a Rakefile, noxfile.py or gulpfile.js is
// code in its language; Ant and MSBuild XML, tox.ini and pre-commit's local
// hooks hold shell commands. Each is handed back as an escape, judged as the
// code or the script it is. Only files whose text is known on the line are read.
import { posix } from 'node:path';
import type { Escape, EscapeContext } from './escapes';
import { MSBUILD_FILES, TASK_FILES, type TaskFile } from './tables/build-files';

const MAX_TEXT = 64 * 1024;
const MAX_COMMANDS = 64;

const XML_ENTITIES: Record<string, string> = { quot: '"', apos: "'", amp: '&', lt: '<', gt: '>' };
const xml = (s: string) => s.replace(/&(quot|apos|amp|lt|gt);/g, (_m, e: string) => XML_ENTITIES[e]);
const sq = (s: string) => (/^[\w@%+=:,./~-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** One attribute of an XML start tag. */
const attr = (tag: string, name: string) => new RegExp(`\\b${name}\\s*=\\s*"([^"]{0,4000})"`, 'i').exec(tag)?.[1];

/** Ant: `<delete dir|file="X"/>` and `<exec executable="X"><arg value|line="..."/></exec>`; `${user.home}` is the home folder. */
function antCommands(text: string, dir: string): string[] {
  const prop = (s: string) => xml(s).replace(/\$\{(?:user\.home|env\.HOME)\}/g, '~').replace(/\$\{basedir\}/g, dir);
  const out: string[] = [];
  for (const m of text.matchAll(/<(delete|exec)\b([^>]{0,4000})>/gi)) {
    if (out.length >= MAX_COMMANDS) break;
    const tag = m[2];
    if (m[1].toLowerCase() === 'delete') {
      const d = attr(tag, 'dir');
      const f = attr(tag, 'file');
      if (d !== undefined) out.push(`rm -rf ${sq(prop(d))}`);
      if (f !== undefined) out.push(`rm -f ${sq(prop(f))}`);
      continue;
    }
    const exe = attr(tag, 'executable');
    if (exe === undefined) continue;
    const end = text.indexOf('</exec>', m.index);
    const body = tag.trimEnd().endsWith('/') || end < 0 ? '' : text.slice(m.index + m[0].length, end);
    const args = [...body.matchAll(/<arg\b([^>]{0,4000})>/gi)].map((a) => {
      const v = attr(a[1], 'value');
      const line = attr(a[1], 'line');
      return v !== undefined ? sq(prop(v)) : line !== undefined ? prop(line) : '';
    });
    out.push([sq(prop(exe)), ...args].join(' '));
  }
  return out;
}

/** MSBuild: `<Exec Command="..."/>`, `<RemoveDir Directories="a;b"/>`, `<Delete Files="..."/>`; `$(HOME)` and the project's folder known. */
function msbuildCommands(text: string, dir: string): string[] {
  const prop = (s: string) => xml(s).replace(/\$\((?:HOME|USERPROFILE)\)/gi, '~').replace(/\$\((?:MSBuildProjectDirectory|MSBuildThisFileDirectory)\)\/?/gi, dir + '/');
  const out: string[] = [];
  for (const m of text.matchAll(/<(Exec|RemoveDir|Delete)\b([^>]{0,8000})>/g)) {
    if (out.length >= MAX_COMMANDS) break;
    if (m[1] === 'Exec') {
      const c = attr(m[2], 'Command');
      if (c !== undefined) out.push(prop(c));
    } else {
      const v = attr(m[2], m[1] === 'RemoveDir' ? 'Directories' : 'Files');
      if (v !== undefined) out.push(`rm ${m[1] === 'RemoveDir' ? '-rf' : '-f'} ${prop(v).split(';').filter(Boolean).map(sq).join(' ')}`);
    }
  }
  return out;
}

/** tox.ini: every `commands` (and `_pre` / `_post`) line, continuation lines included; `{homedir}` and `{toxinidir}` known. */
function toxCommands(text: string, dir: string): string[] {
  const out: string[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length && out.length < MAX_COMMANDS; i++) {
    const m = /^\s*commands(?:_pre|_post)?\s*=\s*(.*)$/.exec(lines[i]);
    if (!m) continue;
    const cmds = m[1].trim() ? [m[1]] : [];
    while (i + 1 < lines.length && /^[ \t]+\S/.test(lines[i + 1])) cmds.push(lines[++i].trim());
    for (const c of cmds) out.push(c.replace(/\{homedir\}/g, '~').replace(/\{toxinidir\}|\{tox_root\}/g, dir).replace(/\{[\w:/.-]*\}/g, '"$TOX_VALUE"'));
  }
  return out;
}

/** pre-commit: the `entry:` of a local hook runs as a command (on the files it is given). */
function preCommitCommands(text: string): string[] {
  if (!/\brepo\s*:\s*local\b/.test(text)) return [];
  return [...text.matchAll(/^\s*-?\s*entry\s*:\s*(.+)$/gm)].slice(0, MAX_COMMANDS).map((m) => m[1].trim().replace(/^(["'])(.*)\1$/, '$2'));
}

/** Python task files: the runners' own calls that run a command, as the calls the Python analysis knows. */
function pythonTasks(text: string): string {
  return (
    'import os\n' +
    text
      // nox: session.run('rm', '-rf', x) takes an argv.
      .replace(/\bsession\.(?:run|run_always|run_install)\s*\(/g, "os.execlp('nox', ")
      // invoke / fabric: c.run("cmd"), c.sudo("cmd"), local("cmd").
      .replace(/\b(?:c|ctx|context|conn|connection|cxn)\.(?:run|sudo|local)\s*\(|(?<![\w.])(?:local|run|sudo)\s*\((?=\s*["'])/g, 'os.system(')
  );
}

/** doit: the strings of an `actions` list are shell commands. */
function doitActions(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/["']actions["']\s*:\s*\[([^\]]{0,4000})\]/g)) for (const s of m[1].matchAll(/(["'])((?:(?!\1)[^\\\n]|\\.){1,2000})\1/g)) out.push(s[2]);
  return out.slice(0, MAX_COMMANDS);
}

function taskSpec(name: string, argv: string[]): [string, TaskFile] | undefined {
  const two = `${name} ${argv[1] ?? ''}`;
  if (Object.hasOwn(TASK_FILES, two)) return [two, TASK_FILES[two]];
  return Object.hasOwn(TASK_FILES, name) ? [name, TASK_FILES[name]] : undefined;
}

export function taskFileEscapes(name: string, argv: string[], ctx: EscapeContext): Escape[] {
  const found = taskSpec(name, argv);
  if (!found) return [];
  const [runner, spec] = found;
  const args = argv.slice(runner.split(' ').length);
  if (args.length && args.every((a) => /^(?:--version|-V|--help|-h|-version|-help)$/.test(a))) return [];
  if (spec.sub && !spec.sub.includes(args.find((a) => !a.startsWith('-')) ?? '')) return [];
  // The file: named by an option (`-f FILE`, `--rakefile=FILE`, `-buildfile FILE`), an operand (MSBuild), or the default.
  let named: string | undefined;
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    const eq = a.indexOf('=');
    if (spec.fileOptions.includes(a) && args[k + 1] !== undefined) named = args[++k];
    else if (eq > 0 && spec.fileOptions.includes(a.slice(0, eq))) named = a.slice(eq + 1);
    else if (spec.format === 'msbuild' && !a.startsWith('-') && !/^\/[a-zA-Z]+[:=]/.test(a) && MSBUILD_FILES.test(a)) named = a;
  }
  const abs = (f: string) => posix.resolve(ctx.cwd, f.replace(/^~(?=\/|$)/, ctx.home));
  const candidates = named !== undefined ? [abs(named)] : spec.format === 'msbuild' ? (ctx.filesIn?.(ctx.cwd) ?? []).map(([f]) => f).filter((f) => posix.dirname(f) === ctx.cwd && MSBUILD_FILES.test(f)) : spec.files.map((f) => posix.join(ctx.cwd, f));
  const out: Escape[] = [];
  for (const file of candidates.slice(0, 4)) {
    const raw = ctx.fileText(file);
    if (raw === undefined) continue;
    const text = raw.slice(0, MAX_TEXT);
    const dir = posix.dirname(file);
    const how = `${runner} runs ${posix.relative(ctx.cwd, file) || file}`;
    const sh = (cmds: string[]) => cmds.filter((c) => c.trim()).forEach((code) => out.push({ lang: 'sh', code, how, cwd: dir }));
    switch (spec.format) {
      case 'ruby':
      case 'node':
        out.push({ lang: spec.format, code: text, how, cwd: dir });
        break;
      case 'python':
        out.push({ lang: 'python', code: pythonTasks(text), how, cwd: dir });
        if (runner === 'doit') sh(doitActions(text));
        break;
      case 'ant':
        sh(antCommands(text, dir));
        break;
      case 'msbuild':
        sh(msbuildCommands(text, dir));
        break;
      case 'tox':
        sh(toxCommands(text, dir));
        break;
      case 'pre-commit':
        sh(preCommitCommands(text));
        break;
    }
  }
  return out;
}
