// `loom verify` while hooks append and folds run: an intact ledger is never
// called tampered. The witnesses outside the project move on with every
// append; read after the chain they named records the chain's read preceded
// (a false tail-cut, 1 in 20 to 4 in 15 runs before the fix). Real runner
// processes, real SQLite files, a real state folder.
import { execa } from 'execa';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, ROOT, tempDir } from '../helpers';

const RUNNER = join(ROOT, 'dist', 'runner.js');

describe('verify under load', () => {
  it('verify during 8 writers x 12 appends and repeated folds never reports tampering, and ends intact', async () => {
    const project = tempDir('loom-race-');
    mkdirSync(join(project, '.git'));
    const env = { ...process.env, LOOM_FAST: '0', LOOM_CONFIG: '', LOOM_PROJECT_DIR: '', CLAUDE_PROJECT_DIR: '', LOOM_HARNESS: 'claude', LOOM_LEDGER_KEY: '', LOOM_CHECKPOINT_DIR: '', XDG_STATE_HOME: tempDir('loom-state-') };
    const hook = (n: string) => execa('node', [RUNNER, 'pre-tool-guard'], { input: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: `echo ${n}` }, cwd: project }), env, reject: false });
    await hook('0');
    let writing = true;
    const writers = Promise.all(Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; i < 12; i++) await hook(`${w}-${i}`);
    })).finally(() => (writing = false));
    const folds = (async () => {
      while (writing) await execa('node', [CLI, 'fold', '--project-dir', project], { env, reject: false });
    })();
    const verdicts: string[] = [];
    while (writing) {
      const r = await execa('node', [CLI, 'verify', '--project-dir', project], { env, reject: false });
      if (r.exitCode !== 0) verdicts.push(`${r.exitCode}: ${r.stdout.slice(0, 200)}${r.stderr.slice(0, 200)}`);
    }
    await writers;
    await folds;
    expect(verdicts).toEqual([]);
    const last = await execa('node', [CLI, 'verify', '--project-dir', project], { env, reject: false });
    expect(last.exitCode).toBe(0);
    expect(last.stdout).toContain('intact: 97 records');
  }, 300_000);
});
