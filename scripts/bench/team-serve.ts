// Issue 16 §4 numbers: `loom serve --team-url` with 2 instances sharing one
// PostgreSQL, 32 connections in all (autocannon, closed loop), each decision
// durable in the store before its answer. Four clients, each sent to both
// instances (as a balancer would), so both instances extend each client's
// chain. Durability is checked, not assumed: the store must hold at least one
// new record per answer, the spools must be empty, and verify --team of the
// serve ledgers must be intact afterwards.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PgClient } from '../../src/team/pg';
import { verifyTeam } from '../../src/team/verify';
import { ROOT } from './measure';

type Result = { requests: { average: number; total: number }; latency: { p99: number; p50: number; average: number }; non2xx: number; errors: number; timeouts: number; '2xx': number; duration: number };
const autocannon = require('autocannon') as (o: Record<string, unknown>) => Promise<Result>;

const SECONDS = Number(process.env.LOOM_BENCH_TEAM_SERVE_SECONDS ?? 10);
const CLIENTS = ['alice@laptop', 'bob.ci', 'carol-dev', 'dave-dev'];

function startServe(pgUrl: string, tokenFile: string, home: string, extraEnv: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string; spool: string }> {
  const spool = join(home, 'spool');
  mkdirSync(spool, { recursive: true });
  const child = spawn(process.execPath, [...(process.env.LOOM_BENCH_SERVE_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.LOOM_BENCH_SERVE_PROF] : []), join(ROOT, 'bin', 'loom.js'), 'serve', '--port', '0', '--team-url', pgUrl, '--token-file', tokenFile, '--spool-dir', spool], {
    cwd: home,
    env: { ...process.env, HOME: home, XDG_STATE_HOME: join(home, 'state'), LOOM_TEAM_URL: '', LOOM_SERVE_TOKEN: '', LOOM_CONFIG: '', LOOM_PROJECT_DIR: '', LOOM_LEDGER_KEY: '', ...extraEnv },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d) => {
      if (process.env.LOOM_BENCH_SERVE_TRACE) process.stderr.write(d);
      err += d;
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve({ child, url: m[1], spool });
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`loom serve --team-url exited ${code}: ${err}`)));
  });
}

const count = async (c: PgClient) => Number((await c.query("SELECT count(*) AS n FROM loom.chain WHERE ledger_id LIKE 'serve:%'")).rows[0].n);

export async function benchTeamServe(pgUrl: string, admin: PgClient, say: (l: string) => void, sticky = !!process.env.LOOM_BENCH_STICKY): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'loom-bench-team-serve-'));
  const tokens = CLIENTS.map((id, i) => [id, `tok-${i}-${'x'.repeat(24)}`] as const);
  const tokenFile = join(home, 'clients');
  writeFileSync(tokenFile, tokens.map(([id, t]) => `${id} ${t}`).join('\n') + '\n');
  const servers = await Promise.all([0, 1].map((i) => startServe(pgUrl, tokenFile, join(home, `i${i}`), {})));
  try {
    const run = (extra: Record<string, unknown>) =>
      // 8 autocannon instances x 4 connections = 32: each of the 4 clients on both instances.
      Promise.all(
        [0, 1, 2, 3, 4, 5, 6, 7].map((k) =>
          autocannon({
            url: `${servers[k % 2].url}/hooks/PreToolUse`,
            method: 'POST',
            connections: 4,
            // Shared: client k>>1 on both instances. Sticky (a balancer hashing the token): client k%4 on instance k%2 only.
            headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[sticky ? k % 4 : k >> 1][1]}` },
            body: JSON.stringify({ hook_event_name: 'PreToolUse', session_id: `bench-${k}`, tool_name: 'Bash', tool_input: { command: 'npm test && git status --short' }, cwd: `/home/dev${sticky ? k % 4 : k >> 1}/work/repo` }),
            ...extra,
          }),
        ),
      );
    await run({ amount: 500 }); // warm-up: connections, JIT
    const before = await count(admin);
    const t0 = performance.now();
    const rs = await run({ duration: SECONDS });
    const secs = (performance.now() - t0) / 1000;
    const after = await count(admin);
    const ok = rs.reduce((a, r) => a + r['2xx'], 0);
    const bad = rs.reduce((a, r) => a + r.non2xx + r.errors + r.timeouts, 0);
    const rps = ok / secs;
    const p99 = Math.max(...rs.map((r) => r.latency.p99));
    const p50 = Math.max(...rs.map((r) => r.latency.p50));
    for (let i = 0; i < 20 && servers.some((s) => readdirSync(s.spool).length > 0); i++) await new Promise((r) => setTimeout(r, 100));
    const spooled = servers.reduce((a, s) => a + readdirSync(s.spool).length, 0);
    const durable = after - before >= ok && spooled === 0;
    let serveIntact = true;
    for (const [id] of tokens) serveIntact &&= (await verifyTeam(admin, { ledger: `serve:${id}` })).status === 'intact';
    const met = (x: boolean) => (x ? 'met' : 'NOT met');
    say(
      `loom serve --team-url, 2 instances, 32 connections closed loop (${sticky ? '4 clients, each sticky to one instance, as a balancer hashing the token' : '4 clients, each sent to both instances'}): ${Math.round(rps).toLocaleString('en-US')} durable decisions/s in all (target >= 2,000: ${met(rps >= 2000)}), p50 ${p50} ms, p99 ${p99} ms (worst of the 8 load generators; target < 20: ${met(p99 < 20)}); non-2xx/errors ${bad}; ${(after - before).toLocaleString('en-US')} records stored for ${ok.toLocaleString('en-US')} answers, spools empty: ${met(durable)}; serve chains verify intact: ${met(serveIntact)}`,
    );
    // At the target's rate (offered, not closed loop): the p99 a user sees at 2,000 decisions/s.
    if (process.env.LOOM_BENCH_TEAM_SERVE_FIXED === '0') return;
    const fixed = await run({ duration: SECONDS, overallRate: 250 });
    const frps = fixed.reduce((a, r) => a + r['2xx'], 0) / SECONDS;
    say(`  at an offered 2,000 decisions/s (8 x 250/s): answered ${Math.round(frps).toLocaleString('en-US')}/s, p50 ${Math.max(...fixed.map((r) => r.latency.p50))} ms, p99 ${Math.max(...fixed.map((r) => r.latency.p99))} ms (target < 20: ${met(Math.max(...fixed.map((r) => r.latency.p99)) < 20)})`);
  } finally {
    for (const s of servers) s.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    rmSync(home, { recursive: true, force: true });
  }
}
