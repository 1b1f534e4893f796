// The tamper mutation suite at many positions: every attack on a ledger of
// 300 records (checkpoints every 25, copies in the state folder), each
// detected with its kind. Counts printed.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ATTACKS, cloneProject } from '../fuzz/tamper';
import { CLI, ROOT, run, tempDir } from '../helpers';

const DRIVER = join(ROOT, 'test', 'fixtures', 'ledger-driver.ts');
const N = 300;
const POSITIONS = [2, 3, 17, 50, 99, 150, 222, 299];

describe('tamper suite', () => {
  it(`${ATTACKS.length} attacks x ${POSITIONS.length} positions on a ${N}-record ledger`, async () => {
    const bases = new Map<string, string>();
    const baseFor = async (env: NodeJS.ProcessEnv = {}) => {
      const k = JSON.stringify(env);
      if (!bases.has(k)) {
        const p = tempDir();
        const r = await run(process.execPath, ['--import', 'tsx', DRIVER, p, String(N), 't'], null, { LOOM_CHECKPOINT_EVERY: '25', ...env });
        expect(r.code, r.stderr).toBe(0);
        bases.set(k, p);
      }
      return bases.get(k)!;
    };
    const counts: Record<string, string> = {};
    const misses: string[] = [];
    for (const attack of ATTACKS) {
      const base = await baseFor(attack.env);
      let detected = 0;
      let tried = 0;
      // Attacks without a position (deleted ledger, downgrade) run once.
      for (const at of attack.seq ? POSITIONS : [1]) {
        const project = tempDir();
        cloneProject(base, project, attack.env);
        attack.apply(project, N, at, { stateDir: '' });
        const v = await run(process.execPath, [CLI, 'verify', '--project-dir', project, '--json'], null, attack.env ?? {});
        tried++;
        const j = v.stdout ? JSON.parse(v.stdout) : {};
        const want = attack.seq ? attack.seq(N, at) : undefined;
        if (v.code === 1 && j.problem?.kind === attack.kind && (want === undefined || j.problem.seq === want)) detected++;
        else misses.push(`${attack.name} at ${at}: exit ${v.code}, ${JSON.stringify(j.problem ?? j.error)}`);
      }
      counts[attack.name] = `${detected}/${tried} as ${attack.kind}`;
    }
    console.log(`tamper: ${JSON.stringify(counts)}`);
    expect(misses).toEqual([]);
  });
});
