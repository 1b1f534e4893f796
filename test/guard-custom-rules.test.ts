import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeCommand } from '../src/guards/shell/analyze';
import { loadPolicy } from '../src/policy/policy';
import { ROOT, tempDir } from './helpers';

function project(policy: unknown): string {
  const dir = tempDir();
  mkdirSync(join(dir, '.loom'), { recursive: true });
  writeFileSync(join(dir, '.loom/policy.json'), JSON.stringify(policy));
  return dir;
}
const judge = (dir: string, c: string) => analyzeCommand(c, { projectDir: dir, cwd: dir, home: '/home/dev', tmp: '/tmp', policy: loadPolicy(ROOT, dir), protectedPaths: [] });

describe('custom command rules and packs', () => {
  it('a project rule hits the analysed command, through bash -c, sudo and env', () => {
    const dir = project({ commandRules: [{ id: 'terraform-destroy', match: { command: 'terraform', args: ['destroy'] }, action: 'deny', reason: 'no destroy' }] });
    for (const c of ['terraform destroy', 'bash -c "terraform destroy -auto-approve"', 'sudo terraform destroy', 'env TF_LOG=1 terraform destroy']) expect([c, judge(dir, c).decision]).toEqual([c, 'deny']);
    expect(judge(dir, 'terraform plan').decision).toBe('allow');
  });
  it('the cloud-infra pack is opt-in and matches flag spellings and SQL', () => {
    const dir = project({ packs: ['cloud-infra'] });
    expect(judge(dir, 'aws s3 rb s3://b --force').decision).toBe('deny');
    expect(judge(dir, 'kubectl delete ns prod').decision).toBe('deny');
    expect(judge(dir, 'psql -c "DROP DATABASE app"').decision).toBe('deny');
    expect(judge(dir, 'kubectl get ns').decision).toBe('allow');
    // Without it, the default data-loss pack asks.
    expect(judge(project({}), 'aws s3 rb s3://b --force').decision).toBe('ask');
  });
  it('the default data-loss pack asks, passes --dry-run and --help, and a project can switch one of its rules off', () => {
    const none = project({});
    expect(judge(none, 'terraform destroy').decision).toBe('ask');
    expect(judge(none, 'bash -c "redis-cli FLUSHALL"').decision).toBe('ask');
    expect(judge(none, 'sudo -u postgres psql -c "DROP DATABASE app"').decision).not.toBe('allow');
    expect(judge(none, 'kubectl delete ns prod --dry-run=server').decision).toBe('allow');
    expect(judge(none, 'terraform destroy --help').decision).toBe('allow');
    expect(judge(project({ rules: { 'infra-destroy': 'allow' } }), 'terraform destroy').decision).toBe('allow');
    // A team's own rule may say when it does not apply, too.
    const own = project({ commandRules: [{ id: 'deploy-prod', match: { command: 'make', args: ['deploy'], unless: ['-n|--dry-run'] }, action: 'deny', reason: 'deploys to production' }] });
    expect(judge(own, 'make deploy').decision).toBe('deny');
    expect(judge(own, 'make -n deploy').decision).toBe('allow');
  });
  it('an argPattern reads what a client gets on stdin when it is known: a here-string, a heredoc, an echo piped in', () => {
    const none = project({});
    for (const c of ["psql <<< 'DROP DATABASE staging'", "echo 'TRUNCATE orders;' | mysql shop", "psql app <<'SQL'\nSELECT 1;\nDROP SCHEMA public CASCADE;\nSQL", "printf 'DELETE FROM users;\\n' | psql"]) expect([c, judge(none, c).decision]).toEqual([c, 'ask']);
    for (const c of ["psql <<< 'SELECT * FROM users'", "echo 'DELETE FROM users WHERE id = 3;' | psql", 'psql < schema.sql']) expect([c, judge(none, c).decision]).toEqual([c, 'allow']);
  });
  it('an edited pack is read again, not served from the policy cache', () => {
    // A pack root of its own (config/ copied): the shipped pack stays untouched for the tests running beside this one.
    const root = tempDir();
    cpSync(join(ROOT, 'config'), join(root, 'config'), { recursive: true });
    mkdirSync(join(root, 'dist'), { recursive: true });
    const pack = join(root, 'config', 'packs', 'data-loss.json');
    const dir = project({});
    const judgeIn = (c: string) => analyzeCommand(c, { projectDir: dir, cwd: dir, home: '/home/dev', tmp: '/tmp', policy: loadPolicy(root, dir), protectedPaths: [] }).decision;
    expect(judgeIn('terraform destroy')).toBe('ask');
    // The pack now asks only when a flag is given: the cached policy of the old text must not answer.
    const edited = readFileSync(pack, 'utf8').replace('"args": ["destroy|run-all"]', '"args": ["destroy|run-all", "--really"]');
    expect(edited).toContain('--really');
    writeFileSync(pack, edited);
    expect(judgeIn('terraform destroy')).toBe('allow');
    expect(judgeIn('terraform destroy --really')).toBe('ask');
  });
  it('an unknown rule id or pack is a located error', () => {
    expect(() => loadPolicy(ROOT, project({ rules: { 'terraform-destory': 'deny' } }))).toThrow(/policy\.json: \$\.rules\.terraform-destory: unknown rule id/);
    expect(() => loadPolicy(ROOT, project({ packs: ['nope'] }))).toThrow(/\$\.packs\[0\]: no rule pack "nope"/);
  });
});
