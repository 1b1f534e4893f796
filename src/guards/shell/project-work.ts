// The project's own work (tables/project.ts): a top-level source folder
// deleted whole, a manifest deleted, a source file emptied or shredded.
// git can give back what was committed, not what the agent and the
// developer wrote since, so these ask (`rm-project-source`,
// `empty-project-file`); build outputs, logs and files that are empty by
// convention stay everyday work.
import { posix } from 'node:path';
import type { Analyzer } from './analyze';
import { globMatch } from './glob';
import { EMPTY_BY_CONVENTION, PROJECT_MANIFESTS, PROJECT_OUTPUT_DIRS, PROJECT_SOURCE_DIRS, SOURCE_EXTENSIONS } from './tables/project';

const SOURCE_DIRS = new Set(PROJECT_SOURCE_DIRS);
const MANIFESTS = new Set(PROJECT_MANIFESTS);
const EXTENSIONS = new Set(SOURCE_EXTENSIONS);
const EMPTY_OK = new Set(EMPTY_BY_CONVENTION);
const OUTPUTS = new Set(PROJECT_OUTPUT_DIRS);

export type WorkKind = 'source-folder' | 'manifest' | 'source-file';

/** Path parts of `abs` below the project root, or undefined outside it (and for the root itself). */
function partsIn(abs: string, projectDir: string): string[] | undefined {
  if (!abs.startsWith(projectDir + '/')) return undefined;
  const parts = abs.slice(projectDir.length + 1).split('/').filter(Boolean);
  return parts.length ? parts : undefined;
}

/** What of the project's work `abs` is, judged by its name (no disk: a team server judges paths it does not have). */
export function workKind(abs: string, projectDir: string): WorkKind | undefined {
  const parts = partsIn(abs, projectDir);
  if (!parts) return undefined;
  // Outputs, and hidden folders at the top (.git, .venv, .github: judged by their own rules).
  if (parts.some((p) => OUTPUTS.has(p)) || (parts.length > 1 && parts[0].startsWith('.'))) return undefined;
  if (parts.length === 1 && SOURCE_DIRS.has(parts[0])) return 'source-folder';
  if (parts.length === 1 && MANIFESTS.has(parts[0])) return 'manifest';
  const base = parts[parts.length - 1];
  if (EMPTY_OK.has(base)) return undefined;
  const dot = base.lastIndexOf('.');
  if (dot > 0 && EXTENSIONS.has(base.slice(dot + 1).toLowerCase())) return 'source-file';
  return undefined;
}

/** Sample names a glob in `dir` is tried against: one file of each source extension, and the manifests at the root. */
function samplesIn(dir: string, projectDir: string): string[] {
  const out = SOURCE_EXTENSIONS.map((e) => `main.${e}`);
  if (dir === projectDir) out.push(...PROJECT_MANIFESTS, ...PROJECT_SOURCE_DIRS);
  return out;
}

/**
 * The work a path names: the path itself, or for a glob (`src/*.ts`, `*`) the first sample of the
 * project's work its last part can match in its folder.
 */
export function workNamed(text: string, abs: string, globbed: boolean, projectDir: string, kinds: readonly WorkKind[]): { kind: WorkKind; what: string } | undefined {
  if (!globbed) {
    const kind = workKind(abs, projectDir);
    return kind && kinds.includes(kind) ? { kind, what: abs } : undefined;
  }
  if (abs !== projectDir && !workKindOfFolder(abs, projectDir)) return undefined;
  const last = text.replace(/\/+$/, '').split('/').pop() ?? '';
  if (!last || /[/]/.test(last)) return undefined;
  for (const name of samplesIn(abs, projectDir)) {
    if (!globMatch(last, name)) continue;
    const p = posix.join(abs, name);
    const kind = workKind(p, projectDir);
    if (kind && kinds.includes(kind)) return { kind, what: `${p} (through the glob ${text})` };
  }
  return undefined;
}

/** A folder inside the project that is not an output (its files are work). */
function workKindOfFolder(abs: string, projectDir: string): boolean {
  const parts = partsIn(abs, projectDir);
  return !!parts && !parts.some((p) => OUTPUTS.has(p)) && !parts[0].startsWith('.');
}

/**
 * A recursive delete (or a move onto /dev/null) of a top-level source folder, or of its contents
 * through a glob that matches files of any kind (`rm -rf src/*`). Manifests deleted are not here:
 * agents remove and rewrite them (a `setup.py` they made), and git has them.
 */
export function deletesWork(a: Analyzer, text: string, abs: string, globbed: boolean, segment: string, verb: string): void {
  // A glob at the project root that names a source folder (`rm -rf ./s?c ./te*s`): that folder (broad globs there are the root's own rule).
  if (globbed && abs === a.opts.projectDir) {
    const last = text.replace(/\/+$/, '').split('/').pop() ?? '';
    const named = PROJECT_SOURCE_DIRS.find((d) => globMatch(last, d));
    if (named && PROJECT_SOURCE_DIRS.filter((d) => globMatch(last, d)).length <= 2) a.hit('rm-project-source', 'ask', segment, `${verb} the source folder ${posix.join(abs, named)} (through the glob ${text}): work since the last commit is lost with it`);
    // Across the project's folders (`**/*.ts`, `*/*.go`): every source file of a language, the project's work.
    else if (/[*?[][^/]*\//.test(text) && SOURCE_EXTENSIONS.some((e) => globMatch(last, `main.${e}`))) a.hit('rm-project-source', 'ask', segment, `${verb} the project's source files across its folders (through the glob ${text}): work since the last commit is lost with them`);
    return;
  }
  const kind = workKind(abs, a.opts.projectDir);
  if (kind !== 'source-folder') return;
  if (globbed) {
    // `rm -rf src/*.js` names one kind of file; `src/*`, `src/*.*` name them all.
    const last = text.replace(/\/+$/, '').split('/').pop() ?? '';
    if (SOURCE_EXTENSIONS.filter((e) => globMatch(last, `main.${e}`)).length < 3) return;
    a.hit('rm-project-source', 'ask', segment, `${verb} the contents of the source folder ${abs} (through the glob ${text}): work since the last commit is lost with it`);
    return;
  }
  a.hit('rm-project-source', 'ask', segment, `${verb} the source folder ${abs}: work since the last commit is lost with it`);
}

/** A source file or manifest emptied, overwritten with nothing, or shredded. */
export function emptiesWork(a: Analyzer, text: string, abs: string, globbed: boolean, segment: string, verb: string): void {
  // A source folder stands for every file in it (`find src -type f -exec truncate -s0 {} +`).
  const w = workNamed(text, abs, globbed, a.opts.projectDir, ['manifest', 'source-file', 'source-folder']);
  if (!w) return;
  a.hit('empty-project-file', 'ask', segment, `${verb} ${w.what}, ${w.kind === 'manifest' ? 'a manifest' : w.kind === 'source-folder' ? 'the source files under it' : 'a source file'} of the project: the content is gone, not only changed`);
}
