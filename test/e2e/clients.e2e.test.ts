// Real Claude Code, Codex and Gemini CLI, headless, against a scripted model
// on 127.0.0.1, in temp projects wired by `loom install`. For each CLI: a
// dangerous command is denied by loom (the model receives loom's reason)
// and its victim survives; a harmless command runs; the ledger holds the
// prompt, pre-tool and post-tool records under the CLI's real session id.
import { execa } from 'execa';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from './model-server';

const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, '.e2e-clients', 'node_modules', '.bin');
const CLI = join(ROOT, 'bin', 'loom.js');
const DANGEROUS = 'rm -r .loom';
const HARMLESS = 'echo loom-e2e-ok > marker.txt';

async function sh(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const r = await execa(cmd, args, { cwd: opts.cwd, env: opts.env, extendEnv: false, stdin: 'ignore', reject: false, stripFinalNewline: false, timeout: opts.timeoutMs ?? 150_000, killSignal: 'SIGKILL' });
  return { code: r.exitCode ?? null, stdout: String(r.stdout), stderr: String(r.stderr) };
}

/** A global npm prefix (npm_config_prefix) with loom linked into it, as `npm link` leaves it: what --scope managed runs. */
function globalPrefix(): string {
  const prefix = mkdtempSync(join(tmpdir(), 'loom-e2e-global-'));
  mkdirSync(join(prefix, 'lib', 'node_modules'), { recursive: true });
  symlinkSync(ROOT, join(prefix, 'lib', 'node_modules', 'loom-governance'));
  return prefix;
}

function baseEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8', TERM: 'dumb', NO_COLOR: '1', CI: '1' };
  return env;
}

function claudeEnv(home: string, modelUrl: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...baseEnv(home),
    ANTHROPIC_BASE_URL: modelUrl,
    ANTHROPIC_API_KEY: 'sk-ant-test-key',
    CLAUDE_CONFIG_DIR: join(home, '.claude-config'),
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    ...extra,
  };
}

function project(): { dir: string; home: string } {
  const dir = mkdtempSync(join(tmpdir(), 'loom-e2e-project-'));
  const home = mkdtempSync(join(tmpdir(), 'loom-e2e-home-'));
  mkdirSync(join(dir, '.loom'), { recursive: true });
  writeFileSync(join(dir, '.loom', 'victim.txt'), 'must survive\n');
  writeFileSync(join(dir, 'README.md'), '# e2e\n');
  return { dir, home };
}

/** Wires the harness as a team would: committed settings that find loom under the project's node_modules. */
async function install(harness: string, dir: string, home: string, { withLoom = true } = {}): Promise<void> {
  const r = await sh(process.execPath, [CLI, 'install', '--harness', harness, '--project-dir', dir], { cwd: dir, env: { ...baseEnv(home) } });
  expect(r.code, r.stderr).toBe(0);
  if (!withLoom) return;
  // What `npm install -D loom-governance` (or npm link) leaves behind.
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  symlinkSync(ROOT, join(dir, 'node_modules', 'loom-governance'));
}

async function records(dir: string): Promise<Record<string, unknown>[]> {
  const r = await sh(process.execPath, [CLI, 'history', '--project-dir', dir, '--json'], { cwd: dir, env: { PATH: process.env.PATH } });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** Each CLI run is its own session: the dangerous one and the harmless one. */
function assertLedger(recs: Record<string, unknown>[], sessionIds: (string | undefined)[] = []): void {
  const sessions = [...new Set(recs.filter((r) => r.event === 'PreToolUse').map((r) => String(r.session_id)))];
  expect(sessions.length, 'one session per CLI run').toBe(2);
  for (const sid of sessions) {
    expect(sid.length).toBeGreaterThan(8);
    const mine = recs.filter((r) => r.session_id === sid);
    expect(mine.some((r) => r.event === 'UserPromptSubmit' && r.kind === 'prompt'), `prompt record in ${sid}`).toBe(true);
    expect(mine.some((r) => r.event === 'PreToolUse' && r.kind === 'tool_call'), `pre-tool record in ${sid}`).toBe(true);
  }
  for (const sid of sessionIds) if (sid) expect(sessions).toContain(sid);
  const denied = recs.find((r) => r.event === 'PreToolUse' && r.decision === 'deny');
  expect(denied, 'a denied pre-tool record').toBeTruthy();
  expect(JSON.stringify(denied)).toContain('modify-loom');
  const allowed = recs.find((r) => r.event === 'PreToolUse' && r.decision === 'allow' && JSON.stringify(r).includes('loom-e2e-ok'));
  expect(allowed, 'the harmless command, allowed').toBeTruthy();
  const post = recs.find((r) => r.event === 'PostToolUse' && r.session_id === allowed!.session_id);
  expect(post, 'a post-tool record in the harmless session').toBeTruthy();
}

const have = (name: string) => existsSync(join(BIN, name));

/**
 * Arguments for `unshare` that run a CLI with `src`'s files as /etc/<folder>: the harnesses read organisation
 * settings from /etc and name no variable to move them (or skip a file under a world-writable folder). A private
 * mount namespace with an overlay on /etc (root, as CI runs) leaves the machine's /etc untouched.
 */
function withEtc(src: string, folder: string, bin: string, args: string[]): string[] {
  const script = `set -e; up=$(mktemp -d); wk=$(mktemp -d); mount -t overlay overlay -o lowerdir=/etc,upperdir=$up,workdir=$wk /etc; mkdir -p /etc/${folder}; cp -R "$0"/. /etc/${folder}/; exec "$@"`;
  return ['-m', 'sh', '-c', script, src, bin, ...args];
}


type Turn = (command: string) => Promise<{ r: { stdout: string; stderr: string }; toolResults: string[]; json: Record<string, unknown> }>;

/** One CLI turn against a fresh scripted model that asks for `command`. */
function turn(cli: string, args: (modelUrl: string) => string[], env: (modelUrl: string) => NodeJS.ProcessEnv, cwd: string): Turn {
  return async (command) => {
    server = await startModelServer(command);
    // A CLI from .e2e-clients, or a system tool found on PATH (unshare).
    const r = await sh(existsSync(join(BIN, cli)) ? join(BIN, cli) : cli, args(server.url), { cwd, env: env(server.url) });
    const s = server;
    await s.close();
    server = undefined;
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(r.stdout);
    } catch {
      json = {};
    }
    return { r, toolResults: s.toolResults, json };
  };
}

/** The dangerous command is denied by loom and its victim survives; the harmless one runs. */
async function deniedThenAllowed(dir: string, run: Turn): Promise<(string | undefined)[]> {
  const bad = await run(DANGEROUS);
  expect(existsSync(join(dir, '.loom', 'victim.txt')), bad.r.stdout + bad.r.stderr).toBe(true);
  expect(bad.toolResults.join('\n')).toContain('modify-loom');
  const good = await run(HARMLESS);
  expect(readFileSync(join(dir, 'marker.txt'), 'utf8').trim()).toBe('loom-e2e-ok');
  return [bad.json.session_id as string | undefined, good.json.session_id as string | undefined];
}
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('real agent CLIs driven through loom', () => {
  it.skipIf(!have('claude'))('Claude Code', async () => {
    const { dir, home } = project();
    await install('claude', dir, home);
    const run = turn('claude', () => ['-p', 'clean up the workspace', '--allowedTools', 'Bash', '--output-format', 'json'], (url) => claudeEnv(home, url), dir);
    const sessions = await deniedThenAllowed(dir, run);
    assertLedger(await records(dir), sessions);
  });

  it.skipIf(!have('claude'))('Claude Code in a fresh clone without node_modules: nothing runs, the user is told how to install loom', async () => {
    const { dir, home } = project();
    await install('claude', dir, home, { withLoom: false });
    const run = turn('claude', () => ['-p', 'write the marker', '--allowedTools', 'Bash', '--output-format', 'json'], (url) => claudeEnv(home, url), dir);
    const t = await run(HARMLESS);
    expect(existsSync(join(dir, 'marker.txt')), t.r.stdout + t.r.stderr).toBe(false);
    // The first hook that can block (the prompt, before any tool call) stops the turn with loom's message.
    expect(t.r.stdout + t.r.stderr + t.toolResults.join('\n')).toContain('loom: not installed in this project; run `npm install`');
  });

  it.skipIf(!have('claude'))('Claude Code with http hooks to loom serve', async () => {
    const { dir, home } = project();
    const token = 'e2e-serve-token-0123456789';
    const srv = execa(process.execPath, [CLI, 'serve', '--port', '0', '--projects-root', dir], { cwd: dir, env: { PATH: process.env.PATH, HOME: home, LOOM_SERVE_TOKEN: token }, extendEnv: false, stdin: 'ignore', stdout: 'ignore', stderr: 'pipe', reject: false });
    let err = '';
    const url = await new Promise<string>((resolve, reject) => {
      srv.stderr!.on('data', (d) => {
        err += d;
        const m = /listening on (http:\/\/\S+)/.exec(err);
        if (m) resolve(m[1]);
      });
      srv.on('exit', (c) => reject(new Error(`serve exited ${c}: ${err}`)));
    });
    try {
      const inst = await sh(process.execPath, [CLI, 'install', '--harness', 'claude', '--mode', 'http', '--url', url, '--project-dir', dir], { cwd: dir, env: baseEnv(home) });
      expect(inst.code, inst.stderr).toBe(0);
      server = await startModelServer(DANGEROUS);
      const env = claudeEnv(home, server.url, { LOOM_SERVE_TOKEN: token });
      const r = await sh(join(BIN, 'claude'), ['-p', 'clean up the workspace', '--allowedTools', 'Bash', '--output-format', 'json'], { cwd: dir, env });
      expect(existsSync(join(dir, '.loom', 'victim.txt')), r.stdout + r.stderr).toBe(true);
      expect(server.toolResults.join('\n')).toContain('modify-loom');
      const recs = await records(dir);
      const denied = recs.find((x) => x.event === 'PreToolUse' && x.decision === 'deny');
      expect(denied, 'the denial is in the ledger written by the server').toBeTruthy();
      expect(String(denied!.session_id).length).toBeGreaterThan(8);
    } finally {
      srv.kill('SIGTERM');
    }
  });

  it.skipIf(!have('codex'))('Codex CLI', async () => {
    const { dir, home } = project();
    await install('codex', dir, home);
    mkdirSync(join(home, '.codex'), { recursive: true });
    const args = (url: string) => [
      'exec', '--json', '--skip-git-repo-check', '--trust', '--dangerously-bypass-hook-trust', '-s', 'danger-full-access',
      '-c', 'analytics.enabled=false', '-c', 'model_provider=mock',
      '-c', `model_providers.mock={name="mock",base_url="${url}/v1",env_key="KEY",wire_api="responses"}`,
      '-m', 'gpt-5-mock', 'clean up the workspace',
    ];
    await deniedThenAllowed(dir, turn('codex', args, () => ({ ...baseEnv(home), CODEX_HOME: join(home, '.codex'), KEY: 'x' }), dir));
    assertLedger(await records(dir));
  });

  it.skipIf(!have('codex'))('Codex CLI with managed hooks: the user\'s own config cannot switch them off, no trust step needed', async () => {
    const { dir, home } = project();
    const managed = mkdtempSync(join(tmpdir(), 'loom-e2e-managed-'));
    // The organisation's file already has a [features] table and its own hook: loom extends it.
    writeFileSync(join(managed, 'requirements.toml'), '# ACME\n[features]\nweb_search_request = false\n\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "true"\n');
    const inst = await sh(process.execPath, [CLI, 'install', '--harness', 'codex', '--scope', 'managed'], { cwd: dir, env: { ...baseEnv(home), LOOM_MANAGED_SETTINGS_DIR: managed, npm_config_prefix: globalPrefix() } });
    expect(inst.code, inst.stderr).toBe(0);
    const codexHome = join(home, '.codex');
    mkdirSync(codexHome, { recursive: true });
    // The developer tries to switch hooks off, in their config and on the command line.
    writeFileSync(join(codexHome, 'config.toml'), '[features]\nhooks = false\n');
    const args = (etc: string) => (url: string) =>
      withEtc(etc, 'codex', join(BIN, 'codex'), [
        // no --trust, no --dangerously-bypass-hook-trust, no project hooks
        'exec', '--json', '--skip-git-repo-check', '-s', 'danger-full-access', '--disable', 'hooks',
        '-c', 'analytics.enabled=false', '-c', 'model_provider=mock',
        '-c', `model_providers.mock={name="mock",base_url="${url}/v1",env_key="KEY",wire_api="responses"}`,
        '-m', 'gpt-5-mock', 'clean up the workspace',
      ]);
    const env = () => ({ ...baseEnv(home), CODEX_HOME: codexHome, KEY: 'x' });
    const bad = await turn('unshare', args(managed), env, dir)(DANGEROUS);
    expect(existsSync(join(dir, '.loom', 'victim.txt')), bad.r.stdout + bad.r.stderr).toBe(true);
    expect(bad.toolResults.join('\n')).toContain('modify-loom');
    const recs = await records(dir);
    expect(recs.some((r) => r.event === 'PreToolUse' && r.decision === 'deny' && JSON.stringify(r).includes('modify-loom'))).toBe(true);
    // The same run without the organisation's file: the developer's switch holds and nothing stops the command.
    const bare = await turn('unshare', args(mkdtempSync(join(tmpdir(), 'loom-e2e-etc-'))), env, dir)(DANGEROUS);
    expect(existsSync(join(dir, '.loom', 'victim.txt')), bare.r.stdout + bare.r.stderr).toBe(false);
  });

  it.skipIf(!have('gemini'))('Gemini CLI with managed (system) settings: the user\'s hooksConfig.enabled = false does not switch loom off', async () => {
    const { dir, home } = project();
    const managed = mkdtempSync(join(tmpdir(), 'loom-e2e-managed-'));
    const inst = await sh(process.execPath, [CLI, 'install', '--harness', 'gemini', '--scope', 'managed'], { cwd: dir, env: { ...baseEnv(home), LOOM_MANAGED_SETTINGS_DIR: managed, npm_config_prefix: globalPrefix() } });
    expect(inst.code, inst.stderr).toBe(0);
    mkdirSync(join(home, '.gemini'), { recursive: true });
    writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, hooksConfig: { enabled: false } }));
    const env = (url: string) => ({ ...baseEnv(home), GEMINI_CLI_HOME: home, GEMINI_API_KEY: 'x', GOOGLE_GEMINI_BASE_URL: url, GEMINI_CLI_TRUST_WORKSPACE: 'true', GEMINI_TELEMETRY_ENABLED: 'false' });
    // Gemini CLI skips a system settings file under a world-writable folder (a temp folder), so it goes to /etc/gemini-cli.
    const args = () => withEtc(managed, 'gemini-cli', join(BIN, 'gemini'), ['-p', 'clean up the workspace', '-m', 'gemini-2.5-flash', '--approval-mode', 'yolo', '-o', 'json']);
    const bad = await turn('unshare', args, env, dir)(DANGEROUS);
    expect(existsSync(join(dir, '.loom', 'victim.txt')), bad.r.stdout + bad.r.stderr).toBe(true);
    expect(bad.toolResults.join('\n')).toContain('modify-loom');
  });

  it.skipIf(!have('claude'))('Claude Code with managed settings (the global loom) and committed project settings: governed, one record per event', async () => {
    const { dir, home } = project();
    await install('claude', dir, home);
    const managed = mkdtempSync(join(tmpdir(), 'loom-e2e-managed-'));
    const prefix = globalPrefix();
    // run from the project's dev dependency, as an administrator might: the file names the global install
    const inst = await sh(process.execPath, [join(dir, 'node_modules', 'loom-governance', 'bin', 'loom.js'), 'install', '--harness', 'claude', '--scope', 'managed'], { cwd: dir, env: { ...baseEnv(home), LOOM_MANAGED_SETTINGS_DIR: managed, npm_config_prefix: prefix } });
    expect(inst.code, inst.stderr).toBe(0);
    const text = readFileSync(join(managed, 'managed-settings.json'), 'utf8');
    expect(text).toContain(join(prefix, 'lib', 'node_modules', 'loom-governance', 'hooks', 'run-hook.js'));
    expect(text).not.toContain(dir);
    // Claude Code 2.1.328 reads managed settings only from /etc/claude-code (no variable moves it): the file goes
    // there in a private mount namespace, as for Codex and Gemini CLI above. The hooks run inside it too.
    const args = () => withEtc(managed, 'claude-code', join(BIN, 'claude'), ['-p', 'clean up the workspace', '--allowedTools', 'Bash', '--output-format', 'json']);
    const env = (url: string) => claudeEnv(home, url);
    const bad = await turn('unshare', args, env, dir)(DANGEROUS);
    expect(existsSync(join(dir, '.loom', 'victim.txt')), bad.r.stdout + bad.r.stderr).toBe(true);
    expect(bad.toolResults.join('\n')).toContain('modify-loom');
    const good = await turn('unshare', args, env, dir)(HARMLESS);
    expect(readFileSync(join(dir, 'marker.txt'), 'utf8').trim(), good.r.stdout + good.r.stderr).toBe('loom-e2e-ok');
    // Both settings levels wire loom and Claude Code runs both commands; the project copy yields to the managed one.
    const recs = await records(dir);
    for (const sid of [bad.json.session_id, good.json.session_id]) {
      const mine = recs.filter((r) => r.session_id === sid);
      const pre = mine.filter((r) => r.event === 'PreToolUse');
      expect(pre, `one PreToolUse record in ${sid}`).toHaveLength(1);
      // written by the managed copy (Claude Code read /etc/claude-code), not by the project copy alone
      expect(JSON.stringify(pre[0])).toContain('"scope":"managed"');
      expect(mine.filter((r) => r.event === 'UserPromptSubmit'), `one prompt record in ${sid}`).toHaveLength(1);
    }
    expect(recs.filter((r) => r.session_id === good.json.session_id && r.event === 'PostToolUse')).toHaveLength(1);
  });

  it.skipIf(!have('gemini'))('Gemini CLI', async () => {
    const { dir, home } = project();
    await install('gemini', dir, home);
    mkdirSync(join(home, '.gemini'), { recursive: true });
    writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }));
    const env = (url: string) => ({ ...baseEnv(home), GEMINI_CLI_HOME: home, GEMINI_API_KEY: 'x', GOOGLE_GEMINI_BASE_URL: url, GEMINI_CLI_TRUST_WORKSPACE: 'true', GEMINI_TELEMETRY_ENABLED: 'false' });
    await deniedThenAllowed(dir, turn('gemini', () => ['-p', 'clean up the workspace', '-m', 'gemini-2.5-flash', '--approval-mode', 'yolo', '-o', 'json'], env, dir));
    assertLedger(await records(dir));
  });
});
