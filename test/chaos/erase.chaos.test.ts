// loom erase killed with SIGKILL between its steps: after the erasure
// records, after the bodies changed, after the journal was rewritten, after
// history.json, after VACUUM (exact points, LOOM_FAULT_KILL_AT), and at random
// moments. Afterwards verify must say intact (erased or not yet: never a
// record lost, never "tampered" for what erase itself did), and a second
// `loom erase` must finish the job: the value gone from every file under
// .loom/. Real CLI processes, real SQLite files, real kill -9.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { execa } from 'execa';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, run, runHook, tempDir } from '../helpers';
import { chaosCount, chaosTimeout } from './scale';

const LEAK = 'velvet-rosebud-4471-quartz';
const POINTS = ['erase:after-erasure-records', 'erase:after-bodies', 'erase:after-journal', 'erase:after-history', 'erase:after-vacuum'];
const log = (line: string) => process.stdout.write(`chaos: ${line}\n`);

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}
const holding = (dir: string) => filesUnder(dir).filter((f) => readFileSync(f).includes(Buffer.from(LEAK)));

function envFor(project: string): NodeJS.ProcessEnv {
  const home = `${project}-home`;
  mkdirSync(home, { recursive: true });
  return { LOOM_PROJECT_DIR: project, HOME: home, XDG_STATE_HOME: join(home, 'state'), XDG_CONFIG_HOME: join(home, 'config'), LOOM_CHECKPOINT_DIR: join(home, 'checkpoints'), LOOM_CHECKPOINT_EVERY: '3', LOOM_FOLD_EVERY: '100000', LOOM_LEDGER_KEY: '' };
}

async function post(project: string, env: NodeJS.ProcessEnv, stdout: string): Promise<void> {
  const r = await runHook(['--event', 'PostToolUse'], { session_id: 's', hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'cat notes.txt' }, tool_response: { stdout, stderr: '', exit_code: 0 }, cwd: project }, env);
  expect(r.code, r.stderr).toBe(0);
}

/** Runs `loom erase --match -` with the leak on stdin; killed at `point`, or after `killAfterMs`. */
function eraseRun(project: string, env: NodeJS.ProcessEnv, point?: string, killAfterMs?: number): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = execa(process.execPath, [CLI, 'erase', '--match', '-', '--reason', 'chaos'], { env: { ...process.env, ...env, ...(point ? { LOOM_FAULT_KILL_AT: point } : {}) }, stdio: ['pipe', 'ignore', 'pipe'], reject: false, stripFinalNewline: false });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    child.stdin!.end(LEAK);
    if (killAfterMs !== undefined) setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('exit', (code, signal) => resolve({ code, signal, stderr }));
  });
}

async function verify(env: NodeJS.ProcessEnv): Promise<{ status: string; records: number; detail: string }> {
  const v = await run(process.execPath, [CLI, 'verify', '--json'], null, env);
  const r = JSON.parse(v.stdout || '{}');
  return { status: r.status, records: r.records, detail: JSON.stringify(r.problem ?? r.error ?? '') };
}

describe('erase chaos', () => {
  it(
    'kill -9 between rewriting the bodies and VACUUM/WAL emptying: verify intact-or-erased, a second erase completes',
    async () => {
      // One ledger, copied per case: the leak in a folded record, a plain one, and the leak again in the journal only.
      const template = tempDir('loom-erase-chaos-');
      const tenv = envFor(template);
      await post(template, tenv, `a ${LEAK}`);
      await post(template, tenv, 'b plain');
      expect((await run(process.execPath, [CLI, 'fold'], null, tenv)).code).toBe(0);
      await post(template, tenv, `c ${LEAK}`);
      const base = (await verify(tenv)).records;
      expect(base).toBe(3);
      // How long an erase takes here, for the random kills.
      const probe = tempDir('loom-erase-chaos-');
      cpSync(join(template, '.loom'), join(probe, '.loom'), { recursive: true });
      const t0 = Date.now();
      expect((await eraseRun(probe, envFor(probe))).code).toBe(0);
      const took = Date.now() - t0;
      const random = chaosCount(4, 30);
      const cases: { point?: string; at?: number }[] = [...POINTS.map((point) => ({ point })), ...Array.from({ length: random }, (_, i) => ({ at: Math.round(((i + 0.5) / random) * took) }))];
      const tally = { cases: 0, killed: 0, intactAfterKill: 0, erasedByKill: 0, finishedByRerun: 0, leftovers: 0 };
      for (const c of cases) {
        const project = tempDir('loom-erase-chaos-');
        cpSync(join(template, '.loom'), join(project, '.loom'), { recursive: true });
        const env = envFor(project);
        const r = await eraseRun(project, env, c.point, c.at);
        const label = c.point ?? `kill at ${c.at} ms of ${took}`;
        if (r.signal === 'SIGKILL') tally.killed++;
        else expect(r.code, `${label}: ${r.stderr}`).toBe(0);
        if (c.point) expect(r.signal, `${label}: the process reached the point and died there`).toBe('SIGKILL');
        // Right after the kill: the chain holds, every record is there (the erasure records may or may not be).
        const v1 = await verify(env);
        expect(v1.status, `${label}: ${v1.detail}`).toBe('intact');
        expect(v1.records).toBeGreaterThanOrEqual(base);
        tally.intactAfterKill++;
        if (!holding(join(project, '.loom')).length) tally.erasedByKill++;
        // A second erase finishes: erased (0) or nothing left to erase (1), then no copy of the value anywhere.
        const again = await eraseRun(project, env);
        expect([0, 1], `${label}: ${again.stderr}`).toContain(again.code);
        const v2 = await verify(env);
        expect(v2.status, `${label} then erase: ${v2.detail}`).toBe('intact');
        expect(v2.records).toBeGreaterThanOrEqual(base + 2);
        const left = holding(join(project, '.loom'));
        tally.leftovers += left.length;
        expect(left, `${label}: the value is still in`).toEqual([]);
        if (r.signal === 'SIGKILL') tally.finishedByRerun++;
        tally.cases++;
      }
      log(`erase kill -9: ${JSON.stringify(tally)} (an uninterrupted erase took ${took} ms)`);
      expect(tally.cases).toBe(cases.length);
      expect(tally.killed).toBeGreaterThanOrEqual(POINTS.length);
    },
    chaosTimeout(240),
  );
});
