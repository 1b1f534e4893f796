// The repository shows what it is made of and governs itself: the committed
// shims are exactly what the build generates, and loom's own policy loads
// and applies (its custom rule denies an agent's npm publish).
import { execa } from 'execa';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shimFiles } from '../src/loader/shims';
import { CLI, ROOT } from './helpers';

const inGit = existsSync(join(ROOT, '.git'));

describe('the repository itself', () => {
  it('commits hooks/run-hook.js and one handlers/<name>.cjs per handler, each as the build writes it', async () => {
    const shims = shimFiles(ROOT);
    const handlers = readdirSync(join(ROOT, 'src/handlers')).filter((f) => f.endsWith('.ts'));
    expect(shims.size).toBe(handlers.length + 1);
    // the working tree (rewritten by every build) and, in a checkout, the committed copy
    for (const [rel, text] of shims) expect(readFileSync(join(ROOT, rel), 'utf8'), rel).toBe(text);
    if (!inGit) return;
    const tracked = (await execa('git', ['-C', ROOT, 'ls-files', 'hooks/run-hook.js', 'handlers'])).stdout.split('\n').filter(Boolean).sort();
    expect(tracked, 'commit the shims the build wrote (git add hooks/run-hook.js handlers)').toEqual([...shims.keys()].sort());
    for (const rel of tracked) {
      const committed = (await execa('git', ['-C', ROOT, 'show', `HEAD:${rel}`], { stripFinalNewline: false })).stdout;
      expect(committed, `${rel} differs from what the build generates: run npm run build and commit it`).toBe(shims.get(rel));
    }
  });

  it('commits the Claude Code settings `loom init --harness claude --yes` writes for this repository: relative, failing closed, running the checkout itself', async () => {
    const committed = readFileSync(join(ROOT, '.claude', 'settings.json'), 'utf8');
    // what init writes for a repository with this package.json, policy and .gitignore
    const copy = mkdtempSync(join(tmpdir(), 'loom-self-'));
    for (const f of ['package.json', '.gitignore', '.loom/policy.json']) {
      mkdirSync(dirname(join(copy, f)), { recursive: true });
      copyFileSync(join(ROOT, f), join(copy, f));
    }
    const init = await execa(process.execPath, [CLI, 'init', '--harness', 'claude', '--yes', '--project-dir', copy], { reject: false });
    expect(init.exitCode, init.stderr).toBe(0);
    expect(init.stdout).not.toContain('npm install -D');
    expect(readFileSync(join(copy, '.claude', 'settings.json'), 'utf8')).toBe(committed);
    expect(readFileSync(join(copy, '.gitignore'), 'utf8'), 'the committed .gitignore is what init leaves').toBe(readFileSync(join(ROOT, '.gitignore'), 'utf8'));
    expect(committed).not.toContain(ROOT);
    const entries = Object.values(JSON.parse(committed).hooks as Record<string, { hooks: { command: string; onFailure?: string }[] }[]>).flatMap((groups) => groups.flatMap((g) => g.hooks));
    expect(entries.length).toBeGreaterThan(3);
    for (const e of entries) expect(e.onFailure).toBe('block');
    const pre = entries.find((e) => e.command.includes('--event PreToolUse'))!.command;
    const call = (dir: string, command: string, env: Record<string, string> = {}) =>
      execa('/bin/sh', ['-c', pre], { cwd: dir, reject: false, input: JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'self-1', tool_name: 'Bash', tool_input: { command } }), env: { CLAUDE_PROJECT_DIR: dir, ...env } });
    // In this checkout (built): the guard answers; the records go where LOOM_PROJECT_DIR says, not into the repository.
    const records = mkdtempSync(join(tmpdir(), 'loom-self-records-'));
    const denied = await call(ROOT, 'rm -rf ~', { LOOM_PROJECT_DIR: records });
    expect(denied.exitCode).toBe(2);
    expect(denied.stderr).toContain('rm-recursive-home');
    // A fresh clone that has not run npm ci yet: blocked, saying how to build it.
    const clone = mkdtempSync(join(tmpdir(), 'loom-self-clone-'));
    const unbuilt = await call(clone, 'ls');
    expect(unbuilt.exitCode).toBe(2);
    expect(unbuilt.stderr.trim()).toBe('loom: this checkout of loom is not built; run npm ci (it builds dist/). Blocked until then.');
  });

  it("loom's own .loom/policy.json loads and governs an agent working on loom; specs/ is there for its handoffs", async () => {
    const publish = await execa(process.execPath, [CLI, 'explain', '--project-dir', ROOT, '--json', 'npm publish --access public'], { reject: false, env: { LOOM_CONFIG: '' } });
    expect(publish.exitCode, publish.stderr).toBe(0);
    const j = JSON.parse(publish.stdout);
    expect(j.decision).toBe('deny');
    expect(JSON.stringify(j)).toContain('npm-publish');
    expect(existsSync(join(ROOT, 'specs', 'README.md'))).toBe(true);
  });
});
