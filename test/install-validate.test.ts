import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, ROOT, run, tempDir } from './helpers';

const loom = (args: string[], env: NodeJS.ProcessEnv = {}) => run(process.execPath, [CLI, ...args], null, { HOME: tempDir('loom-home-'), ...env });

const FILES: Record<string, string> = {
  claude: '.claude/settings.json',
  codex: '.codex/hooks.json',
  gemini: '.gemini/settings.json',
  cursor: '.cursor/hooks.json',
};

const USER_CONFIG: Record<string, unknown> = {
  claude: { model: 'opus', permissions: { allow: ['Bash(ls:*)'] }, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'my-guard.sh', timeout: 5 }] }], Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }] } },
  codex: { $comment: 'mine', hooks: { PreToolUse: [{ matcher: '^Bash$', hooks: [{ type: 'command', command: 'guard' }] }] } },
  gemini: { security: { auth: { selectedType: 'gemini-api-key' } }, hooks: { BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', name: 'mine', command: 'check.sh' }] }] } },
  cursor: { version: 1, hooks: { beforeShellExecution: [{ command: './audit.sh' }] } },
};

describe('loom install / uninstall', () => {
  for (const harness of Object.keys(FILES)) {
    it(`${harness}: merges, keeps the user's hooks and keys, is idempotent, backs up, and uninstall restores the original`, async () => {
      const project = tempDir();
      const file = join(project, FILES[harness]);
      mkdirSync(join(file, '..'), { recursive: true });
      const original = JSON.stringify(USER_CONFIG[harness], null, 2) + '\n';
      writeFileSync(file, original);
      const first = await loom(['install', '--harness', harness, '--project-dir', project]);
      expect(first.code, first.stderr).toBe(0);
      const installed = readFileSync(file, 'utf8');
      const doc = JSON.parse(installed);
      const text = JSON.stringify(doc);
      expect(text).toContain('run-hook.js\\" --event');
      expect(text).toContain(`--harness ${harness}`);
      for (const keep of ['my-guard.sh', 'guard', 'check.sh', './audit.sh'].filter((k) => JSON.stringify(USER_CONFIG[harness]).includes(k))) expect(text).toContain(keep);
      // committed settings name no path of this machine
      expect(text).not.toContain(ROOT);
      expect(text).not.toContain(project);
      // a visible name (no leading dot), in a folder that keeps itself out of git
      const backups = readdirSync(join(project, '.loom', 'backups'));
      expect(backups.some((f) => f.startsWith(`backup-of-${FILES[harness].replace('/', '__')}.`)), backups.join(' ')).toBe(true);
      expect(readFileSync(join(project, '.loom', 'backups', '.gitignore'), 'utf8')).toMatch(/^\*$/m);
      const second = await loom(['install', '--harness', harness, '--project-dir', project]);
      expect(second.stdout).toContain('nothing to change');
      expect(readFileSync(file, 'utf8')).toBe(installed);
      const un = await loom(['uninstall', '--harness', harness, '--project-dir', project]);
      expect(un.code).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(original);
    });
  }

  it('uninstall gives back byte for byte a settings file that had no hooks at all, odd indentation and key order included (#15 audit)', async () => {
    const project = tempDir();
    const file = join(project, FILES.claude);
    mkdirSync(dirname(file), { recursive: true });
    const original = '{\n    "permissions": { "allow": ["Bash(npm test:*)"] },\n    "model": "sonnet"\n}\n';
    writeFileSync(file, original);
    expect((await loom(['install', '--harness', 'claude', '--project-dir', project])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).not.toBe(original);
    const u = await loom(['uninstall', '--harness', 'claude', '--project-dir', project]);
    expect(u.code, u.stderr).toBe(0);
    expect(u.stdout).toContain('original restored byte for byte');
    expect(readFileSync(file, 'utf8')).toBe(original);
  });

  it('installs only events the registry has hooks for, never Claude Code WorktreeCreate', async () => {
    const project = tempDir();
    await loom(['install', '--harness', 'claude', '--project-dir', project]);
    const events = Object.keys(JSON.parse(readFileSync(join(project, FILES.claude), 'utf8')).hooks);
    expect(events).toContain('PreToolUse');
    expect(events).toContain('UserPromptSubmit');
    expect(events).not.toContain('WorktreeCreate');
    expect(events).not.toContain('Elicitation');
  });

  it('--dry-run writes nothing', async () => {
    const project = tempDir();
    const r = await loom(['install', '--harness', 'codex', '--project-dir', project, '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('would change');
    expect(existsSync(join(project, FILES.codex))).toBe(false);
  });

  it('uninstall --dry-run says what the real uninstall does to the file: deleted, given its bytes back, or rewritten', async () => {
    const fresh = tempDir();
    await loom(['install', '--harness', 'claude', '--project-dir', fresh]);
    const dry = await loom(['uninstall', '--harness', 'claude', '--project-dir', fresh, '--dry-run']);
    expect(dry.stdout).toContain('settings.json would be deleted');
    expect(existsSync(join(fresh, FILES.claude))).toBe(true);
    await loom(['uninstall', '--harness', 'claude', '--project-dir', fresh]);
    expect(existsSync(join(fresh, FILES.claude))).toBe(false);
    const mine = tempDir();
    mkdirSync(join(mine, '.claude'));
    writeFileSync(join(mine, FILES.claude), '{"model": "opus"}');
    await loom(['install', '--harness', 'claude', '--project-dir', mine]);
    const back = await loom(['uninstall', '--harness', 'claude', '--project-dir', mine, '--dry-run']);
    expect(back.stdout).toContain('would get its original bytes back');
    expect(back.stdout).toContain('{"model": "opus"}');
    await loom(['uninstall', '--harness', 'claude', '--project-dir', mine]);
    expect(readFileSync(join(mine, FILES.claude), 'utf8')).toBe('{"model": "opus"}');
  });

  it('a word where a command takes only options is refused (exit 2, one line), never silently ignored', async () => {
    const project = tempDir();
    for (const args of [['install', '--harness', 'claude', 'extra'], ['verify', 'ledger.db'], ['report', 'html'], ['init', 'now', '--yes']]) {
      const r = await loom([...args, '--project-dir', project]);
      expect([r.code, r.stderr.trim()], args.join(' ')).toEqual([2, `loom ${args[0]}: unexpected argument "${args.find((a, i) => i > 0 && !a.startsWith('-') && args[i - 1] !== '--harness')}": this command takes only options (see --help)`]);
    }
    expect(existsSync(join(project, FILES.claude))).toBe(false);
  });

  it('a settings file that is not JSON is refused with its name, and left alone', async () => {
    const project = tempDir();
    mkdirSync(join(project, '.claude'));
    writeFileSync(join(project, FILES.claude), '{ "hooks": ');
    const r = await loom(['install', '--harness', 'claude', '--project-dir', project]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('settings.json: not valid JSON');
    expect(readFileSync(join(project, FILES.claude), 'utf8')).toBe('{ "hooks": ');
  });

  it('opencode: writes a plugin that spawns the runner, and removes it', async () => {
    const project = tempDir();
    await loom(['install', '--harness', 'opencode', '--project-dir', project]);
    const plugin = readFileSync(join(project, '.opencode/plugins/loom.js'), 'utf8');
    expect(plugin).toContain('"tool.execute.before"');
    expect(plugin).toContain('node_modules/loom-governance/hooks/run-hook.js');
    expect(plugin).not.toContain(ROOT);
    expect(plugin).toContain('throw new Error');
    await loom(['uninstall', '--harness', 'opencode', '--project-dir', project]);
    expect(existsSync(join(project, '.opencode/plugins/loom.js'))).toBe(false);
  });
});

describe('loom validate', () => {
  async function validate(project: string, files: Record<string, unknown>, extra: string[] = []) {
    for (const [rel, content] of Object.entries(files)) {
      mkdirSync(join(project, rel, '..'), { recursive: true });
      writeFileSync(join(project, rel), typeof content === 'string' ? content : JSON.stringify(content));
    }
    const r = await loom(['validate', '--project-dir', project, '--json', ...extra]);
    return { ...r, json: JSON.parse(r.stdout) };
  }

  it('a clean project exits 0 and says loom is not wired yet', async () => {
    const r = await validate(tempDir(), { '.claude/settings.json': { hooks: { PreToolUse: [{ matcher: 'Bash|Write', hooks: [{ type: 'command', command: 'x' }] }] } } });
    expect(r.code).toBe(0);
    expect(r.json.harnesses).toEqual([expect.objectContaining({ harness: 'claude', loomWired: false })]);
    expect(r.json.groups[0]).toMatchObject({ dialect: 'claude', mode: 'exact', alternatives: ['Bash', 'Write'] });
  });

  it('reports each problem with file, event, group and hook index', async () => {
    const project = tempDir();
    const r = await validate(project, {
      '.claude/settings.json': {
        hooks: {
          PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'warp', command: 'x' }, { type: 'command' }, { type: 'command', command: 'y', timeout: -1 }] }, { hooks: [] }],
          UserPromptSubmit: [{ matcher: 'anything', hooks: [{ type: 'command', command: 'z', if: 'Bash(rm *)' }] }],
          NotAnEvent: [{ hooks: [{ type: 'command', command: 'q' }] }],
          Stop: 'oops',
        },
      },
      '.codex/hooks.json': { hooks: { PreToolUse: [{ matcher: '(a+)+$', hooks: [{ type: 'command', command: 'g' }] }, { matcher: '([', hooks: [{ type: 'command', command: 'g' }] }] } },
      'opencode.json': { hooks: { 'tool.execute.before': [{ matcher: 'bash', hooks: [{ type: 'subagent' }] }] } },
      '.dsh-hooks.json': { version: 1, events: { 'tool:before': [{ hooks: [{ type: 'shell', command: 'g', onError: 'explode', env: { A: 1 } }] }] } },
      '.claude/settings.local.json': '{ not json',
    });
    expect(r.code).toBe(1);
    const msgs = r.json.diagnostics.map((d: { severity: string; file: string; location: { path: string }; message: string }) => `${d.severity} ${d.file.slice(project.length)} ${d.location.path} ${d.message}`);
    const has = (re: RegExp) => expect(msgs.some((m: string) => re.test(m)), `${re} in\n${msgs.join('\n')}`).toBe(true);
    has(/^error \/\.claude\/settings\.json hooks\[PreToolUse\]\[0\]\.hooks\[0\] unknown hook type "warp"/);
    has(/^error .*hooks\[PreToolUse\]\[0\]\.hooks\[1\] a command hook needs a "command" string/);
    has(/^error .*hooks\[PreToolUse\]\[0\]\.hooks\[2\] timeout must be a positive integer/);
    has(/^error .*hooks\[PreToolUse\]\[1\] "hooks" must be a non-empty array/);
    has(/^warning .*hooks\[UserPromptSubmit\]\[0\] matcher has no effect on UserPromptSubmit/);
    has(/^warning .*hooks\[UserPromptSubmit\]\[0\]\.hooks\[0\] "if" is not evaluated/);
    has(/^warning .*hooks\[NotAnEvent\] unknown event/);
    has(/^error .*hooks\[Stop\] must be an array/);
    has(/^error \/\.codex\/hooks\.json hooks\[PreToolUse\]\[0\] regex .*nests quantifiers/);
    has(/^error \/\.codex\/hooks\.json hooks\[PreToolUse\]\[1\] invalid regex matcher/);
    has(/^error \/opencode\.json .* a subagent hook needs a "prompt" string/);
    has(/^error \/\.dsh-hooks\.json events\[tool:before\]\[0\]\.hooks\[0\] onError must be warn, block or ignore/);
    has(/^error \/\.dsh-hooks\.json .* env must map names to strings/);
    has(/^error \/\.claude\/settings\.local\.json \$ cannot read/);
  });

  it('--strict fails on warnings only; disableAllHooks comes from the most specific file', async () => {
    const project = tempDir();
    const files = {
      '.claude/settings.json': { disableAllHooks: false, hooks: { Stop: [{ matcher: 'x', hooks: [{ type: 'command', command: 'z' }] }] } },
      '.claude/settings.local.json': { disableAllHooks: true },
    };
    const lax = await validate(project, files);
    expect(lax.code).toBe(0);
    expect(lax.json.disableAllHooks).toBe(true);
    const strict = await validate(project, {}, ['--strict']);
    expect(strict.code).toBe(1);
  });

  it('after install, validate reports loom wired for that harness', async () => {
    const project = tempDir();
    await loom(['install', '--harness', 'codex', '--project-dir', project]);
    const r = await validate(project, {});
    expect(r.json.harnesses.find((h: { harness: string }) => h.harness === 'codex').loomWired).toBe(true);
  });
});

describe('loom validate checks the policy the hooks load (black-box finding A2)', () => {
  it('a misspelt rule id or an invalid action is an error naming the file and JSON path, exit 1; the valid policy passes', async () => {
    const project = tempDir();
    mkdirSync(join(project, '.loom'));
    const file = join(project, '.loom', 'policy.json');
    writeFileSync(file, '{ "rules": { "git-clena": "deny" } }');
    const bad = await loom(['validate', '--project-dir', project]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain(`[error] ${file}: $.rules.git-clena: unknown rule id "git-clena"`);
    writeFileSync(file, '{ "rules": { "sudo": "maybe" } }');
    const action = await loom(['validate', '--project-dir', project, '--json']);
    expect(action.code).toBe(1);
    expect(JSON.parse(action.stdout).diagnostics.some((d: { file: string; location: { path: string } }) => d.file === file && d.location.path.startsWith('$.rules'))).toBe(true);
    writeFileSync(file, '{\n  "rules": {\n    "sudo": "ask", // teams ask first\n  },\n}\n');
    const good = await loom(['validate', '--project-dir', project]);
    expect(good.code, good.stdout).toBe(0);
  });

  it('loom explain --rules lists every rule id with its action in this project, custom rules marked', async () => {
    const project = tempDir();
    mkdirSync(join(project, '.loom'));
    writeFileSync(join(project, '.loom', 'policy.json'), JSON.stringify({ rules: { sudo: 'ask' }, commandRules: [{ id: 'no-terraform-destroy', match: { command: 'terraform', args: ['destroy'] }, action: 'deny', reason: 'ask the platform team' }] }));
    const r = await loom(['explain', '--rules', '--project-dir', project]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^sudo +ask$/m);
    expect(r.stdout).toMatch(/^rm-recursive-home +deny$/m);
    expect(r.stdout).toMatch(/^no-terraform-destroy +deny {2}\(custom rule\)$/m);
  });
});

describe('uninstall of a file changed since install (black-box finding A22)', () => {
  it('is backed up before it is rewritten, and the line names the backup', async () => {
    const project = tempDir();
    mkdirSync(join(project, '.claude'));
    const file = join(project, '.claude', 'settings.json');
    writeFileSync(file, JSON.stringify({ model: 'opus' }));
    expect((await loom(['install', '--harness', 'claude', '--project-dir', project])).code).toBe(0);
    const edited = JSON.parse(readFileSync(file, 'utf8'));
    edited.env = { FOO: '1' };
    writeFileSync(file, JSON.stringify(edited, null, 2));
    const before = readFileSync(file, 'utf8');
    const u = await loom(['uninstall', '--harness', 'claude', '--project-dir', project]);
    expect(u.code, u.stderr).toBe(0);
    const named = /\(backup: ([^)]+)\)/.exec(u.stdout);
    expect(named, u.stdout).not.toBeNull();
    expect(readFileSync(named![1], 'utf8')).toBe(before);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ model: 'opus', env: { FOO: '1' } });
    expect(readFileSync(file, 'utf8')).not.toContain('run-hook');
  });
});

describe('doctor holds the wiring to what loom install writes (black-box adoption round 2, H1, H2)', () => {
  const settings = (p: string) => join(p, '.claude', 'settings.json');
  const edit = (p: string, f: (d: { hooks: Record<string, { matcher?: string; hooks: { command?: string }[] }[]> }) => void) => {
    const d = JSON.parse(readFileSync(settings(p), 'utf8'));
    f(d);
    writeFileSync(settings(p), JSON.stringify(d, null, 2));
  };
  const edits: [string, Parameters<typeof edit>[1]][] = [
    ['a matcher narrowed to Bash', (d) => { d.hooks.PreToolUse[0].matcher = 'Bash'; }],
    ['the guard command replaced by true', (d) => { d.hooks.PreToolUse[0].hooks[0].command = 'true'; }],
    ['the guard command made to exit 0 first', (d) => { d.hooks.PreToolUse[0].hooks[0].command = `exit 0; ${d.hooks.PreToolUse[0].hooks[0].command}`; }],
    ['the PreToolUse entry deleted', (d) => { delete d.hooks.PreToolUse; }],
  ];
  for (const [what, f] of edits) {
    it(`${what}: doctor fails naming the file and the fix, and loom install puts the guard back`, async () => {
      const project = tempDir();
      mkdirSync(join(project, '.git'));
      const home = tempDir('loom-home-');
      expect((await loom(['install', '--harness', 'claude', '--project-dir', project], { HOME: home })).code).toBe(0);
      expect((await loom(['doctor', '--project-dir', project], { HOME: home })).stdout).not.toMatch(/FAIL hooks claude/);
      edit(project, f);
      const d = await loom(['doctor', '--project-dir', project], { HOME: home });
      expect(d.stdout).toMatch(/FAIL hooks claude: .*settings\.json: \d+ of loom's entries are missing, edited by hand or narrowed/);
      expect(d.code).not.toBe(0);
      expect((await loom(['install', '--harness', 'claude', '--project-dir', project], { HOME: home })).code).toBe(0);
      expect((await loom(['doctor', '--project-dir', project], { HOME: home })).stdout).not.toMatch(/FAIL hooks claude/);
      const pre = JSON.parse(readFileSync(settings(project), 'utf8')).hooks.PreToolUse as { matcher?: string; hooks: { command: string }[] }[];
      const ours = pre.filter((g) => g.hooks.some((h) => h.command.includes('run-hook.js')));
      expect(ours).toHaveLength(1);
      expect(ours[0].matcher).toBeUndefined();
    });
  }

  it('http hooks block when loom serve is down (onFailure) and count as wired', async () => {
    const project = tempDir();
    mkdirSync(join(project, '.git'));
    const home = tempDir('loom-home-');
    expect((await loom(['install', '--harness', 'claude', '--mode', 'http', '--project-dir', project], { HOME: home })).code).toBe(0);
    const doc = JSON.parse(readFileSync(settings(project), 'utf8'));
    for (const groups of Object.values(doc.hooks) as { hooks: { type: string; onFailure?: string }[] }[][]) for (const g of groups) for (const h of g.hooks) expect(h).toMatchObject({ type: 'http', onFailure: 'block' });
    const d = await loom(['doctor', '--project-dir', project], { HOME: home });
    expect(d.stdout).toMatch(/ok {3}harness claude: .*loom wired/);
    expect(d.stdout).not.toMatch(/FAIL hooks claude/);
  });
});

describe('init says when the files to commit are git-ignored (black-box adoption round 2, H3)', () => {
  it('names the ignored settings file and how to commit it anyway; says nothing when none is ignored', async () => {
    const project = tempDir();
    await run('git', ['init', '-q', project], null);
    writeFileSync(join(project, '.gitignore'), '.claude/\n');
    const home = tempDir('loom-home-');
    const r = await run(process.execPath, [CLI, 'init', '--harness', 'claude,codex', '--yes', '--project-dir', project], null, { HOME: home, NO_COLOR: '1' });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/warning: \.gitignore ignores \.claude\/settings\.json: commit it with `git add -f \.claude\/settings\.json`/);
    expect(r.stdout).not.toMatch(/ignores .*\.codex/);
    writeFileSync(join(project, '.gitignore'), 'node_modules/\n');
    const again = await run(process.execPath, [CLI, 'init', '--harness', 'claude,codex', '--yes', '--project-dir', project], null, { HOME: home, NO_COLOR: '1' });
    expect(again.stdout).not.toMatch(/warning: \.gitignore ignores/);
  });
});

describe('a settings file that is a link (black-box adoption round 2, M5)', () => {
  it('stays a link through install and uninstall: the file it names is rewritten and restored', async () => {
    const project = tempDir();
    mkdirSync(join(project, '.git'));
    const shared = join(tempDir('loom-dotfiles-'), 'claude-settings.json');
    const original = '{\n  "model": "opus"\n}\n';
    writeFileSync(shared, original);
    mkdirSync(join(project, '.claude'));
    symlinkSync(shared, join(project, '.claude', 'settings.json'));
    const home = tempDir('loom-home-');
    expect((await loom(['install', '--harness', 'claude', '--project-dir', project], { HOME: home })).code).toBe(0);
    expect(lstatSync(join(project, '.claude', 'settings.json')).isSymbolicLink()).toBe(true);
    expect(readFileSync(shared, 'utf8')).toContain('run-hook.js');
    expect((await loom(['uninstall', '--harness', 'claude', '--project-dir', project], { HOME: home })).code).toBe(0);
    expect(lstatSync(join(project, '.claude', 'settings.json')).isSymbolicLink()).toBe(true);
    expect(readFileSync(shared, 'utf8')).toBe(original);
  });
});
