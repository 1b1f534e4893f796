// `loom install --harness claude --scope managed` as an administrator runs
// it: the managed settings apply to every project of the machine, so they
// name the global install (never the node_modules of the project the
// command ran from), and a loom that is only a project's dev dependency
// refuses in one line. With managed and project settings both wired, Claude
// Code runs every event through both: the project copy yields, so each
// event is recorded once, and loom doctor names both files.
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, globalPrefixWithLoom, ROOT, run, tempDir } from './helpers';

const loom = (args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string) => run(process.execPath, [CLI, ...args], null, { HOME: tempDir('loom-home-'), ...env }, cwd);
const bash = (command: string, cwd: string, session = 'managed-1') => ({ hook_event_name: 'PreToolUse', session_id: session, tool_name: 'Bash', tool_input: { command }, cwd });

/** A project that has loom as a dev dependency (node_modules/loom-governance, as npm install -D or npm link leaves it). */
function devProject(): string {
  const dir = tempDir('loom-devdep-');
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'loom-governance'));
  return dir;
}

const preToolCommands = (file: string): string[] =>
  (JSON.parse(readFileSync(file, 'utf8')).hooks.PreToolUse as { hooks: { command: string }[] }[]).flatMap((g) => g.hooks.map((h) => h.command)).filter((c) => c.includes('--event PreToolUse'));

/** Runs a hook command as Claude Code does: through sh, with CLAUDE_PROJECT_DIR. */
const asClaude = (command: string, project: string, payload: unknown, env: NodeJS.ProcessEnv = {}) => run('/bin/sh', ['-c', command], JSON.stringify(payload), { CLAUDE_PROJECT_DIR: project, ...env }, project);

async function preToolRecords(project: string): Promise<Record<string, unknown>[]> {
  const h = await loom(['history', '--json', '--project-dir', project]);
  expect(h.code, h.stderr).toBe(0);
  return (JSON.parse(h.stdout) as Record<string, unknown>[]).filter((r) => r.event === 'PreToolUse');
}

describe('loom install --scope managed', () => {
  it('from a dev dependency without a global install: refuses in one line saying to install globally, exit 2, nothing written', async () => {
    const project = devProject();
    const managed = tempDir('loom-managed-');
    const emptyPrefix = tempDir('loom-noglobal-');
    const r = await run(process.execPath, [join(project, 'node_modules', 'loom-governance', 'bin', 'loom.js'), 'install', '--harness', 'claude', '--scope', 'managed'], null, { HOME: tempDir('loom-home-'), LOOM_MANAGED_SETTINGS_DIR: managed, npm_config_prefix: emptyPrefix }, project);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('--scope managed needs loom installed globally');
    expect(r.stderr).toContain('sudo npm install -g loom-governance');
    expect(existsSync(join(managed, 'managed-settings.json'))).toBe(false);
    // the dry run says the same: it would write a command no other project could run
    const dry = await loom(['install', '--harness', 'claude', '--scope', 'managed', '--dry-run'], { LOOM_MANAGED_SETTINGS_DIR: managed, npm_config_prefix: emptyPrefix }, project);
    expect(dry.code).toBe(2);
    // uninstall needs no global install
    expect((await loom(['uninstall', '--harness', 'claude', '--scope', 'managed'], { LOOM_MANAGED_SETTINGS_DIR: managed, npm_config_prefix: emptyPrefix }, project)).code).toBe(0);
  });

  it('run from a dev dependency with a global install: writes the global runner, which governs any other project of the machine', async () => {
    const prefix = globalPrefixWithLoom();
    const project = devProject();
    const managed = tempDir('loom-managed-');
    const r = await loom(['install', '--harness', 'claude', '--scope', 'managed'], { LOOM_MANAGED_SETTINGS_DIR: managed, npm_config_prefix: prefix }, project);
    expect(r.code, r.stderr).toBe(0);
    const file = join(managed, 'managed-settings.json');
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(project);
    expect(text).not.toContain('node_modules/loom-governance/hooks/run-hook.js\\"');
    const [cmd] = preToolCommands(file);
    expect(cmd).toContain(join(prefix, 'lib', 'node_modules', 'loom-governance', 'hooks', 'run-hook.js'));
    expect(r.stdout).toContain('(the global install)');
    // another project, with no loom of its own: governed, and its own ledger records the call
    const other = tempDir('loom-other-');
    const denied = await asClaude(cmd, other, bash('rm -rf ~', other));
    expect(denied.code).toBe(2);
    expect(denied.stderr).toContain('rm-recursive-home');
    expect(await preToolRecords(other)).toHaveLength(1);
    // the global install removed: blocked, with the administrator's fix
    unlinkSync(join(prefix, 'lib', 'node_modules', 'loom-governance'));
    const gone = await asClaude(cmd, other, bash('ls', other));
    expect(gone.code).toBe(2);
    expect(gone.stderr.trim()).toMatch(/^loom: managed settings on this machine run loom from .*, which is missing; an administrator reinstalls it with: sudo npm install -g loom-governance\. Blocked until then\.$/);
    rmSync(prefix, { recursive: true, force: true });
  });

  it('managed and project settings both wired: one record per event (the project copy yields), and doctor warns naming both files', async () => {
    const prefix = globalPrefixWithLoom();
    const managed = tempDir('loom-managed-');
    const project = devProject();
    const env = { LOOM_MANAGED_SETTINGS_DIR: managed, npm_config_prefix: prefix };
    expect((await loom(['install', '--harness', 'claude', '--scope', 'managed'], env, project)).code).toBe(0);
    expect((await loom(['install', '--harness', 'claude', '--project-dir', project], env, project)).code).toBe(0);
    const [managedCmd] = preToolCommands(join(managed, 'managed-settings.json'));
    const [projectCmd] = preToolCommands(join(project, '.claude', 'settings.json'));
    // Claude Code runs both for each tool call
    for (const [command, session] of [['rm -rf ~', 'both-1'], ['ls -la', 'both-2']]) {
      const viaManaged = await asClaude(managedCmd, project, bash(command, project, session), { LOOM_MANAGED_SETTINGS_DIR: managed });
      const viaProject = await asClaude(projectCmd, project, bash(command, project, session), { LOOM_MANAGED_SETTINGS_DIR: managed });
      expect(viaProject.code, viaProject.stderr).toBe(0);
      expect(viaProject.stdout + viaProject.stderr).toBe('');
      if (command.startsWith('rm')) {
        expect(viaManaged.code).toBe(2);
        expect(viaManaged.stderr).toContain('rm-recursive-home');
      } else expect(viaManaged.code, viaManaged.stderr).toBe(0);
    }
    const recs = await preToolRecords(project);
    expect(recs.map((r) => `${r.session_id} ${r.decision}`).sort()).toEqual(['both-1 deny', 'both-2 allow']);
    // recorded by the managed copy: the record says so
    for (const r of recs) expect(JSON.stringify(r)).toContain('"scope":"managed"');
    const doctor = await loom(['doctor', '--project-dir', project], env, project);
    const line = doctor.stdout.split('\n').find((l) => l.includes('double hooks claude'));
    expect(line).toMatch(/^WARN double hooks claude: /);
    expect(line).toContain(join(managed, 'managed-settings.json'));
    expect(line).toContain(join(project, '.claude', 'settings.json'));
    expect(line).toContain('recorded once');

    // Without the managed file the same project command governs on its own (a teammate's machine).
    const alone = await asClaude(projectCmd, project, bash('rm -rf ~', project, 'alone-1'), { LOOM_MANAGED_SETTINGS_DIR: tempDir('loom-nomanaged-') });
    expect(alone.code).toBe(2);
    const lone = (await preToolRecords(project)).filter((r) => r.session_id === 'alone-1');
    expect(lone).toHaveLength(1);
    expect(JSON.stringify(lone[0])).not.toContain('"scope":"managed"');
  });

  it('a managed file written by an older loom (no managed mark): both copies run and record, and doctor says every event is recorded twice', async () => {
    const managed = tempDir('loom-managed-');
    const project = devProject();
    expect((await loom(['install', '--harness', 'claude', '--project-dir', project], {}, project)).code).toBe(0);
    const old = `[ -f '${join(ROOT, 'hooks', 'run-hook.js')}' ] || { echo 'loom: gone' >&2; exit 2; }; NODE_EXTRA_CA_CERTS= exec node '${join(ROOT, 'hooks', 'run-hook.js')}' --event PreToolUse --harness claude`;
    writeFileSync(join(managed, 'managed-settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: old, timeout: 30 }] }] } }));
    const [projectCmd] = preToolCommands(join(project, '.claude', 'settings.json'));
    await asClaude(old, project, bash('ls', project, 'old-1'), { LOOM_MANAGED_SETTINGS_DIR: managed });
    await asClaude(projectCmd, project, bash('ls', project, 'old-1'), { LOOM_MANAGED_SETTINGS_DIR: managed });
    expect(await preToolRecords(project)).toHaveLength(2);
    const doctor = await loom(['doctor', '--project-dir', project], { LOOM_MANAGED_SETTINGS_DIR: managed }, project);
    const line = doctor.stdout.split('\n').find((l) => l.includes('double hooks claude'));
    expect(line).toContain('judged and recorded twice');
    expect(line).toContain('sudo loom install --harness claude --scope managed');
  });
});

describe('a managed file anyone but root can edit is not the organisation\'s word (black-box findings)', () => {
  // The project copy yields by reading the managed file; a developer or an agent who can write that file could
  // make it look as if loom ran there. Only a root-owned file in a root-owned folder, writable by no one else, counts.
  it('group- or other-writable, or owned by another user: the project copy still judges and records, and doctor says the scope is not firm', async () => {
    const prefix = globalPrefixWithLoom();
    const project = devProject();
    for (const loosen of ['chmod-file', 'chmod-dir', 'chown'] as const) {
      const managed = tempDir('loom-managed-');
      const env = { LOOM_MANAGED_SETTINGS_DIR: managed, npm_config_prefix: prefix };
      expect((await loom(['install', '--harness', 'claude', '--scope', 'managed'], env, project)).code).toBe(0);
      const file = join(managed, 'managed-settings.json');
      if (loosen === 'chmod-file') chmodSync(file, 0o666);
      else if (loosen === 'chmod-dir') chmodSync(managed, 0o777);
      else if (process.getuid?.() === 0) chownSync(file, 65534, 65534);
      else continue; // only root can give a file away; as another user the file is already not root's
      if (!existsSync(join(project, '.claude', 'settings.json'))) expect((await loom(['install', '--harness', 'claude', '--project-dir', project], env, project)).code).toBe(0);
      const [projectCmd] = preToolCommands(join(project, '.claude', 'settings.json'));
      const viaProject = await asClaude(projectCmd, project, bash('rm -rf ~', project, `loose-${loosen}`), { LOOM_MANAGED_SETTINGS_DIR: managed });
      expect(viaProject.code, loosen).toBe(2);
      expect(viaProject.stderr, loosen).toContain('rm-recursive-home');
      expect((await preToolRecords(project)).filter((r) => r.session_id === `loose-${loosen}`), loosen).toHaveLength(1);
      const doctor = await loom(['doctor', '--project-dir', project], env, project);
      expect(doctor.stdout, loosen).toMatch(/managed settings a user can change: .*(mode|owned by uid)/);
      expect(doctor.stdout.split('\n').find((l) => l.includes('double hooks claude')), loosen).toContain('judged and recorded twice');
    }
  });
});

describe('loom doctor on settings wired twice', () => {
  it('user and project settings both wired: a warning naming both files and the fix (every event would be recorded twice)', async () => {
    const home = tempDir('loom-home-');
    const project = tempDir('loom-proj-');
    const env = { HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude') };
    expect((await loom(['install', '--harness', 'claude', '--scope', 'user'], env, project)).code).toBe(0);
    expect((await loom(['install', '--harness', 'claude', '--project-dir', project], env, project)).code).toBe(0);
    const doctor = await loom(['doctor', '--project-dir', project], env, project);
    const line = doctor.stdout.split('\n').find((l) => l.includes('double hooks claude')) ?? '';
    expect(line).toMatch(/^WARN double hooks claude: .*user \(.*settings\.json\) and project \(.*settings\.json\).*recorded twice/);
    expect(line).toContain('loom uninstall --harness claude --scope user');
  });

  it('Codex managed and project hooks: the fix removes the project copy (Codex copies do not yield), not a reinstall that changes nothing', async () => {
    const prefix = globalPrefixWithLoom();
    const managed = tempDir('loom-managed-');
    const project = devProject();
    const env = { LOOM_MANAGED_SETTINGS_DIR: managed, npm_config_prefix: prefix };
    expect((await loom(['install', '--harness', 'codex', '--scope', 'managed'], env, project)).code).toBe(0);
    expect((await loom(['install', '--harness', 'codex', '--project-dir', project], env, project)).code).toBe(0);
    const doctor = await loom(['doctor', '--project-dir', project], env, project);
    const line = doctor.stdout.split('\n').find((l) => l.includes('double hooks codex')) ?? '';
    expect(line).toMatch(/^WARN double hooks codex: /);
    expect(line).toContain('loom uninstall --harness codex --scope project');
    expect(line).not.toContain('reinstall the managed hooks');
    rmSync(prefix, { recursive: true, force: true });
  });
});
