// loom install / uninstall --harness claude|codex|gemini|cursor|opencode|kilo|copilot|qwen|droid|crush
// [--scope project|user|managed] [--dry-run]: merge loom's hooks into the
// harness's settings, keeping every existing key and hook, with a backup;
// uninstall removes exactly what install added, and gives back the original
// bytes when nothing else changed since.
import { copyFileSync, existsSync, lstatSync, readdirSync, readFileSync, realpathSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { addLoomHooks, removeLoomHooks, SettingsError } from '../../install/merge';
import { addLoomRequirements, removeLoomRequirements } from '../../install/codex-requirements';
import { opencodePluginSource, PLUGIN_MARK, type PluginHarness } from '../../install/opencode-plugin';
import { claudeHttpEntry, limitToEvents, runnerLocation, ScopeError, target, type InstallHarness, type Scope, type Target } from '../../install/targets';
import { PACKAGE_NAME, type RunnerLocation } from '../../install/hook-command';
import { managedRunner, userRunner } from '../../install/global-install';
import { parseRelaxedJson, stripJsonComments } from '../../util/jsonc';
import { loadRegistry } from '../../registry/load';
import { contractFor } from '../../contract/events';
import { projectFolderProblem } from '../../runner/project-dir';
import { FlagError, parseFlags, projectDirFrom } from '../flags';
import { paint, tone } from '../output';
import { mkdirBounded } from '../../util/bounded-mkdir';

export const HARNESSES = ['claude', 'codex', 'gemini', 'cursor', 'opencode', 'kilo', 'copilot', 'qwen', 'droid', 'crush'];
const SCOPES: Scope[] = ['project', 'user', 'managed'];

export const packRoot = () => resolve(join(__dirname, '..'));
export const packRunner = () => join(packRoot(), 'hooks', 'run-hook.js');

/** Harnesses whose settings file is JSON with comments and trailing commas (Gemini CLI and its fork Qwen Code read it so). */
const COMMENTED_SETTINGS = new Set(['gemini', 'qwen']);

function readSettings(file: string, relaxed = false, verb = 'installing'): Record<string, unknown> {
  if (!existsSync(file)) return {};
  const text = readFileSync(file, 'utf8');
  if (text.trim() === '') return {};
  let doc: unknown;
  try {
    doc = relaxed ? parseRelaxedJson(text) : JSON.parse(text);
  } catch (e) {
    throw new SettingsError(`${file}: not valid JSON (${(e as Error).message}); fix it before ${verb}`);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new SettingsError(`${file}: $ must be a JSON object`);
  return doc as Record<string, unknown>;
}

const hasComments = (text: string) => text.includes('/') && stripJsonComments(text) !== text;

export function writeAtomic(path: string, text: string): void {
  // A settings file that is a link (to a dotfiles repository, a shared file) stays one: the file it names is rewritten.
  let file = path;
  try {
    if (lstatSync(path).isSymbolicLink()) file = realpathSync(path);
  } catch {
    // absent (a new file) or a dangling link: written where it is named
  }
  mkdirBounded(dirname(file));
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/**
 * Backups of project files go to .loom/backups/ (ignored by git, out of the
 * harness's folders); a user or managed file's backup stays beside it.
 */
function backupPlace(file: string, projectDir: string): { dir: string; prefixes: string[]; inProject: boolean } {
  const rel = relative(projectDir, file);
  if (!rel.startsWith('..') && !rel.startsWith(sep) && rel !== '') {
    const flat = rel.split(sep).join('__');
    // `backup-of-` keeps `.claude__…` from being a hidden file nobody sees in `ls` (finding A22); the bare name is
    // how earlier versions wrote them, still read back.
    return { dir: join(projectDir, '.loom', 'backups'), prefixes: [`backup-of-${flat}.`, `${flat}.`], inProject: true };
  }
  return { dir: dirname(file), prefixes: [`${basename(file)}.loom-backup-`], inProject: false };
}

function backup(file: string, projectDir: string): string | undefined {
  if (!existsSync(file)) return undefined;
  const { dir, prefixes, inProject } = backupPlace(file, projectDir);
  mkdirBounded(dir);
  // The backups folder ignores itself: it never shows in git status, with or without loom init's .gitignore lines.
  if (inProject && !existsSync(join(dir, '.gitignore'))) writeFileSync(join(dir, '.gitignore'), '# loom install backups: local copies, never committed\n*\n');
  const b = join(dir, `${prefixes[0]}${new Date().toISOString().replace(/[:.]/g, '-')}`);
  copyFileSync(file, b);
  return b;
}

function latestBackup(file: string, projectDir: string): string | undefined {
  const { dir, prefixes } = backupPlace(file, projectDir);
  let found: { name: string; stamp: string }[];
  try {
    found = readdirSync(dir).flatMap((n) => {
      const p = prefixes.find((x) => n.startsWith(x));
      return p ? [{ name: n, stamp: n.slice(p.length) }] : [];
    });
  } catch {
    return undefined;
  }
  found.sort((a, b) => (a.stamp < b.stamp ? -1 : a.stamp > b.stamp ? 1 : 0));
  return found.length ? join(dir, found[found.length - 1].name) : undefined;
}

const isEmptySettings = (doc: Record<string, unknown>) => Object.keys(doc).every((k) => (k === 'hooks' && JSON.stringify(doc.hooks) === '{}') || (k === 'version' && doc.version === 1));

export interface InstallOptions {
  harness: string;
  scope: Scope;
  projectDir: string;
  remove?: boolean;
  dryRun?: boolean;
  mode?: 'command' | 'http';
  url?: string;
}

export interface InstallResult {
  file: string;
  changed: number;
  /** One line for the user. */
  line: string;
  notes: string[];
  /** Settings text a dry run would write. */
  preview?: string;
}

export function installHarness(o: InstallOptions): InstallResult {
  const { harness, scope, projectDir } = o;
  const remove = Boolean(o.remove);
  const dry = Boolean(o.dryRun);
  const verb = remove ? 'uninstall' : 'install';
  const suffix = dry ? ' (dry run)' : '';
  let where = runnerLocation(scope, packRunner(), projectDir);
  const notes: string[] = [];
  if (scope === 'user' && !remove && o.mode !== 'http') {
    const u = userRunner(packRoot());
    if (u) {
      where = { kind: 'absolute', runner: u.runner };
      if (u.note) notes.push(u.note);
    }
  }

  if (harness === 'opencode' || harness === 'kilo') {
    if (scope === 'managed') throw new ScopeError(`--scope managed: ${harness} has no managed settings file loom knows of; use --scope user or project`);
    // Kilo Code loads plugins from .kilo/plugins (not .opencode/plugins) and ~/.config/kilo/plugins.
    const folder = harness === 'kilo' ? '.kilo' : '.opencode';
    const configHome = process.env.XDG_CONFIG_HOME || join(process.env.HOME ?? '', '.config');
    const file = scope === 'project' ? join(projectDir, folder, 'plugins', 'loom.js') : join(configHome, harness, 'plugins', 'loom.js');
    const source = opencodePluginSource(where, harness as PluginHarness);
    const existing = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    const ours = existing !== undefined && existing.startsWith(PLUGIN_MARK);
    if (existing !== undefined && !ours) throw new SettingsError(`${file}: exists and was not written by loom; move it away before installing`);
    if (remove) {
      if (ours && !dry) unlinkSync(file);
      return { file, changed: ours ? 1 : 0, line: `${verb} ${harness}: ${ours ? `removed ${file}` : 'nothing to remove'}${suffix}`, notes };
    }
    const same = existing === source;
    if (!same && !dry) writeAtomic(file, source);
    return { file, changed: same ? 0 : 1, line: `${verb} ${harness}: ${same ? 'already installed' : `wrote ${file}`}${suffix}`, notes };
  }

  limitToEvents(loadRegistry(join(packRoot(), 'config', 'hooks.json')).flatMap((d) => d.events.map((e) => contractFor(e)?.name ?? e)));
  const t = target(harness as InstallHarness, scope, projectDir);
  if (o.mode === 'http') t.entry = claudeHttpEntry(o.url ?? 'http://127.0.0.1:7077');
  // Managed settings run for every project on the machine: they name the global install (checked), never
  // the node_modules of the project this command happens to run from. Removing needs no runner.
  if (scope === 'managed' && !remove && o.mode !== 'http') {
    const m = managedRunner(packRoot());
    where = { kind: 'managed', runner: m.runner };
    if (m.note) notes.push(m.note);
  }
  if (harness === 'codex' && scope === 'managed') return codexManaged(t, where, remove, dry, projectDir, notes);
  const relaxed = COMMENTED_SETTINGS.has(harness);
  const doc = readSettings(t.file, relaxed, remove ? 'uninstalling' : 'installing');
  // JSON.stringify cannot keep comments: the backup keeps them, and the user is told.
  if (relaxed && existsSync(t.file) && hasComments(readFileSync(t.file, 'utf8'))) notes.push(`${t.file} had comments, which the rewritten file does not keep (the backup has them)`);
  const changed = remove ? removeLoomHooks(doc, t) : addLoomHooks(doc, t, where) + (harness === 'gemini' && scope === 'managed' ? pinGeminiHooksOn(doc, t.file) : 0);
  const text = JSON.stringify(doc, null, 2) + '\n';
  const head = `${verb} ${harness} (${scope})`;
  // What removing does to the file, decided before a dry run so that the preview shows what the real run would do.
  // The original bytes come back when the file holds exactly what it held before install; a file loom created
  // and that holds nothing else is deleted.
  let restored: string | undefined;
  let deletes = false;
  if (remove && changed > 0) {
    const b = latestBackup(t.file, projectDir);
    if (b) {
      const old = readFileSync(b, 'utf8');
      try {
        if (JSON.stringify(withoutEmptyHooks(relaxed ? parseRelaxedJson(old) : JSON.parse(old))) === JSON.stringify(withoutEmptyHooks(doc))) restored = old;
      } catch {
        // a backup that is not JSON is not the file's original
      }
    }
    deletes = restored === undefined && !b && isEmptySettings(doc);
  }
  if (dry) {
    if (restored !== undefined) return { file: t.file, changed, line: `${head}: ${changed} hook entries would be removed; ${t.file} would get its original bytes back from the backup`, notes, preview: restored };
    if (deletes) return { file: t.file, changed, line: `${head}: ${changed} hook entries would be removed; ${t.file} would be deleted (loom created it and it holds nothing else)`, notes };
    return { file: t.file, changed, line: `${head}: ${changed} hook entries would change in ${t.file}`, notes, preview: text };
  }
  if (changed === 0) return { file: t.file, changed, line: `${head}: nothing to change in ${t.file}`, notes };
  if (remove) {
    // A file that is not given back byte for byte is backed up before it is rewritten or removed, as install does.
    const before = restored === undefined ? backup(t.file, projectDir) : undefined;
    if (restored !== undefined) writeAtomic(t.file, restored);
    else if (deletes) unlinkSync(t.file);
    else writeAtomic(t.file, text);
    return { file: t.file, changed, line: `${head}: removed ${changed} hook entries from ${t.file}${restored !== undefined ? ' (original restored byte for byte)' : before ? ` (backup: ${before})` : ''}`, notes };
  }
  const b = backup(t.file, projectDir);
  writeAtomic(t.file, text);
  if (o.mode === 'http') notes.push('start the server with `loom serve` and export LOOM_SERVE_TOKEN where Claude Code runs (the same token the server reads).');
  if (t.note) notes.push(t.note);
  if (harness === 'codex') notes.push('Codex runs project hooks only in a trusted project and after /hooks trust (or --dangerously-bypass-hook-trust).');
  if (scope === 'managed') notes.push(MANAGED_NOTE(where, harness));
  return { file: t.file, changed, line: `${head}: added or updated ${changed} hook entries in ${t.file}${b ? ` (backup: ${b})` : ''}`, notes };
}

/**
 * Gemini CLI merges system settings last, so a scalar set there beats the
 * user's: hooksConfig.enabled = true there stops a user's
 * hooksConfig.enabled = false from switching every hook off (checked with
 * Gemini CLI 0.61.0). Returns 1 when it set it.
 */
function pinGeminiHooksOn(doc: Record<string, unknown>, file: string): number {
  const hc = doc.hooksConfig ?? {};
  if (hc === null || typeof hc !== 'object' || Array.isArray(hc)) throw new SettingsError(`${file}: $.hooksConfig is not an object; fix it before installing`);
  const c = hc as Record<string, unknown>;
  if (c.enabled === true) return 0;
  if (c.enabled === false) throw new SettingsError(`${file}: $.hooksConfig.enabled is false, which switches every hook off; remove it first`);
  doc.hooksConfig = { ...c, enabled: true };
  return 1;
}

const MANAGED_NOTE = (where: RunnerLocation, harness: string) =>
  `managed settings apply to every user and project of this machine and cannot be switched off from their own settings; they run ${'runner' in where ? where.runner : packRunner()} (the global install): keep it installed, upgrade it with sudo npm install -g ${PACKAGE_NAME}.${harness === 'claude' ? " A project's own loom hooks yield to them on this machine, so each event is recorded once." : ''}`;

/** Codex's managed hooks live in requirements.toml: a marked block loom adds and takes out, the rest of the file untouched. */
function codexManaged(t: Target, where: RunnerLocation, remove: boolean, dry: boolean, projectDir: string, pre: string[]): InstallResult {
  const verb = remove ? 'uninstall' : 'install';
  const head = `${verb} codex (managed)`;
  const old = existsSync(t.file) ? readFileSync(t.file, 'utf8') : '';
  let text: string;
  let changed: number;
  if (remove) {
    const r = removeLoomRequirements(old);
    text = r.text;
    changed = r.removed ? t.events.length : 0;
  } else {
    text = addLoomRequirements(old, t.events.map((event) => ({ event, command: (t.entry(event, where) as { command: string }).command, timeout: 30 })), t.file);
    changed = text === old ? 0 : t.events.length;
  }
  if (dry && remove && changed > 0 && text === '') return { file: t.file, changed, line: `${head}: loom's block would be removed; ${t.file} would be deleted (it holds nothing else) (dry run)`, notes: pre };
  if (dry) return { file: t.file, changed, line: `${head}: ${changed} hook entries would change in ${t.file} (dry run)`, notes: pre, preview: text };
  if (changed === 0) return { file: t.file, changed, line: `${head}: nothing to change in ${t.file}`, notes: [] };
  if (remove) {
    if (text === '') unlinkSync(t.file);
    else writeAtomic(t.file, text);
    return { file: t.file, changed, line: `${head}: removed loom's block from ${t.file}`, notes: [] };
  }
  const b = backup(t.file, projectDir);
  writeAtomic(t.file, text);
  return {
    file: t.file,
    changed,
    line: `${head}: added or updated ${changed} hook entries in ${t.file}${b ? ` (backup: ${b})` : ''}`,
    notes: [...pre, MANAGED_NOTE(where, 'codex'), 'Codex runs managed hooks without the hook-trust step; [features] hooks = true makes Codex refuse a user setting that would switch hooks off.'],
  };
}

export const INSTALL_FLAGS = { values: ['harness', 'scope', 'project-dir', 'mode', 'url'], booleans: ['dry-run'] };

export function installCommand(argv: string[], remove = false): number {
  const flags = parseFlags(argv, INSTALL_FLAGS);
  const mode = flags.values.mode ?? 'command';
  if (mode !== 'command' && mode !== 'http') throw new FlagError('--mode must be command or http');
  if (mode === 'http' && flags.values.harness !== 'claude') throw new FlagError('--mode http is for --harness claude (Claude Code http hooks)');
  const harness = flags.values.harness;
  if (!harness || !HARNESSES.includes(harness)) throw new FlagError(`--harness must be one of ${HARNESSES.join(', ')}`);
  const scope = (flags.values.scope ?? 'project') as Scope;
  if (!SCOPES.includes(scope)) throw new FlagError(`--scope must be one of ${SCOPES.join(', ')}`);
  const url = flags.values.url;
  if (url !== undefined && !/^https?:\/\/[^\s/]+$/.test(url.replace(/\/+$/, ''))) throw new FlagError(`--url "${url}": expected http(s)://host:port`);
  const projectDir = resolve(projectDirFrom(flags));
  // Project settings go into an existing project folder: a mistyped --project-dir is not created, / and /etc are no project.
  const problem = scope === 'project' ? projectFolderProblem(projectDir) : undefined;
  if (problem) throw new FlagError(`${flags.values['project-dir'] !== undefined ? '--project-dir: ' : ''}${problem}`);
  const r = installHarness({ harness, scope, projectDir, remove, dryRun: flags.booleans.has('dry-run'), mode, url });
  // The head (`install claude (project)`) in bold, dim when nothing changed; notes in the note tone.
  const line = r.line.replace(/^[^:]+/, (head) => paint(r.changed ? 'bold' : 'dim', head));
  process.stdout.write(`${line}\n${r.preview ?? ''}${r.notes.map((n) => `${tone('note')}: ${n}\n`).join('')}`);
  return 0;
}

export const uninstallCommand = (argv: string[]) => installCommand(argv, true);

/**
 * A settings document with the `hooks` install made and uninstall emptied taken out (an empty event list, an empty
 * `hooks` object): a file that had no `hooks` before install holds exactly what it held once loom's are removed.
 */
function withoutEmptyHooks(doc: unknown): unknown {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return doc;
  const d = doc as Record<string, unknown>;
  const hooks = d.hooks;
  if (hooks === null || typeof hooks !== 'object' || Array.isArray(hooks)) return doc;
  const kept = Object.fromEntries(Object.entries(hooks as Record<string, unknown>).filter(([, v]) => !(Array.isArray(v) && v.length === 0)));
  const { hooks: _dropped, ...rest } = d;
  void _dropped;
  return Object.keys(kept).length ? { ...rest, hooks: kept } : rest;
}
