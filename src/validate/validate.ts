// loom validate (seed 001): find every hook configuration in seed 001's
// order, read its dialect (claude, codex, opencode, native) into matcher
// groups, and report diagnostics with file and JSON location. It also says,
// per harness found, whether loom's hooks are wired and whether
// disableAllHooks is on. Regex matchers are compiled and checked for
// catastrophic backtracking, never run against input.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isKnownEvent } from '../contract/events';
import { assertLinearRegex } from '../policy/patterns';
import { loadRegistry, RegistryError } from '../registry/load';
import { parseRelaxedJson } from '../util/jsonc';
import { loadPolicy, PolicyError } from '../policy/policy';

export type Dialect = 'claude' | 'codex' | 'opencode' | 'native' | 'loom' | 'flat' | 'plugin' | 'policy';

export interface Diagnostic {
  severity: 'error' | 'warning';
  file: string;
  location: { event?: string; group?: number; hook?: number; path: string };
  message: string;
}

export interface MatcherGroup {
  dialect: Dialect;
  file: string;
  event: string;
  matcher?: string;
  /** claude/native: exact alternatives; codex/opencode: unanchored regex. */
  mode: 'all' | 'exact' | 'regex';
  alternatives?: string[];
  hooks: { type: string; command?: string; url?: string; prompt?: string; timeout?: number }[];
}

export interface ConfigFile {
  file: string;
  dialect: Dialect;
  scope: 'user' | 'project' | 'local' | 'pack';
  /** The harness that reads this file (the dialect's own name when absent). */
  harness?: string;
}

export interface ValidateResult {
  files: { file: string; dialect: Dialect; found: boolean }[];
  groups: MatcherGroup[];
  diagnostics: Diagnostic[];
  harnesses: { harness: string; file: string; loomWired: boolean; disableAllHooks: boolean; skippedInPromptMode?: boolean }[];
  disableAllHooks: boolean;
}

/** Copilot CLI's hook files: every *.json in its hooks folder. */
function copilotFiles(dir: string, scope: ConfigFile['scope']): ConfigFile[] {
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json')).sort();
  } catch {
    names = ['loom.json'];
  }
  return names.map((n) => ({ file: join(dir, n), dialect: 'flat' as const, scope, harness: 'copilot' }));
}

/** Seed 001's discovery order (global, then project, then local), then the other harnesses' files. */
export function discover(projectDir: string, packRoot: string, env: NodeJS.ProcessEnv = process.env): ConfigFile[] {
  const home = env.HOME || homedir();
  const xdg = env.XDG_CONFIG_HOME || join(home, '.config');
  return [
    { file: join(home, '.claude', 'settings.json'), dialect: 'claude', scope: 'user' },
    { file: join(env.CODEX_HOME || join(home, '.codex'), 'hooks.json'), dialect: 'codex', scope: 'user' },
    { file: join(home, '.config', 'opencode', 'opencode.json'), dialect: 'opencode', scope: 'user' },
    { file: join(projectDir, '.claude', 'settings.json'), dialect: 'claude', scope: 'project' },
    { file: join(projectDir, '.codex', 'hooks.json'), dialect: 'codex', scope: 'project' },
    { file: join(projectDir, 'opencode.json'), dialect: 'opencode', scope: 'project' },
    { file: join(projectDir, '.dsh-hooks.json'), dialect: 'native', scope: 'project' },
    { file: join(projectDir, '.claude', 'settings.local.json'), dialect: 'claude', scope: 'local' },
    { file: join(packRoot, 'config', 'hooks.json'), dialect: 'loom', scope: 'pack' },
    // The other harnesses loom installs into. Gemini, Qwen and droid use Claude's grouped format.
    { file: join(env.GEMINI_CLI_HOME || home, '.gemini', 'settings.json'), dialect: 'claude', scope: 'user', harness: 'gemini' },
    { file: join(projectDir, '.gemini', 'settings.json'), dialect: 'claude', scope: 'project', harness: 'gemini' },
    { file: join(home, '.qwen', 'settings.json'), dialect: 'claude', scope: 'user', harness: 'qwen' },
    { file: join(projectDir, '.qwen', 'settings.json'), dialect: 'claude', scope: 'project', harness: 'qwen' },
    { file: join(home, '.factory', 'settings.json'), dialect: 'claude', scope: 'user', harness: 'droid' },
    { file: join(projectDir, '.factory', 'settings.json'), dialect: 'claude', scope: 'project', harness: 'droid' },
    { file: join(home, '.cursor', 'hooks.json'), dialect: 'flat', scope: 'user', harness: 'cursor' },
    { file: join(projectDir, '.cursor', 'hooks.json'), dialect: 'flat', scope: 'project', harness: 'cursor' },
    ...copilotFiles(join(env.COPILOT_HOME || join(home, '.copilot'), 'hooks'), 'user'),
    ...copilotFiles(join(projectDir, '.github', 'hooks'), 'project'),
    { file: join(env.CRUSH_GLOBAL_CONFIG || join(xdg, 'crush'), 'crush.json'), dialect: 'flat', scope: 'user', harness: 'crush' },
    { file: join(projectDir, 'crush.json'), dialect: 'flat', scope: 'project', harness: 'crush' },
    { file: join(projectDir, '.crush.json'), dialect: 'flat', scope: 'project', harness: 'crush' },
    // OpenCode and Kilo Code load loom as a plugin file.
    { file: join(xdg, 'opencode', 'plugins', 'loom.js'), dialect: 'plugin', scope: 'user', harness: 'opencode' },
    { file: join(projectDir, '.opencode', 'plugins', 'loom.js'), dialect: 'plugin', scope: 'project', harness: 'opencode' },
    { file: join(xdg, 'kilo', 'plugins', 'loom.js'), dialect: 'plugin', scope: 'user', harness: 'kilo' },
    { file: join(projectDir, '.kilo', 'plugins', 'loom.js'), dialect: 'plugin', scope: 'project', harness: 'kilo' },
    { file: join(projectDir, '.kilocode', 'plugins', 'loom.js'), dialect: 'plugin', scope: 'project', harness: 'kilo' },
  ];
}

/** Copilot CLI's prompt mode (copilot -p) loads repository hooks only when one of these says the folder is trusted. */
export function copilotTrustsRepoHooks(env: NodeJS.ProcessEnv): boolean {
  return env.COPILOT_ALLOW_ALL === 'true' || env.GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS === 'true';
}

const NO_SUBJECT = new Set(['UserPromptSubmit', 'Stop', 'PostToolBatch', 'TaskCreated', 'TaskCompleted', 'WorktreeCreate', 'WorktreeRemove', 'CwdChanged', 'prompt:submit', 'turn:stop', 'chat.message', 'session.idle']);
const NATIVE_EVENTS = new Set(['session:start', 'session:end', 'prompt:submit', 'tool:before', 'tool:after', 'turn:stop', 'subagent:start', 'subagent:end', 'notice', 'compact:before']);
const OPENCODE_EVENTS = new Set(['tool.execute.before', 'tool.execute.after', 'chat.message', 'session.created', 'session.deleted', 'session.idle', 'session.compacted', 'session.error', 'file.edited', 'permission.ask', 'notification', 'experimental.session.compacting', 'tool.execute.before.subagent', 'tool.execute.after.subagent']);
const TYPES: Record<Dialect, string[]> = {
  claude: ['command', 'http', 'prompt', 'agent', 'mcp_tool'],
  codex: ['command', 'http', 'prompt', 'agent'],
  opencode: ['command', 'http', 'subagent'],
  native: ['shell', 'webhook', 'oracle', 'proxy', 'command', 'http', 'prompt', 'agent', 'subagent'],
  loom: [],
  flat: ['command', 'prompt'],
  plugin: [],
  policy: [],
};

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function checkRegex(source: string): string | undefined {
  try {
    new RegExp(source);
  } catch (e) {
    return `invalid regex matcher ${JSON.stringify(source)}: ${(e as Error).message}`;
  }
  try {
    assertLinearRegex(source);
  } catch (e) {
    return `${(e as Error).message}; it could hang the harness on a long tool name`;
  }
  return undefined;
}

/** Cursor, Copilot and Crush list hooks under each event directly: {hooks: {Event: [{command | bash | powershell, ...}]}}. */
function parseFlat(cf: ConfigFile, doc: unknown, out: ValidateResult): void {
  const diag = (severity: Diagnostic['severity'], location: Diagnostic['location'], message: string): void => {
    out.diagnostics.push({ severity, file: cf.file, location, message });
  };
  if (!isObj(doc)) return diag('error', { path: '$' }, 'the file must hold a JSON object');
  if (doc.hooks === undefined) return;
  if (!isObj(doc.hooks)) return diag('error', { path: '$.hooks' }, '"hooks" must be an object keyed by event');
  if (cf.harness === 'copilot' && doc.version !== 1) diag('error', { path: '$.version' }, 'Copilot CLI reads hook files with "version": 1 only');
  for (const [event, list] of Object.entries(doc.hooks)) {
    const at = (h?: number) => ({ event, hook: h, path: `hooks[${event}]${h === undefined ? '' : `[${h}]`}` });
    if (!isKnownEvent(event)) diag('warning', at(), `unknown event "${event}"`);
    if (!Array.isArray(list)) {
      diag('error', at(), 'must be an array of hooks');
      continue;
    }
    const group: MatcherGroup = { dialect: cf.dialect, file: cf.file, event, mode: 'all', hooks: [] };
    list.forEach((h, hi) => {
      if (!isObj(h)) return diag('error', at(hi), 'a hook must be an object');
      const command = [h.command, h.bash, h.powershell].find((c) => typeof c === 'string' && c.trim() !== '') as string | undefined;
      if (h.type !== undefined && !TYPES.flat.includes(h.type as string)) return diag('error', at(hi), `unknown hook type ${JSON.stringify(h.type)}`);
      if (!command && h.type !== 'prompt') return diag('error', at(hi), cf.harness === 'copilot' ? 'a command hook needs a "bash" or "powershell" string' : 'a hook needs a "command" string');
      if (typeof h.matcher === 'string' && h.matcher) {
        const bad = checkRegex(h.matcher);
        if (bad) diag('error', at(hi), bad);
      }
      const timeout = h.timeoutSec ?? h.timeout;
      if (timeout !== undefined && (typeof timeout !== 'number' || !(timeout > 0))) diag('error', at(hi), 'timeout must be a positive number (seconds)');
      group.hooks.push({ type: typeof h.type === 'string' ? h.type : 'command', command, timeout: timeout as number | undefined });
    });
    out.groups.push(group);
  }
}

function parseDialect(cf: ConfigFile, doc: unknown, out: ValidateResult): void {
  if (cf.dialect === 'flat') return parseFlat(cf, doc, out);
  const diag = (severity: Diagnostic['severity'], location: Diagnostic['location'], message: string) => out.diagnostics.push({ severity, file: cf.file, location, message });
  if (!isObj(doc)) {
    diag('error', { path: '$' }, 'the file must hold a JSON object');
    return;
  }
  const key = cf.dialect === 'native' ? 'events' : 'hooks';
  const root = doc[key];
  if (root === undefined) {
    if (cf.dialect === 'native') diag('error', { path: '$' }, 'missing "events"');
    return;
  }
  if (!isObj(root)) {
    diag('error', { path: `$.${key}` }, `"${key}" must be an object keyed by event`);
    return;
  }
  for (const [event, groups] of Object.entries(root)) {
    const at = (g?: number, h?: number) => ({ event, group: g, hook: h, path: `${key}[${event}]${g === undefined ? '' : `[${g}]`}${h === undefined ? '' : `.hooks[${h}]`}` });
    const known = cf.dialect === 'native' ? NATIVE_EVENTS.has(event) : cf.dialect === 'opencode' ? OPENCODE_EVENTS.has(event) : isKnownEvent(event);
    if (!known) diag('warning', at(), `unknown event "${event}"`);
    if (!Array.isArray(groups)) {
      diag('error', at(), 'must be an array of matcher groups');
      continue;
    }
    groups.forEach((g, gi) => {
      if (!isObj(g)) {
        diag('error', at(gi), 'a matcher group must be an object');
        return;
      }
      let mode: MatcherGroup['mode'] = 'all';
      let alternatives: string[] | undefined;
      const matcher = g.matcher;
      if (matcher !== undefined && typeof matcher !== 'string') diag('error', at(gi), 'matcher must be a string');
      else if (typeof matcher === 'string' && matcher !== '' && matcher !== '*') {
        if (NO_SUBJECT.has(event)) diag('warning', at(gi), `matcher has no effect on ${event} (no matcher subject); it is dropped`);
        if (cf.dialect === 'codex' || cf.dialect === 'opencode') {
          mode = 'regex';
          const bad = checkRegex(matcher);
          if (bad) diag('error', at(gi), bad);
        } else {
          // claude and native: exact alternatives split on | and , (Claude Code itself treats other characters as a regex).
          mode = 'exact';
          alternatives = matcher.split(/\s*[|,]\s*/).filter(Boolean);
          if (cf.dialect === 'claude' && /[^A-Za-z0-9_\- ,|]/.test(matcher)) {
            const bad = checkRegex(matcher);
            if (bad) diag('error', at(gi), bad);
          }
        }
      }
      const hooks = g.hooks;
      if (!Array.isArray(hooks) || hooks.length === 0) {
        diag('error', at(gi), '"hooks" must be a non-empty array');
        return;
      }
      const group: MatcherGroup = { dialect: cf.dialect, file: cf.file, event, matcher: typeof matcher === 'string' ? matcher : undefined, mode, alternatives, hooks: [] };
      hooks.forEach((h, hi) => {
        if (!isObj(h)) {
          diag('error', at(gi, hi), 'a hook must be an object');
          return;
        }
        const type = typeof h.type === 'string' ? h.type : cf.dialect === 'native' ? 'shell' : '';
        if (!TYPES[cf.dialect].includes(type)) {
          diag('error', at(gi, hi), `unknown hook type ${JSON.stringify(h.type)}`);
          return;
        }
        const needs = ['command', 'shell'].includes(type) ? 'command' : ['http', 'webhook'].includes(type) ? 'url' : ['prompt', 'agent', 'oracle', 'proxy', 'subagent'].includes(type) ? 'prompt' : undefined;
        if (needs && (typeof h[needs] !== 'string' || (h[needs] as string).trim() === '')) diag('error', at(gi, hi), `a ${type} hook needs a "${needs}" string`);
        if (h.timeout !== undefined && (!Number.isInteger(h.timeout) || (h.timeout as number) <= 0)) diag('error', at(gi, hi), 'timeout must be a positive integer (seconds)');
        if (h.onError !== undefined && !['warn', 'block', 'ignore'].includes(h.onError as string)) diag('error', at(gi, hi), 'onError must be warn, block or ignore');
        for (const mapKey of ['env', 'headers']) {
          const m = h[mapKey];
          if (m !== undefined && (!isObj(m) || Object.values(m).some((v) => typeof v !== 'string'))) diag('error', at(gi, hi), `${mapKey} must map names to strings`);
        }
        if (h.if !== undefined) diag('warning', at(gi, hi), '"if" is not evaluated here: the hook runs whenever the matcher matches');
        group.hooks.push({ type, command: h.command as string | undefined, url: h.url as string | undefined, prompt: h.prompt as string | undefined, timeout: h.timeout as number | undefined });
      });
      out.groups.push(group);
    });
  }
}

export function validateConfigs(projectDir: string, packRoot: string, env: NodeJS.ProcessEnv = process.env): ValidateResult {
  const out: ValidateResult = { files: [], groups: [], diagnostics: [], harnesses: [], disableAllHooks: false };
  const seen = new Set<string>();
  for (const cf of discover(projectDir, packRoot, env)) {
    if (seen.has(cf.file)) continue;
    seen.add(cf.file);
    const found = existsSync(cf.file);
    out.files.push({ file: cf.file, dialect: cf.dialect, found });
    if (!found) continue;
    if (cf.dialect === 'plugin') {
      let text = '';
      try {
        text = readFileSync(cf.file, 'utf8').slice(0, 4096);
      } catch (e) {
        out.diagnostics.push({ severity: 'error', file: cf.file, location: { path: '$' }, message: `cannot read: ${(e as Error).message}` });
      }
      const ours = text.startsWith('// loom: generated');
      if (!ours) out.diagnostics.push({ severity: 'warning', file: cf.file, location: { path: '$' }, message: 'a plugin named loom.js that loom did not write' });
      out.harnesses.push({ harness: cf.harness ?? 'opencode', file: cf.file, loomWired: ours, disableAllHooks: false });
      continue;
    }
    if (cf.dialect === 'loom') {
      try {
        loadRegistry(cf.file);
      } catch (e) {
        if (e instanceof RegistryError) for (const p of e.problems) out.diagnostics.push({ severity: 'error', file: cf.file, location: { path: p.split(':')[0] }, message: p.slice(p.indexOf(':') + 1).trim() });
        else throw e;
      }
      continue;
    }
    let doc: unknown;
    try {
      const text = readFileSync(cf.file, 'utf8');
      if (text.length > 4 * 1024 * 1024) throw new Error('larger than 4 MiB');
      // Gemini CLI and Qwen Code read their settings as JSON with comments; the others as plain JSON.
      doc = cf.harness === 'gemini' || cf.harness === 'qwen' ? parseRelaxedJson(text) : JSON.parse(text);
    } catch (e) {
      out.diagnostics.push({ severity: 'error', file: cf.file, location: { path: '$' }, message: `cannot read: ${(e as Error).message}` });
      continue;
    }
    const before = out.groups.length;
    parseDialect(cf, doc, out);
    if (isObj(doc) && typeof doc.disableAllHooks === 'boolean') out.disableAllHooks = doc.disableAllHooks; // later (more specific) files win
    const mine = out.groups.slice(before);
    // loom's http entries (--mode http) count too: they name loom serve's /hooks/EVENT route and its token.
    const wired = mine.some((g) => g.hooks.some((h) => (typeof h.command === 'string' && /run-hook\.js['"]? --event |hooks[\\/](?:pre-tool-guard|tool-audit|prompt-guard|lifecycle-audit)\b/.test(h.command)) || (typeof (h as { url?: unknown }).url === 'string' && /\/hooks\/[A-Za-z]+$/.test((h as { url: string }).url))));
    const harness = cf.harness ?? cf.dialect;
    const skipped = harness === 'copilot' && cf.scope === 'project' && !copilotTrustsRepoHooks(env);
    if (skipped) out.diagnostics.push({ severity: 'warning', file: cf.file, location: { path: '$' }, message: 'Copilot CLI skips repository hooks in prompt mode (copilot -p) unless the folder is trusted: run it with --trust-folder or set GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true; or install with --scope user' });
    out.harnesses.push({ harness, file: cf.file, loomWired: wired, disableAllHooks: isObj(doc) && doc.disableAllHooks === true, ...(harness === 'copilot' ? { skippedInPromptMode: skipped } : {}) });
  }
  checkPolicy(projectDir, packRoot, out);
  return out;
}

/** The project's policy, as every hook loads it: a policy the hooks refuse blocks every tool call, so it is an error here. */
function checkPolicy(projectDir: string, packRoot: string, out: ValidateResult): void {
  const file = join(projectDir, '.loom', 'policy.json');
  out.files.push({ file, dialect: 'policy', found: existsSync(file) });
  try {
    loadPolicy(packRoot, projectDir);
  } catch (e) {
    if (!(e instanceof PolicyError)) throw e;
    for (const line of e.message.split('\n')) {
      // `<file>: <JSON path>: <message>`, the file being the policy or a pack it names.
      const m = /^(.+?): (\$[^:]*): (.*)$/.exec(line);
      out.diagnostics.push(m ? { severity: 'error', file: m[1], location: { path: m[2] }, message: m[3] } : { severity: 'error', file, location: { path: '$' }, message: line });
    }
  }
}
