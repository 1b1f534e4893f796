// loom install / uninstall --harness claude|codex|gemini|cursor|opencode
// [--scope project|user] [--dry-run]: merge loom's hooks into the harness's
// settings, keeping every existing key and hook, with a backup; uninstall
// removes exactly what install added.
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { addLoomHooks, removeLoomHooks, SettingsError } from '../../install/merge';
import { opencodePluginSource, PLUGIN_MARK, type PluginHarness } from '../../install/opencode-plugin';
import { claudeHttpEntry, limitToEvents, target, type InstallHarness, type Scope } from '../../install/targets';
import { loadRegistry } from '../../registry/load';
import { contractFor } from '../../contract/events';
import { FlagError, parseFlags, projectDirFrom } from '../flags';

const HARNESSES = ['claude', 'codex', 'gemini', 'cursor', 'opencode', 'kilo', 'copilot', 'qwen', 'droid', 'crush'];

function readSettings(file: string): Record<string, unknown> {
  if (!existsSync(file)) return {};
  const text = readFileSync(file, 'utf8');
  if (text.trim() === '') return {};
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new SettingsError(`${file}: not valid JSON (${(e as Error).message}); fix it before installing`);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new SettingsError(`${file}: $ must be a JSON object`);
  return doc as Record<string, unknown>;
}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function writeAtomic(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

function backup(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  const b = `${file}.loom-backup-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  copyFileSync(file, b);
  return b;
}

export function installCommand(argv: string[], remove = false): number {
  const flags = parseFlags(argv, { values: ['harness', 'scope', 'project-dir', 'mode', 'url'], booleans: ['dry-run', 'json'] });
  const mode = flags.values.mode ?? 'command';
  if (mode !== 'command' && mode !== 'http') throw new FlagError('--mode must be command or http');
  if (mode === 'http' && flags.values.harness !== 'claude') throw new FlagError('--mode http is for --harness claude (Claude Code http hooks)');
  const harness = flags.values.harness;
  if (!harness || !HARNESSES.includes(harness)) throw new FlagError(`--harness must be one of ${HARNESSES.join(', ')}`);
  const scope = (flags.values.scope ?? 'project') as Scope;
  if (scope !== 'project' && scope !== 'user') throw new FlagError('--scope must be project or user');
  const projectDir = resolve(projectDirFrom(flags));
  const runner = resolve(join(__dirname, '..', 'hooks', 'run-hook.js'));
  const dry = flags.booleans.has('dry-run');
  const verb = remove ? 'uninstall' : 'install';

  if (harness === 'opencode' || harness === 'kilo') {
    // Kilo Code loads plugins from .kilo/plugins (not .opencode/plugins) and ~/.config/kilo/plugins.
    const folder = harness === 'kilo' ? '.kilo' : '.opencode';
    const configHome = process.env.XDG_CONFIG_HOME || join(process.env.HOME ?? '', '.config');
    const file = scope === 'project' ? join(projectDir, folder, 'plugins', 'loom.js') : join(configHome, harness, 'plugins', 'loom.js');
    const source = opencodePluginSource(runner, harness as PluginHarness);
    const existing = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    const ours = existing !== undefined && existing.startsWith(PLUGIN_MARK);
    if (existing !== undefined && !ours) throw new SettingsError(`${file}: exists and was not written by loom; move it away before installing`);
    if (remove) {
      if (ours && !dry) unlinkSync(file);
      process.stdout.write(`${verb} ${harness}: ${ours ? `removed ${file}` : 'nothing to remove'}${dry ? ' (dry run)' : ''}\n`);
      return 0;
    }
    const same = existing === source;
    if (!same && !dry) writeAtomic(file, source);
    process.stdout.write(`${verb} ${harness}: ${same ? 'already installed' : `wrote ${file}`}${dry ? ' (dry run)' : ''}\n`);
    return 0;
  }

  limitToEvents(loadRegistry(join(__dirname, '..', 'config', 'hooks.json')).flatMap((d) => d.events.map((e) => contractFor(e)?.name ?? e)));
  const t = target(harness as InstallHarness, scope, projectDir);
  if (mode === 'http') {
    const base = flags.values.url ?? 'http://127.0.0.1:7077';
    if (!/^https?:\/\/[^\s/]+$/.test(base.replace(/\/+$/, ''))) throw new FlagError(`--url "${base}": expected http(s)://host:port`);
    t.entry = claudeHttpEntry(base);
  }
  const doc = readSettings(t.file);
  const changed = remove ? removeLoomHooks(doc, t, runner) : addLoomHooks(doc, t, runner);
  const text = JSON.stringify(doc, null, 2) + '\n';
  if (dry) {
    process.stdout.write(`${verb} ${harness} (${scope}): ${changed} hook entries would change in ${t.file}\n${text}`);
    return 0;
  }
  if (changed === 0) {
    process.stdout.write(`${verb} ${harness} (${scope}): nothing to change in ${t.file}\n`);
    return 0;
  }
  if (remove && t.ownFile && isObj(doc.hooks) && Object.keys(doc.hooks).length === 0 && Object.keys(doc).every((k) => k === 'hooks' || k === 'version')) {
    // loom's own file, now empty: it goes, as it came.
    unlinkSync(t.file);
    process.stdout.write(`${verb} ${harness} (${scope}): removed ${changed} hook entries and ${t.file}, which held only loom's hooks\n`);
    return 0;
  }
  const b = backup(t.file);
  writeAtomic(t.file, text);
  process.stdout.write(`${verb} ${harness} (${scope}): ${remove ? 'removed' : 'added'} ${changed} hook entries in ${t.file}${b ? ` (backup: ${b})` : ''}\n`);
  if (mode === 'http' && !remove) process.stdout.write('note: start the server with `loom serve` and export LOOM_SERVE_TOKEN where Claude Code runs (the same token the server reads).\n');
  if (t.note && !remove) process.stdout.write(`note: ${t.note}\n`);
  if (harness === 'codex' && !remove) process.stdout.write('note: Codex runs project hooks only in a trusted project and after /hooks trust (or --dangerously-bypass-hook-trust).\n');
  return 0;
}

export const uninstallCommand = (argv: string[]) => installCommand(argv, true);
