// The repository shows what it is made of and governs itself: the committed
// shims are exactly what the build generates, and loom's own policy loads
// and applies (its custom rule denies an agent's npm publish).
import { execa } from 'execa';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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

  it("loom's own .loom/policy.json loads and governs an agent working on loom; specs/ is there for its handoffs", async () => {
    const publish = await execa(process.execPath, [CLI, 'explain', '--project-dir', ROOT, '--json', 'npm publish --access public'], { reject: false, env: { LOOM_CONFIG: '' } });
    expect(publish.exitCode, publish.stderr).toBe(0);
    const j = JSON.parse(publish.stdout);
    expect(j.decision).toBe('deny');
    expect(JSON.stringify(j)).toContain('npm-publish');
    expect(existsSync(join(ROOT, 'specs', 'README.md'))).toBe(true);
  });
});
