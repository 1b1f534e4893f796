// Issue 16: the team store against a real PostgreSQL (initdb'd here, default
// durability settings). 50 ledgers x 20,000 records shipped; 1,000 new
// records shipped; verify --team over everything; a fork and a gap named;
// the store down for a 10,000-record session, then up; the hook with and
// without a team store configured.
import { spawn, execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import Database from 'better-sqlite3';
import { bulkHasher } from '../../src/ledger/chain';
import { buildRecord, Ledger } from '../../src/ledger/store';
import { connect } from '../../src/team/pg';
import { initStore } from '../../src/team/init';
import { shipLedger } from '../../src/team/ship';
import { verifyTeam } from '../../src/team/verify';
import { startPgServer } from '../../test/pg-server';
import { deleteLocal, rewriteChain } from '../../test/ledger-forgers';
import { loadavg } from 'node:os';
import { benchProject, compare, median, ROOT, sample } from './measure';
import { benchTeamServe } from './team-serve';

const LEDGERS = Number(process.env.LOOM_BENCH_TEAM_LEDGERS ?? 50);
const PER = Number(process.env.LOOM_BENCH_TEAM_RECORDS ?? 20_000);

/** A local ledger of n records in the real writer's encoding and chain, written in one transaction. */
function generateLedger(project: string, n: number, startTs: number, dev: number): void {
  Ledger.openForAppend(project).close();
  const db = new Database(join(project, '.loom', 'compliance', 'ledger.db'));
  const insert = db.prepare('INSERT INTO records (seq, body, hash) VALUES (?,?,?)');
  const hasher = bulkHasher();
  let prev = '0'.repeat(64);
  db.exec('BEGIN');
  for (let seq = 1; seq <= n; seq++) {
    const deny = seq % 97 === 0;
    const r = buildRecord(
      {
        event: seq % 5 === 0 ? 'PostToolUse' : 'PreToolUse',
        hook_id: 'pre-tool-guard',
        harness: dev % 3 === 0 ? 'codex' : 'claude',
        session_id: `d${dev}-s${Math.floor(seq / 200)}`,
        risk: deny ? 'critical' : 'low',
        decision: deny ? 'deny' : 'allow',
        status: 'ok',
        kind: 'tool_call',
        data: deny ? { tool: 'Bash', input_summary: `rm -rf /tmp/../${seq % 7}`, rules: [{ rule: 'rm-recursive-root', action: 'deny' }] } : { tool: 'Bash', input_summary: `npm test -- --grep case-${seq}`, rules: [] },
      },
      seq,
      prev,
      new Date(startTs + seq * 1000).toISOString(),
      undefined,
      undefined,
      hasher,
    );
    insert.run(r.seq, r.body, r.hash);
    prev = r.hash;
  }
  db.exec('COMMIT');
  db.close();
}

function appendDrafts(project: string, n: number): void {
  const l = Ledger.openForAppend(project);
  try {
    for (let i = 0; i < n; i += 50) l.append(Array.from({ length: Math.min(50, n - i) }, (_, k) => ({ event: 'PreToolUse', hook_id: 'pre-tool-guard', harness: 'claude', session_id: 'live', risk: 'low' as const, decision: 'allow', status: 'ok', kind: 'tool_call', data: { tool: 'Bash', input_summary: `ls ${i + k}` } })));
  } finally {
    l.close();
  }
}

const secs = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e9;
const met = (ok: boolean) => (ok ? 'met' : 'NOT met');

export async function benchTeam(): Promise<string[]> {
  const lines: string[] = [];
  // The machine is shared: every line says the load it was measured under.
  const load = () => `load ${loadavg().map((x) => x.toFixed(1)).join(' ')}`;
  const say = (l: string) => { l = `${l} [${load()}]`; lines.push(l); process.stderr.write(l + '\n'); };
  lines.push(`## team store on PostgreSQL (issue 16): ${LEDGERS} ledgers x ${PER.toLocaleString('en-US')} records, ${load()} at start`);
  const pg = await startPgServer({ fast: false });
  const projects: string[] = [];
  try {
    const cfg = { url: pg.url, source: 'LOOM_TEAM_URL' as const, shipOnStop: true };
    const admin = await connect(cfg);
    await initStore(admin);
    let t0 = process.hrtime.bigint();
    const start = Date.parse('2026-06-01T00:00:00Z');
    for (let d = 0; d < LEDGERS; d++) {
      const p = benchProject();
      generateLedger(p, PER, start + d * 7919, d);
      projects.push(p);
    }
    say(`generated ${LEDGERS} local ledgers x ${PER.toLocaleString('en-US')} records (real encoding and chain) in ${secs(t0).toFixed(1)} s`);

    // 1. The whole backlog, four shippers at once (as developers' machines would).
    t0 = process.hrtime.bigint();
    let next = 0;
    let shipped = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        const c = await connect(cfg);
        try {
          while (next < projects.length) {
            const p = projects[next++];
            // Read after the await: `shipped += await ...` would add to a stale value and lose the other shippers' counts.
            const n = (await shipLedger(c, p)).shipped;
            shipped += n;
          }
        } finally {
          await c.end();
        }
      }),
    );
    const shipSecs = secs(t0);
    say(`ship ${shipped.toLocaleString('en-US')} records from ${LEDGERS} ledgers: ${shipSecs.toFixed(1)} s = ${Math.round(shipped / shipSecs).toLocaleString('en-US')} records/s (target < 60 s: ${met(shipSecs < 60)})`);

    // 2. 1,000 new records on a ledger that has shipped everything: loom ship, process start included.
    appendDrafts(projects[0], 1000);
    const cli = join(ROOT, 'bin', 'loom.js');
    const one = sample(process.execPath, [cli, 'ship', '--project-dir', projects[0], '--quiet'], '', { LOOM_TEAM_URL: pg.url });
    const noop = sample(process.execPath, [cli, 'ship', '--project-dir', projects[0], '--quiet'], '', { LOOM_TEAM_URL: pg.url });
    say(`loom ship of 1,000 new records: ${(one.wallMs / 1000).toFixed(2)} s wall, process start included (target < 1 s: ${met(one.wallMs < 1000)}); with nothing new: ${(noop.wallMs / 1000).toFixed(2)} s`);

    // 3. verify --team over the whole store.
    t0 = process.hrtime.bigint();
    const v = await verifyTeam(admin);
    const vs = secs(t0);
    say(`verify --team: ${v.records.toLocaleString('en-US')} records in ${vs.toFixed(1)} s = ${Math.round(v.records / vs).toLocaleString('en-US')} records/s (target >= 100,000: ${met(v.records / vs >= 100_000)}), status ${v.status}`);

    // 3b. report --team over the whole store: the CLI, process start and HTML included.
    const reportOut = join(projects[0], 'team.html');
    const rep = sample(process.execPath, [cli, 'report', '--team', '--out', reportOut], '', { LOOM_TEAM_URL: pg.url });
    say(`loom report --team over ${v.records.toLocaleString('en-US')} records: ${(rep.wallMs / 1000).toFixed(2)} s wall, process start included (target < 10 s: ${met(rep.wallMs < 10_000)})`);

    // 3c. loom serve --team-url: 2 instances, 32 connections; clients on both instances, then sticky.
    await benchTeamServe(pg.url, admin, say, false);
    await benchTeamServe(pg.url, admin, say, true);

    // 4. A fork and a gap, each named.
    rewriteChain(projects[1], PER - 100);
    appendDrafts(projects[1], 5);
    appendDrafts(projects[2], 20);
    deleteLocal(projects[2], [PER + 3, PER + 4]);
    const f = await shipLedger(admin, projects[1]);
    const g = await shipLedger(admin, projects[2]);
    const v2 = await verifyTeam(admin);
    const named = v2.ledgers.flatMap((l) => l.problems.map((p) => `${l.ledgerId}: ${p.kind} at seq ${p.seq}`));
    const forkNamed = f.alerts.some((a) => a.kind === 'fork') && v2.ledgers.some((l) => l.ledgerId === f.ledgerId && l.problems.some((p) => p.kind === 'fork'));
    const gapNamed = g.alerts.some((a) => a.kind === 'gap') && v2.ledgers.some((l) => l.ledgerId === g.ledgerId && l.problems.some((p) => p.kind === 'gap' && p.seq === PER + 3));
    say(`fork detected and named: ${met(forkNamed)}; gap detected and named: ${met(gapNamed)} (${named.slice(0, 4).join('; ')})`);

    // 5. Down for a whole 10,000-record session, then up, with loom ship --watch running throughout.
    const p = projects[3];
    const before = Number((await admin.query('SELECT count(*) AS n FROM loom.chain c JOIN loom.ledgers l USING (ledger_id) WHERE l.project = $1', [p.split('/').pop()])).rows[0].n);
    await admin.end();
    const watcher = spawn(process.execPath, [cli, 'ship', '--watch', '--interval', '0.5', '--project-dir', p], { env: { ...process.env, LOOM_TEAM_URL: pg.url }, stdio: 'ignore' });
    pg.stop();
    appendDrafts(p, 10_000);
    pg.start();
    t0 = process.hrtime.bigint();
    const c = new Client({ connectionString: pg.url });
    await c.connect();
    const want = before + 10_000;
    let rows: { seq: string; hash: string }[] = [];
    for (let i = 0; i < 600; i++) {
      const n = Number((await c.query('SELECT count(*) AS n FROM loom.chain c JOIN loom.ledgers l USING (ledger_id) WHERE l.project = $1', [p.split('/').pop()])).rows[0].n);
      if (n >= want) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const caught = secs(t0);
    watcher.kill('SIGTERM');
    rows = (await c.query('SELECT r.seq, r.hash FROM loom.records r JOIN loom.ledgers l USING (ledger_id) WHERE l.project = $1 ORDER BY r.seq', [p.split('/').pop()])).rows;
    await c.end();
    const local = new Database(join(p, '.loom', 'compliance', 'ledger.db'), { readonly: true });
    const localRows = local.prepare('SELECT seq, hash FROM records ORDER BY seq').all() as { seq: number; hash: string }[];
    local.close();
    const exact = rows.length === localRows.length && rows.every((r, i) => Number(r.seq) === localRows[i].seq && r.hash === localRows[i].hash);
    say(`store down for a 10,000-record session, then up: backlog shipped ${caught.toFixed(1)} s after restart; every record once and in order: ${met(exact)} (${rows.length} stored, ${localRows.length} local)`);

    // 6. The hook: Stop with a team store (detached shipper) vs without, interleaved.
    const hp = benchProject();
    const stop = JSON.stringify({ session_id: 'bench', hook_event_name: 'Stop', cwd: hp });
    const wrapper = join(ROOT, 'hooks', 'stop-check');
    const results = compare(
      [
        { name: 'Stop, no team store', run: () => sample(wrapper, [], stop, { LOOM_PROJECT_DIR: hp, LOOM_TEAM_URL: '' }, hp) },
        { name: 'Stop, team store (detached shipper)', run: () => sample(wrapper, [], stop, { LOOM_PROJECT_DIR: hp, LOOM_TEAM_URL: pg.url }, hp) },
      ],
      30,
    );
    const a = median(results.get('Stop, no team store')!.map((s) => s.wallMs));
    const b = median(results.get('Stop, team store (detached shipper)')!.map((s) => s.wallMs));
    say(`Stop hook: median ${a.toFixed(1)} ms without a team store, ${b.toFixed(1)} ms with one = ${(b / a).toFixed(3)} x (the shipper runs after the answer, detached)`);
    const pre = JSON.stringify({ session_id: 'bench', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: hp });
    const pw = join(ROOT, 'hooks', 'pre-tool-guard');
    const quiet = compare([{ name: 'PreToolUse', run: () => sample(pw, [], pre, { LOOM_PROJECT_DIR: hp }, hp) }], 20);
    const busyWatcher = spawn(process.execPath, [cli, 'ship', '--watch', '--interval', '0.2', '--project-dir', hp], { env: { ...process.env, LOOM_TEAM_URL: pg.url }, stdio: 'ignore' });
    const busy = compare([{ name: 'PreToolUse', run: () => sample(pw, [], pre, { LOOM_PROJECT_DIR: hp }, hp) }], 20);
    busyWatcher.kill('SIGTERM');
    const q = median(quiet.get('PreToolUse')!.map((s) => s.wallMs));
    const w = median(busy.get('PreToolUse')!.map((s) => s.wallMs));
    say(`PreToolUse hook: median ${q.toFixed(1)} ms alone, ${w.toFixed(1)} ms with loom ship --watch shipping the same project = ${(w / q).toFixed(3)} x`);
    rmSync(hp, { recursive: true, force: true });
  } finally {
    for (const p of projects) execFileSync('rm', ['-rf', p]);
    pg.destroy();
  }
  return lines;
}
