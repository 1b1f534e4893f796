// `loom init` as a team runs it once per repository, then what the
// committed result does: the starter policy (with comments) is the policy
// the hooks apply, and a second run changes nothing.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stripJsonComments } from '../src/util/jsonc';
import { CLI, ROOT, run, tempDir } from './helpers';

const loom = (args: string[], env: NodeJS.ProcessEnv = {}) => run(process.execPath, [CLI, ...args], null, { HOME: tempDir('loom-home-'), ...env });

const snapshot = (dir: string, files: string[]) => files.map((f) => (existsSync(join(dir, f)) ? readFileSync(join(dir, f), 'utf8') : null));

describe('loom init', () => {
  it('wires the harnesses, writes a commented starter policy and .gitignore entries, says what to commit; a second run changes nothing', async () => {
    const project = tempDir('loom-init-');
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', devDependencies: { 'loom-governance': '^0.1.0' } }));
    writeFileSync(join(project, '.gitignore'), 'node_modules');
    const first = await loom(['init', '--harness', 'claude,codex', '--yes', '--project-dir', project]);
    expect(first.code, first.stderr).toBe(0);
    const files = ['.claude/settings.json', '.codex/hooks.json', '.loom/policy.json', '.gitignore'];
    const after = snapshot(project, files);
    expect(after.every((t) => t !== null)).toBe(true);
    expect(after[2]).toMatch(/^\/\/ loom policy/);
    const ignore = after[3]!.split('\n');
    expect(ignore).toContain('node_modules');
    for (const l of ['.loom/compliance/', '.loom/backups/', '.loom/reports/']) expect(ignore).toContain(l);
    expect(first.stdout).toMatch(/git add .*\.claude\/settings\.json .*\.codex\/hooks\.json .*\.loom\/policy\.json .*\.gitignore .*package\.json/);
    expect(first.stdout).not.toContain('npm install -D');

    const second = await loom(['init', '--harness', 'claude,codex', '--yes', '--project-dir', project]);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('already wired claude');
    expect(snapshot(project, files)).toEqual(after);
    expect(existsSync(join(project, '.loom', 'backups'))).toBe(false);
  });

  it('without flags and without a terminal, asks nothing: the harnesses found in the repository, else Claude Code', async () => {
    const project = tempDir('loom-init-');
    mkdirSync(join(project, '.gemini'));
    const r = await loom(['init', '--project-dir', project]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(project, '.gemini', 'settings.json'))).toBe(true);
    expect(existsSync(join(project, '.claude'))).toBe(false);
    // no package.json: says how to add loom
    expect(r.stdout).toContain('npm init -y && npm install -D loom-governance');
  });

  it('an unknown harness is a one-line error and nothing is written', async () => {
    const project = tempDir('loom-init-');
    const r = await loom(['init', '--harness', 'claude,vscode', '--yes', '--project-dir', project]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('unknown "vscode"');
    expect(existsSync(join(project, '.loom'))).toBe(false);
  });

  it('the starter policy, comments and all, is the policy the hooks apply; uncommenting a rule changes the decision', async () => {
    const project = tempDir('loom-init-');
    expect((await loom(['init', '--harness', 'claude', '--yes', '--project-dir', project])).code).toBe(0);
    mkdirSync(join(project, 'node_modules'));
    symlinkSync(ROOT, join(project, 'node_modules', 'loom-governance'));
    const cmd = JSON.parse(readFileSync(join(project, '.claude/settings.json'), 'utf8')).hooks.PreToolUse[0].hooks[0].command as string;
    const call = () => run('/bin/sh', ['-c', cmd], JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'git clean -f' }, cwd: project }), { CLAUDE_PROJECT_DIR: project }, project);
    const before = await call();
    expect(before.code, before.stderr).toBe(0);
    expect(JSON.parse(before.stdout).hookSpecificOutput.permissionDecision).toBe('ask');
    const policy = join(project, '.loom', 'policy.json');
    writeFileSync(policy, readFileSync(policy, 'utf8').replace('// "git-clean": "deny",', '"git-clean": "deny" // the team decided'));
    const after = await call();
    expect(after.code).toBe(2);
    expect(after.stderr).toContain('git-clean');
    // a broken policy still fails closed, naming the file
    writeFileSync(policy, '{ "rules": { /* unterminated');
    const broken = await call();
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('policy.json');
  });
});

describe('JSON with comments', () => {
  // Differential: any JSON text, with comments inserted between tokens, parses to the same value.
  it('strips comments between tokens and never touches strings (random documents)', () => {
    let seed = 12345;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
    const pieces = ['//', '/*', '*/', '"', '\\', '\n', 'a', ' ', '/', '*', '\u2028'];
    const str = () => Array.from({ length: rnd(8) }, () => pieces[rnd(pieces.length)]).join('');
    const value = (depth: number): unknown => {
      const k = rnd(depth > 3 ? 3 : 5);
      if (k === 0) return str();
      if (k === 1) return rnd(1000) - 500;
      if (k === 2) return rnd(2) === 0;
      if (k === 3) return Array.from({ length: rnd(4) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: rnd(4) }, () => [str(), value(depth + 1)]));
    };
    const comment = () => (rnd(2) ? `// ${str().replace(/\n/g, '')}\n` : `/* ${str().replace(/\*\//g, '')} */`);
    for (let i = 0; i < 2000; i++) {
      const v = value(0);
      const text = JSON.stringify(v, null, 1);
      // a comment after every structural newline
      const commented = text.replace(/\n/g, () => (rnd(2) ? `\n${comment()}` : '\n'));
      expect(JSON.parse(stripJsonComments(commented))).toEqual(v);
      expect(stripJsonComments(text)).toBe(text);
    }
  });

  it('keeps error positions: a comment becomes spaces, newlines stay', () => {
    const t = '{\n  // note\n  "a": 1 /* x\n y */,\n}';
    const s = stripJsonComments(t);
    expect(s.length).toBe(t.length);
    expect(s.split('\n').length).toBe(t.split('\n').length);
  });
});

describe('init and install refuse a folder that is no project (black-box findings)', () => {
  it('a missing --project-dir is not created, and /, /etc are refused, each with a one-line error naming the flag', async () => {
    const missing = join(tempDir(), 'typo', 'a', 'b');
    for (const args of [['init', '--project-dir', missing, '--harness', 'claude', '--yes'], ['init', '--project-dir', '/', '--harness', 'claude', '--yes'], ['init', '--project-dir', '/etc', '--harness', 'claude', '--yes'], ['install', '--harness', 'claude', '--project-dir', '/']]) {
      const r = await loom(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr, args.join(' ')).toContain('--project-dir: project folder');
    }
    expect(existsSync(join(missing, '..'))).toBe(false);
    expect(existsSync('/etc/.loom')).toBe(false);
  });
});
