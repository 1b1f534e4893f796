// Fuzz: malformed payloads through the runner in process, through the real
// runner process and through loom serve (2,000 / 200 / 1,000 by default;
// the 10,000 / 1,000 / 2,000 with LOOM_CHAOS_FULL=1, see scale.ts).
// 0 crashes, 0 hangs, 0 dangerous calls answered with anything but a block,
// every answer a documented one. Counts are printed.
import { execa } from 'execa';
import { mkdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerProblems, fuzzCase, isBlock } from '../fuzz/payloads';
import { CLI, ROOT, run, RUNNER, tempDir } from '../helpers';
import { chaosCount, chaosTimeout } from './scale';

const IN_PROCESS = chaosCount(2000, 10_000);
const REAL = chaosCount(200, 1000);
const SERVE = chaosCount(1000, 2000);

const SEED = Number(process.env.LOOM_FUZZ_SEED ?? 20261201);
/** tmpfs when there is one: the fuzz measures the runner, not the disk's fsync. */
const fastDir = () => {
  try {
    const d = join('/dev/shm', `loom-fuzz-${process.pid}-${Math.random().toString(36).slice(2)}`);
    mkdirSync(d);
    return d;
  } catch {
    return tempDir('loom-fuzz-');
  }
};

describe('fuzz', () => {
  it(`${IN_PROCESS} malformed payloads through the runner in process`, async () => {
    const dir = fastDir();
    mkdirSync(join(dir, 'run'));
    // Two drivers of half each: two cores.
    const halves = await Promise.all(
      [0, 1].map((k) => run(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'test', 'fuzz', 'runner-driver.ts'), String(SEED + k), String(Math.ceil(IN_PROCESS / 2)), join(dir, `d${k}`)], null, {}, join(dir, 'run'))),
    );
    const outs = halves.map((h) => JSON.parse(h.stderr.trim().split('\n').pop()!));
    const counts = { cases: 0, dangerous: 0, blocked: 0, problems: 0 };
    for (const o of outs) for (const k of Object.keys(counts) as (keyof typeof counts)[]) counts[k] += o.counts[k];
    console.log(`fuzz runner in process: ${JSON.stringify(counts)} exits ${JSON.stringify(outs.map((o) => o.counts.byExit))}`);
    expect(outs.flatMap((o) => o.failures)).toEqual([]);
    expect(counts.cases).toBe(2 * Math.ceil(IN_PROCESS / 2));
    expect(counts.blocked).toBe(counts.dangerous);
  }, chaosTimeout(300));

  it(`${REAL} malformed payloads through the real runner process`, async () => {
    const dir = fastDir();
    const counts = { cases: 0, dangerous: 0, blocked: 0, problems: 0, hangs: 0 };
    const failures: string[] = [];
    const one = async (i: number) => {
      const c = fuzzCase(SEED + 7, i);
      const args = [RUNNER, '--event', c.event, '--harness', i % 3 === 0 ? c.harness : 'auto', ...(i % 2 === 0 ? ['--project-dir', dir] : [])];
      const r = await Promise.race([run(process.execPath, args, c.body, {}, dir), new Promise<null>((res) => setTimeout(() => res(null), 30_000))]);
      counts.cases++;
      if (!r) {
        counts.hangs++;
        failures.push(`case ${i}: no answer within 30 s`);
        return;
      }
      const a = { exitCode: r.code, stdout: r.stdout, stderr: r.stderr };
      if (c.dangerous) counts.dangerous++;
      if (c.dangerous && isBlock(a)) counts.blocked++;
      const p = answerProblems(c, a);
      if (p.length) {
        counts.problems++;
        if (failures.length < 20) failures.push(`seed ${SEED + 7} case ${i} (${c.family}): ${p.join(', ')}; exit ${r.code}; ${r.stderr.slice(0, 200)}`);
      }
    };
    // Four at a time: two cores, processes mostly start-up.
    for (let i = 0; i < REAL; i += 4) await Promise.all([i, i + 1, i + 2, i + 3].map(one));
    console.log(`fuzz runner process: ${JSON.stringify(counts)}`);
    expect(failures).toEqual([]);
    expect(counts.cases).toBe(Math.ceil(REAL / 4) * 4);
    expect(counts.blocked).toBe(counts.dangerous);
  }, chaosTimeout(300));

  it(`${SERVE} malformed payloads through loom serve`, async () => {
    const project = fastDir();
    const child = execa(process.execPath, [CLI, 'serve', '--port', '0', '--project-dir', project], { env: { ...process.env, LOOM_SERVE_TOKEN: '', LOOM_CONFIG: '', LOOM_PROJECT_DIR: '' }, stdio: ['ignore', 'ignore', 'pipe'], reject: false, stripFinalNewline: false });
    let err = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr!.on('data', (d) => {
        err += d;
        const m = /listening on (http:\/\/\S+)/.exec(err);
        if (m) resolve(m[1]);
      });
      child.on('exit', (c) => reject(new Error(`server exited ${c}: ${err}`)));
    });
    const counts = { cases: 0, dangerous: 0, blocked: 0, problems: 0, byStatus: {} as Record<string, number> };
    const failures: string[] = [];
    try {
      const post = (path: string, body: string) =>
        new Promise<{ status: number; body: string }>((resolve) => {
          const req = request(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, timeout: 30_000 }, (res) => {
            let b = '';
            res.on('data', (d) => (b += d));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: b }));
          });
          req.on('timeout', () => req.destroy(new Error('hang')));
          req.on('error', (e) => resolve({ status: -1, body: e.message }));
          req.end(body);
        });
      const one = async (i: number) => {
        const c = fuzzCase(SEED + 11, i);
        // Event in the path where the harness would put it; the body is whatever the fuzz made.
        const r = await post(`/hooks/${encodeURIComponent(c.event)}?harness=${i % 3 === 0 ? c.harness : 'auto'}`, c.body);
        counts.cases++;
        counts.byStatus[r.status] = (counts.byStatus[r.status] ?? 0) + 1;
        const problems: string[] = [];
        if (![200, 400, 413].includes(r.status)) problems.push(`status ${r.status}`);
        let json: Record<string, unknown> | undefined;
        try {
          json = JSON.parse(r.body);
        } catch {
          problems.push('body is not JSON');
        }
        if (c.dangerous) {
          counts.dangerous++;
          const blocked = r.status === 200 && json !== undefined && isBlock({ exitCode: 0, stdout: r.body, stderr: '' });
          if (blocked) counts.blocked++;
          else problems.push('dangerous call not blocked');
        }
        if (problems.length) {
          counts.problems++;
          if (failures.length < 20) failures.push(`seed ${SEED + 11} case ${i} (${c.family}, ${c.event}): ${problems.join(', ')}; ${r.status} ${r.body.slice(0, 200)}`);
        }
      };
      for (let i = 0; i < SERVE; i += 16) await Promise.all(Array.from({ length: 16 }, (_, k) => one(i + k)));
      const health = await new Promise<number>((resolve) => request(url + '/healthz', (res) => resolve(res.statusCode ?? 0)).end());
      expect(health).toBe(200);
    } finally {
      child.kill('SIGKILL');
    }
    console.log(`fuzz serve: ${JSON.stringify(counts)}`);
    expect(failures).toEqual([]);
    expect(counts.cases).toBe(Math.ceil(SERVE / 16) * 16);
    expect(counts.blocked).toBe(counts.dangerous);
  }, chaosTimeout(300));
});
