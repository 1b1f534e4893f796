// Settings that travel and fail closed: the committed hook command is run
// exactly as a harness runs it (sh -c, the harness's project variable set,
// the session's working directory), on a machine with loom installed in the
// project, on one without, and on one without node.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookCommand, PROJECT_DIR_VARIABLE } from '../src/install/hook-command';
import { CLI, globalPrefixWithLoom, ROOT, run, tempDir } from './helpers';

// Managed settings name the global install: npm's global folder, here a temp prefix where loom is linked (npm link).
const GLOBAL_PREFIX = globalPrefixWithLoom();
const GLOBAL_RUNNER = join(GLOBAL_PREFIX, 'lib', 'node_modules', 'loom-governance', 'hooks', 'run-hook.js');

const loom = (args: string[], env: NodeJS.ProcessEnv = {}) => run(process.execPath, [CLI, ...args], null, { HOME: tempDir('loom-home-'), npm_config_prefix: GLOBAL_PREFIX, ...env });

const SETTINGS: Record<string, string> = { claude: '.claude/settings.json', codex: '.codex/hooks.json', gemini: '.gemini/settings.json', cursor: '.cursor/hooks.json' };
const PRE_TOOL: Record<string, string> = { claude: 'PreToolUse', codex: 'PreToolUse', gemini: 'BeforeTool', cursor: 'preToolUse' };

/** The command loom installed for one event, read back from the settings file. */
function installedCommand(project: string, harness: string, event: string): string {
  const doc = JSON.parse(readFileSync(join(project, SETTINGS[harness]), 'utf8'));
  const list = doc.hooks[event] as Record<string, unknown>[];
  const entries = harness === 'cursor' ? list : list.flatMap((g) => g.hooks as Record<string, unknown>[]);
  const cmds = entries.map((h) => h.command as string).filter((c) => c.includes('--event'));
  expect(cmds).toHaveLength(1);
  return cmds[0];
}

/** Runs a hook command the way a harness does: through sh, in the session's folder, with its project variable. */
function asHarness(harness: string, command: string, project: string, payload: unknown, cwd = project, env: NodeJS.ProcessEnv = {}) {
  const v = PROJECT_DIR_VARIABLE[harness];
  return run('/bin/sh', ['-c', command], JSON.stringify(payload), { ...(v ? { [v]: project } : {}), ...env }, cwd);
}

const bash = (command: string, cwd: string) => ({ hook_event_name: 'PreToolUse', session_id: 'travel-1', tool_name: 'Bash', tool_input: { command }, cwd });

function projectWithLoom(): string {
  const project = tempDir('loom-travel-');
  mkdirSync(join(project, 'node_modules'));
  // What `npm install -D loom-governance` (or npm link) leaves: the package under node_modules.
  symlinkSync(ROOT, join(project, 'node_modules', 'loom-governance'));
  return project;
}

describe('committed hook commands travel and fail closed', () => {
  for (const harness of Object.keys(SETTINGS)) {
    it(`${harness}: a clone without loom installed blocks with how to install it; with it installed, the guard answers`, async () => {
      const project = tempDir('loom-clone-');
      expect((await loom(['install', '--harness', harness, '--project-dir', project])).code).toBe(0);
      const cmd = installedCommand(project, harness, PRE_TOOL[harness]);
      const missing = await asHarness(harness, cmd, project, bash('ls', project));
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('npm install');
      expect(missing.stderr.trim().split('\n')).toHaveLength(1);

      // The same committed file on a machine that ran npm install.
      const withLoom = projectWithLoom();
      mkdirSync(join(withLoom, SETTINGS[harness], '..'), { recursive: true });
      writeFileSync(join(withLoom, SETTINGS[harness]), readFileSync(join(project, SETTINGS[harness])));
      const sub = join(withLoom, 'src', 'deep');
      mkdirSync(sub, { recursive: true });
      // from a subfolder of the project too (Codex sets no project variable: the walk starts at the session's folder)
      const denied = await asHarness(harness, cmd, withLoom, bash('rm -rf /', withLoom), sub);
      expect(denied.stdout + denied.stderr).toContain('rm-recursive-root');
      const allowed = await asHarness(harness, cmd, withLoom, bash('ls -la', withLoom), sub);
      expect(allowed.code, allowed.stderr).toBe(0);
      expect(allowed.stdout + allowed.stderr).not.toContain('rm-recursive-root');
    });
  }

  it('no node on PATH: blocks (exit 2) instead of "command not found", which harnesses let through', async () => {
    const project = projectWithLoom();
    const cmd = hookCommand('claude', 'PreToolUse', { kind: 'project' });
    const r = await asHarness('claude', cmd, project, bash('ls', project), project, { PATH: '/nonexistent' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('node is not on PATH');
  });

  it('the hook process does not load NODE_EXTRA_CA_CERTS (installed command and wrappers)', async () => {
    const project = projectWithLoom();
    const env = { NODE_EXTRA_CA_CERTS: join(project, 'no-such-ca.pem') };
    // Node warns on stderr when it loads a CA file it cannot read: proof the variable reached it.
    const plain = await run(process.execPath, ['-e', '0'], null, env);
    expect(plain.stderr).toContain('no-such-ca.pem');
    const cmd = hookCommand('claude', 'PreToolUse', { kind: 'project' });
    const viaCommand = await asHarness('claude', cmd, project, bash('ls', project), project, env);
    expect(viaCommand.code, viaCommand.stderr).toBe(0);
    expect(viaCommand.stderr).not.toContain('no-such-ca.pem');
    const viaWrapper = await run(join(ROOT, 'hooks', 'pre-tool-guard'), [], JSON.stringify(bash('ls', project)), { ...env, CLAUDE_PROJECT_DIR: project });
    expect(viaWrapper.code, viaWrapper.stderr).toBe(0);
    expect(viaWrapper.stderr).not.toContain('no-such-ca.pem');
  });

  it('an entry written by an older loom (absolute path) is updated in place, not duplicated', async () => {
    const project = tempDir();
    mkdirSync(join(project, '.claude'));
    const old = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'mine.sh' }, { type: 'command', command: `node "/opt/old/hooks/run-hook.js" --event PreToolUse --harness claude`, timeout: 30 }] }] } };
    writeFileSync(join(project, SETTINGS.claude), JSON.stringify(old));
    expect((await loom(['install', '--harness', 'claude', '--project-dir', project])).code).toBe(0);
    const doc = JSON.parse(readFileSync(join(project, SETTINGS.claude), 'utf8'));
    const pre = JSON.stringify(doc.hooks.PreToolUse);
    expect(pre).not.toContain('/opt/old');
    expect(pre).toContain('mine.sh');
    expect(installedCommand(project, 'claude', 'PreToolUse')).toContain('CLAUDE_PROJECT_DIR');
  });
});

describe('loom install --scope managed', () => {
  it('claude: writes the managed settings file with the global install\'s runner, still failing closed (saying how to reinstall it) if it goes away', async () => {
    const managed = tempDir('loom-managed-');
    const r = await loom(['install', '--harness', 'claude', '--scope', 'managed'], { LOOM_MANAGED_SETTINGS_DIR: managed });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(join(managed, 'managed-settings.json'));
    const doc = JSON.parse(readFileSync(join(managed, 'managed-settings.json'), 'utf8'));
    const cmd = (doc.hooks.PreToolUse[0].hooks[0] as { command: string }).command;
    expect(cmd).toContain(GLOBAL_RUNNER);
    const project = tempDir();
    const denied = await asHarness('claude', cmd, project, bash('rm -rf ~', project));
    expect(denied.code).toBe(2);
    expect(denied.stderr).toContain('rm-recursive-home');
    // loom doctor says which scope is active, managed first
    const proj = tempDir();
    await loom(['install', '--harness', 'claude', '--project-dir', proj]);
    const doctor = await loom(['doctor', '--json', '--project-dir', proj], { LOOM_MANAGED_SETTINGS_DIR: managed });
    const scope = JSON.parse(doctor.stdout).checks.find((c: { name: string }) => c.name === 'scope claude');
    expect(scope.detail).toMatch(/^managed \(.*managed-settings\.json\), project \(.*\.claude\/settings\.json\): managed settings win/);
    const gone = await asHarness('claude', cmd.split(GLOBAL_RUNNER).join('/nonexistent/hooks/run-hook.js'), project, bash('ls', project));
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain('sudo npm install -g loom-governance');
  });

  it('gemini: system settings also pin hooksConfig.enabled (system wins over a user\'s false); an admin\'s false is refused in one line', async () => {
    const managed = tempDir('loom-managed-');
    const file = join(managed, 'settings.json');
    expect((await loom(['install', '--harness', 'gemini', '--scope', 'managed'], { LOOM_MANAGED_SETTINGS_DIR: managed })).code).toBe(0);
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    expect(doc.hooksConfig).toEqual({ enabled: true });
    expect(doc.hooks.BeforeTool[0].hooks[0].command).toContain('--event BeforeTool --harness gemini');
    // loom doctor: managed is active; it turns to FAIL when a user's own settings switch one of loom's hooks off by name
    const home = tempDir('loom-home-');
    const project = tempDir();
    const scopeOf = async () => {
      const d = await loom(['doctor', '--json', '--project-dir', project], { HOME: home, GEMINI_CLI_HOME: '', LOOM_MANAGED_SETTINGS_DIR: managed });
      return JSON.parse(d.stdout).checks.find((c: { name: string }) => c.name === 'scope gemini') as { ok: boolean; detail: string; fix?: string };
    };
    expect(await scopeOf()).toMatchObject({ ok: true, detail: expect.stringMatching(/^managed \(.*settings\.json\): system settings win/) });
    mkdirSync(join(home, '.gemini'));
    writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify({ hooksConfig: { disabled: ['loom-BeforeTool'] } }));
    const off = await scopeOf();
    expect(off.ok).toBe(false);
    expect(off.detail).toContain(`loom-BeforeTool (${join(home, '.gemini', 'settings.json')})`);
    expect(off.fix).toContain('hooksConfig.disabled');
    writeFileSync(file, JSON.stringify({ hooksConfig: { enabled: false } }));
    const r = await loom(['install', '--harness', 'gemini', '--scope', 'managed'], { LOOM_MANAGED_SETTINGS_DIR: managed });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^loom install: .*hooksConfig\.enabled is false, which switches every hook off; remove it first\n$/);
  });

  it('codex: requirements.toml gets a marked block of managed hooks and the features pin; the organisation\'s own lines keep their bytes', async () => {
    const managed = tempDir('loom-managed-');
    const file = join(managed, 'requirements.toml');
    // An organisation's file, with comments, a [features] table and its own managed hook.
    const org = '# ACME requirements\nallowed_approval_policies = ["on-request"]\n\n[features]\nweb_search = false\n\n[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "acme-audit"\n';
    writeFileSync(file, org);
    const r = await loom(['install', '--harness', 'codex', '--scope', 'managed'], { LOOM_MANAGED_SETTINGS_DIR: managed });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(file);
    const text = readFileSync(file, 'utf8');
    // hooks = true lands in the existing [features] table (a second [features] header is invalid TOML)
    expect(text.match(/^\[features\]$/gm)).toHaveLength(1);
    expect(text).toMatch(/^\[features\]\nhooks = true # loom-governance/m);
    expect(text.startsWith('# ACME requirements\nallowed_approval_policies')).toBe(true);
    expect(text).toContain('command = "acme-audit"');
    const cmds = [...text.matchAll(/^command = (".*")$/gm)].map((m) => JSON.parse(m[1]) as string).filter((c) => c.includes('--event PreToolUse'));
    expect(cmds).toHaveLength(1);
    expect(cmds[0]).toContain(GLOBAL_RUNNER);
    const project = tempDir();
    const denied = await asHarness('codex', cmds[0], project, bash('rm -rf ~', project));
    expect(denied.code).toBe(2);
    expect(denied.stderr).toContain('rm-recursive-home');
    // a second install changes nothing
    const again = await loom(['install', '--harness', 'codex', '--scope', 'managed'], { LOOM_MANAGED_SETTINGS_DIR: managed });
    expect(again.stdout).toContain('nothing to change');
    expect(readFileSync(file, 'utf8')).toBe(text);
    // loom doctor names the managed scope for codex
    const doctor = await loom(['doctor', '--json', '--project-dir', project], { LOOM_MANAGED_SETTINGS_DIR: managed });
    const scope = JSON.parse(doctor.stdout).checks.find((c: { name: string }) => c.name === 'scope codex');
    expect(scope.detail).toMatch(/^managed \(.*requirements\.toml\): managed settings win/);
    expect(scope.ok).toBe(true);
    // an organisation that edits the pin away: doctor says a user can switch the hooks off
    writeFileSync(file, text.replace(/^hooks = true # loom-governance.*\n/m, ''));
    const unpinned = JSON.parse((await loom(['doctor', '--json', '--project-dir', project], { LOOM_MANAGED_SETTINGS_DIR: managed })).stdout).checks.find((c: { name: string }) => c.name === 'scope codex');
    expect(unpinned).toMatchObject({ ok: false, fix: 'run loom install --harness codex --scope managed' });
    expect(unpinned.detail).toContain('features.hooks = false');
    writeFileSync(file, text);
    // uninstall gives back the organisation's bytes
    const un = await loom(['uninstall', '--harness', 'codex', '--scope', 'managed'], { LOOM_MANAGED_SETTINGS_DIR: managed });
    expect(un.code, un.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(org);
  });

  it('codex: a new requirements.toml gets its own [features] table and goes away on uninstall; files loom cannot extend are refused in one line', async () => {
    const managed = tempDir('loom-managed-');
    const file = join(managed, 'requirements.toml');
    expect((await loom(['install', '--harness', 'codex', '--scope', 'managed'], { LOOM_MANAGED_SETTINGS_DIR: managed })).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/^# >>> loom-governance.*\n\[features\]\nhooks = true\n\[\[hooks\.SessionStart\]\]/);
    await loom(['uninstall', '--harness', 'codex', '--scope', 'managed'], { LOOM_MANAGED_SETTINGS_DIR: managed });
    expect(existsSync(file)).toBe(false);
    for (const [bad, why] of [
      ['[features]\nhooks = false\n', /hooks = false switches every hook off/],
      ['features.web_search = false\n', /dotted key or inline table/],
      ['[hooks]\nPreToolUse = []\n', /hooks\.PreToolUse is an inline array/],
      ['hooks = { managed_dir = "/x" }\n', /hooks is an inline table/],
    ] as const) {
      writeFileSync(file, bad);
      const r = await loom(['install', '--harness', 'codex', '--scope', 'managed'], { LOOM_MANAGED_SETTINGS_DIR: managed });
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toMatch(why);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(readFileSync(file, 'utf8')).toBe(bad);
    }
  });
});
