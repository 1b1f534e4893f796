// loom install / uninstall / validate / doctor for OpenCode, Kilo Code,
// Copilot CLI, Qwen Code, droid and Crush: the same promises as the first
// targets (the user's keys and hooks kept, a backup, idempotent, only the
// registry's events, exact removal), in each harness's own file and format.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, run, tempDir } from './helpers';

const loom = (args: string[], env: NodeJS.ProcessEnv = {}) => run(process.execPath, [CLI, ...args], null, { HOME: tempDir('loom-home-'), XDG_CONFIG_HOME: '', COPILOT_HOME: '', CRUSH_GLOBAL_CONFIG: '', GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS: '', COPILOT_ALLOW_ALL: '', ...env });

interface Case {
  file: string;
  user: Record<string, unknown>;
  /** Where the loom command sits in the file (grouped or flat, command or bash). */
  commands(doc: Record<string, unknown>): string[];
  events: string[];
}

const grouped = (doc: Record<string, unknown>) => Object.values(doc.hooks as Record<string, { hooks: { command?: string }[] }[]>).flatMap((gs) => gs.flatMap((g) => g.hooks.map((h) => h.command ?? '')));
const flat = (key: 'command' | 'bash') => (doc: Record<string, unknown>) => Object.values(doc.hooks as Record<string, Record<string, string>[]>).flatMap((hs) => hs.map((h) => h[key] ?? ''));

const CASES: Record<string, Case> = {
  copilot: {
    file: '.github/hooks/loom.json',
    user: { version: 1, hooks: { preToolUse: [{ type: 'command', bash: './scripts/audit.sh', timeoutSec: 10 }] } },
    commands: flat('bash'),
    events: ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SessionStart', 'SessionEnd', 'Stop'],
  },
  qwen: {
    file: '.qwen/settings.json',
    user: { model: { name: 'qwen3-coder' }, hooks: { PreToolUse: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command: 'my-guard.sh' }] }] } },
    commands: grouped,
    events: ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SessionStart', 'Stop'],
  },
  droid: {
    file: '.factory/settings.json',
    user: { customModels: [{ model: 'm' }], hooks: { Stop: [{ hooks: [{ type: 'command', command: 'notify.sh' }] }] } },
    commands: grouped,
    events: ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SessionStart', 'Stop'],
  },
  crush: {
    file: 'crush.json',
    user: { $schema: 'https://charm.land/crush.json', options: { debug: false }, hooks: { PreToolUse: [{ matcher: '^bash$', command: './no-haskell.sh' }] } },
    commands: flat('command'),
    events: ['PreToolUse', 'PreCompact'],
  },
};

describe('install targets for the added harnesses', () => {
  for (const [harness, c] of Object.entries(CASES)) {
    it(`${harness}: ${c.file} keeps the user's keys and hooks, backs up, is idempotent, and uninstall gives back exactly the user's file`, async () => {
      const project = tempDir();
      const file = join(project, c.file);
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, JSON.stringify(c.user, null, 2) + '\n');
      const first = await loom(['install', '--harness', harness, '--project-dir', project]);
      expect(first.code, first.stderr).toBe(0);
      const installed = readFileSync(file, 'utf8');
      const doc = JSON.parse(installed);
      const text = JSON.stringify(doc);
      for (const keep of Object.keys(c.user)) expect(doc[keep], keep).toBeDefined();
      for (const mine of ['./scripts/audit.sh', 'my-guard.sh', 'notify.sh', './no-haskell.sh']) if (JSON.stringify(c.user).includes(mine)) expect(text).toContain(mine);
      const loomCommands = c.commands(doc).filter((x) => x.includes('run-hook.js'));
      for (const e of c.events) expect(loomCommands.some((x) => x.includes(`--event ${e} --harness ${harness}`)), `${e} wired`).toBe(true);
      // only the registry's events, in the harness's spelling
      for (const e of Object.keys(doc.hooks)) expect(e).toMatch(/^[A-Z][A-Za-z]+$|^preToolUse$/);
      expect(readdirSync(join(file, '..'), { recursive: true }).some((f) => String(f).includes('loom-backup')) || existsSync(join(project, '.loom', 'backups'))).toBe(true);
      const second = await loom(['install', '--harness', harness, '--project-dir', project]);
      expect(second.code).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(installed);
      const un = await loom(['uninstall', '--harness', harness, '--project-dir', project]);
      expect(un.code, un.stderr).toBe(0);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(c.user);
    });
  }

  it('Qwen and droid tool events match every tool; prompt and session events carry no matcher', async () => {
    const project = tempDir();
    await loom(['install', '--harness', 'qwen', '--project-dir', project]);
    const hooks = JSON.parse(readFileSync(join(project, '.qwen/settings.json'), 'utf8')).hooks;
    expect(hooks.PreToolUse[0].matcher).toBe('*');
    expect(hooks.UserPromptSubmit[0].matcher).toBeUndefined();
    // seconds (Qwen reads 1000 and more as milliseconds)
    expect(hooks.PreToolUse[0].hooks[0].timeout).toBe(30);
  });

  it("Copilot: a fresh install writes loom's own file, says prompt mode needs the folder trusted, and uninstall removes the file", async () => {
    const project = tempDir();
    const r = await loom(['install', '--harness', 'copilot', '--project-dir', project]);
    expect(r.stdout).toMatch(/prompt mode/);
    expect(r.stdout).toMatch(/--trust-folder/);
    const file = join(project, '.github/hooks/loom.json');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    expect(doc.version).toBe(1);
    expect(doc.hooks.PreToolUse[0]).toMatchObject({ type: 'command', timeoutSec: 30 });
    // PascalCase only: one dialect, Claude-shaped payloads
    expect(Object.keys(doc.hooks).every((e) => /^[A-Z]/.test(e))).toBe(true);
    await loom(['uninstall', '--harness', 'copilot', '--project-dir', project]);
    expect(existsSync(file)).toBe(false);
  });

  it('user scope: Copilot under $COPILOT_HOME/hooks, Qwen under ~/.qwen, droid under ~/.factory, Crush under $XDG_CONFIG_HOME/crush, plugins under ~/.config/<harness>/plugins', async () => {
    const home = tempDir('loom-home-');
    const copilotHome = tempDir('copilot-home-');
    const env = { HOME: home, COPILOT_HOME: copilotHome };
    for (const h of ['copilot', 'qwen', 'droid', 'crush', 'opencode', 'kilo']) {
      const r = await loom(['install', '--harness', h, '--scope', 'user', '--project-dir', tempDir()], env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toMatch(/prompt mode/);
    }
    for (const f of [join(copilotHome, 'hooks', 'loom.json'), join(home, '.qwen/settings.json'), join(home, '.factory/settings.json'), join(home, '.config/crush/crush.json'), join(home, '.config/opencode/plugins/loom.js'), join(home, '.config/kilo/plugins/loom.js')]) expect(existsSync(f), f).toBe(true);
  });

  it('Kilo: the plugin goes to .kilo/plugins (Kilo does not load .opencode/plugins) and names kilo in its records', async () => {
    const project = tempDir();
    await loom(['install', '--harness', 'kilo', '--project-dir', project]);
    const plugin = readFileSync(join(project, '.kilo/plugins/loom.js'), 'utf8');
    expect(plugin).toContain('const HARNESS = "kilo"');
    expect(existsSync(join(project, '.opencode'))).toBe(false);
    const again = await loom(['install', '--harness', 'kilo', '--project-dir', project]);
    expect(again.stdout).toContain('already installed');
    await loom(['uninstall', '--harness', 'kilo', '--project-dir', project]);
    expect(existsSync(join(project, '.kilo/plugins/loom.js'))).toBe(false);
  });

  it("a plugin file loom did not write is never overwritten or removed", async () => {
    const project = tempDir();
    mkdirSync(join(project, '.opencode/plugins'), { recursive: true });
    writeFileSync(join(project, '.opencode/plugins/loom.js'), 'export const Mine = 1;\n');
    const r = await loom(['install', '--harness', 'opencode', '--project-dir', project]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('not written by loom');
    const u = await loom(['uninstall', '--harness', 'opencode', '--project-dir', project]);
    expect(u.code).toBe(2);
    expect(readFileSync(join(project, '.opencode/plugins/loom.js'), 'utf8')).toBe('export const Mine = 1;\n');
  });
});

describe('validate and doctor across harnesses', () => {
  it('say per harness whether loom is wired, read Gemini settings, and flag a Copilot repository hook file prompt mode skips', async () => {
    const project = tempDir();
    const home = tempDir('loom-home-');
    for (const h of ['copilot', 'qwen', 'droid', 'crush', 'opencode', 'kilo', 'gemini']) await loom(['install', '--harness', h, '--project-dir', project], { HOME: home });
    mkdirSync(join(project, '.github/hooks'), { recursive: true });
    writeFileSync(join(project, '.github/hooks/lint.json'), JSON.stringify({ version: 1, hooks: { postToolUse: [{ type: 'command', bash: 'npm run lint' }] } }));
    const r = await loom(['validate', '--project-dir', project, '--json'], { HOME: home });
    const v = JSON.parse(r.stdout);
    const wired = (h: string) => v.harnesses.filter((x: { harness: string }) => x.harness === h).map((x: { loomWired: boolean }) => x.loomWired);
    for (const h of ['qwen', 'droid', 'crush', 'opencode', 'kilo', 'gemini']) expect(wired(h), h).toEqual([true]);
    expect(wired('copilot').sort()).toEqual([false, true]);
    expect(v.harnesses.filter((x: { harness: string; skippedInPromptMode?: boolean }) => x.harness === 'copilot').every((x: { skippedInPromptMode?: boolean }) => x.skippedInPromptMode)).toBe(true);
    expect(v.diagnostics.filter((d: { message: string }) => /prompt mode/.test(d.message)).length).toBe(2);
    expect(v.diagnostics.filter((d: { severity: string }) => d.severity === 'error')).toEqual([]);
    // trusted: nothing to flag
    const trusted = JSON.parse((await loom(['validate', '--project-dir', project, '--json'], { HOME: home, GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS: 'true' })).stdout);
    expect(trusted.diagnostics.filter((d: { message: string }) => /prompt mode/.test(d.message))).toEqual([]);
    const doc = await loom(['doctor', '--project-dir', project], { HOME: home });
    expect(doc.stdout).toMatch(/FAIL harness copilot: .*loom\.json: loom wired, but Copilot prompt mode/);
    expect(doc.stdout).toMatch(/ok {3}harness qwen: .*loom wired/);
    expect(doc.stdout).toMatch(/ok {3}harness kilo: .*loom wired/);
    expect(doc.stdout).toMatch(/FAIL harness copilot: .*lint\.json: loom not wired/);
  });

  it('flags broken Copilot and Crush files with their location', async () => {
    const project = tempDir();
    mkdirSync(join(project, '.github/hooks'), { recursive: true });
    writeFileSync(join(project, '.github/hooks/a.json'), JSON.stringify({ hooks: { preToolUse: [{ type: 'command' }], PreToolUse: 'x' } }));
    writeFileSync(join(project, 'crush.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: '(a+)+$', command: 'x' }, { timeout: 'soon', command: 'y' }] } }));
    const r = await loom(['validate', '--project-dir', project, '--json']);
    expect(r.code).toBe(1);
    const msgs = JSON.parse(r.stdout).diagnostics.map((d: { file: string; location: { path: string }; message: string }) => `${d.file.slice(project.length)} ${d.location.path} ${d.message}`);
    const has = (re: RegExp) => expect(msgs.some((m: string) => re.test(m)), `${re} in\n${msgs.join('\n')}`).toBe(true);
    has(/^\/\.github\/hooks\/a\.json \$\.version .*version": 1/);
    has(/^\/\.github\/hooks\/a\.json hooks\[preToolUse\]\[0\] .*"bash" or "powershell"/);
    has(/^\/\.github\/hooks\/a\.json hooks\[PreToolUse\] must be an array/);
    has(/^\/crush\.json hooks\[PreToolUse\]\[0\] .*nests quantifiers/);
    has(/^\/crush\.json hooks\[PreToolUse\]\[1\] timeout must be a positive number/);
  });
});

describe('settings written as JSON with comments (Gemini CLI and Qwen Code accept them; finding A18)', () => {
  it('install merges into a commented file, says the comments are not kept, and uninstall gives the original bytes back', async () => {
    for (const [h, folder] of [['gemini', '.gemini'], ['qwen', '.qwen']]) {
      const project = tempDir();
      mkdirSync(join(project, folder));
      const file = join(project, folder, 'settings.json');
      const original = '// my settings\n{\n  /* theme */ "theme": "Dracula", // trailing\n  "hooks": {},\n}\n';
      writeFileSync(file, original);
      const home = tempDir('loom-home-');
      const r = await loom(['install', '--harness', h, '--project-dir', project], { HOME: home });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout + r.stderr).toMatch(/had comments, which the rewritten file does not keep/);
      const doc = JSON.parse(readFileSync(file, 'utf8'));
      expect(doc.theme).toBe('Dracula');
      expect(JSON.stringify(doc.hooks)).toMatch(/run-hook/);
      // validate reads such a file as the harness does
      writeFileSync(file, '// mine\n' + readFileSync(file, 'utf8'));
      const v = await loom(['validate', '--project-dir', project], { HOME: home });
      expect(v.stdout + v.stderr).not.toMatch(/cannot read/);
      writeFileSync(file, readFileSync(file, 'utf8').replace('// mine\n', ''));
      // a second install changes nothing
      expect((await loom(['install', '--harness', h, '--project-dir', project], { HOME: home })).stdout).toMatch(/nothing to change/);
      const u = await loom(['uninstall', '--harness', h, '--project-dir', project], { HOME: home });
      expect(u.code, u.stderr).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(original);
    }
  });

  it('a commented file with a real syntax error is refused naming the line, and left as it was', async () => {
    const project = tempDir();
    mkdirSync(join(project, '.gemini'));
    const file = join(project, '.gemini', 'settings.json');
    const broken = '{\n  // note\n  "theme": "Dracula"\n  "hooks": {}\n}\n';
    writeFileSync(file, broken);
    const r = await loom(['install', '--harness', 'gemini', '--project-dir', project]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/settings\.json: not valid JSON .*line 4/);
    expect(readFileSync(file, 'utf8')).toBe(broken);
  });
});
