// The five-minute adoption, as a team does it: pack loom, install the
// tarball as a dev dependency of a fresh project, `npx loom init`, then a
// hook call through the committed settings and `loom verify`. Nothing is
// built on the user's side (the tarball carries dist/). Prints the elapsed
// time; better-sqlite3 comes from the local npm cache and compiles its
// addon, which is most of it, hence the e2e suite rather than `npm test`.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');

function sh(cmd: string, args: string[], cwd: string, input?: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, LOOM_PROJECT_DIR: '', CLAUDE_PROJECT_DIR: '', LOOM_CONFIG: '', npm_config_yes: 'true', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

describe('npm package', () => {
  it('pack, npm install -D the tarball into a fresh project, npx loom init, a hook through the committed settings, loom verify', async () => {
    const t0 = Date.now();
    const lap: string[] = [];
    const mark = (what: string) => lap.push(`${what} ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const out = mkdtempSync(join(tmpdir(), 'loom-pack-'));
    const pack = await sh('npm', ['pack', '--pack-destination', out, '--json'], ROOT);
    expect(pack.code, pack.stderr).toBe(0);
    const info = JSON.parse(pack.stdout)[0] as { filename: string; files: { path: string }[] };
    const shipped = info.files.map((f) => f.path);
    // what a user needs, and nothing of the sources, tests or caches
    for (const need of ['bin/loom.js', 'dist/cli.js', 'dist/runner.js', 'hooks/run-hook.js', 'hooks/pre-tool-guard', 'handlers/pre-tool-guard.cjs', 'config/hooks.json', 'config/policy.schema.json', 'README.md', 'LICENSE', 'package.json']) expect(shipped).toContain(need);
    expect(shipped.filter((p) => /^(src|test|scripts|docs|\.loom|\.e2e-clients)\/|^dist\/\.cache\//.test(p))).toEqual([]);
    mark('pack');

    const project = mkdtempSync(join(tmpdir(), 'loom-adopt-'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'team-app', version: '1.0.0', private: true }, null, 2));
    writeFileSync(join(project, '.gitignore'), 'node_modules/\n');
    const inst = await sh('npm', ['install', '-D', join(out, info.filename), '--prefer-offline', '--no-audit', '--no-fund'], project);
    expect(inst.code, inst.stderr).toBe(0);
    mark('npm install -D');
    // nothing was built on the user's side: no TypeScript toolchain came along
    expect(existsSync(join(project, 'node_modules', 'tsx'))).toBe(false);
    expect(existsSync(join(project, 'node_modules', 'esbuild'))).toBe(false);

    const init = await sh('npx', ['loom', 'init', '--harness', 'claude', '--yes'], project);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('git add .claude/settings.json .loom/policy.json .gitignore package.json');
    mark('npx loom init');

    const settings = readFileSync(join(project, '.claude', 'settings.json'), 'utf8');
    expect(settings).not.toContain(project);
    const cmd = JSON.parse(settings).hooks.PreToolUse[0].hooks[0].command as string;
    const call = (command: string) => sh('/bin/sh', ['-c', cmd], project, JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'adopt-1', tool_name: 'Bash', tool_input: { command }, cwd: project }), { CLAUDE_PROJECT_DIR: project });
    const denied = await call('rm -rf ~');
    expect(denied.code).toBe(2);
    expect(denied.stderr).toContain('rm-recursive-home');
    const allowed = await call('npm test');
    expect(allowed.code, allowed.stderr).toBe(0);
    mark('two hook calls');

    const verify = await sh('npx', ['loom', 'verify'], project);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    const history = await sh('npx', ['loom', 'history', '--json'], project);
    expect(JSON.parse(history.stdout).filter((r: { event: string }) => r.event === 'PreToolUse')).toHaveLength(2);
    expect(readdirSync(join(project, '.loom', 'compliance'))).toContain('ledger.db');
    mark('loom verify');
    const total = (Date.now() - t0) / 1000;
    console.log(`adoption from an empty project: ${total.toFixed(1)} s (${lap.join(', ')}; target: under 120 s)`);
  });
});
