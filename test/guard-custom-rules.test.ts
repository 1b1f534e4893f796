import { mkdirSync, writeFileSync } from 'node:fs';
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
    expect(judge(project({}), 'aws s3 rb s3://b --force').decision).toBe('allow');
  });
  it('an unknown rule id or pack is a located error', () => {
    expect(() => loadPolicy(ROOT, project({ rules: { 'terraform-destory': 'deny' } }))).toThrow(/policy\.json: \$\.rules\.terraform-destory: unknown rule id/);
    expect(() => loadPolicy(ROOT, project({ packs: ['nope'] }))).toThrow(/\$\.packs\[0\]: no rule pack "nope"/);
  });
});
