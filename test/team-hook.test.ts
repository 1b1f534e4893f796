// Shipping off the hook path, against a real PostgreSQL: SessionEnd / Stop
// start a detached shipper after the answer; the hook process never loads
// the pg client and never waits for the store; loom serve's upkeep ships.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runHook, tempDir } from './helpers';
import { startPgServer, type PgServer } from './pg-server';
import { loom, projectWith, query } from './team-helpers';

let pg: PgServer;
beforeAll(async () => {
  pg = await startPgServer();
  expect((await loom(['team', 'init'], { LOOM_TEAM_URL: pg.url })).code).toBe(0);
}, 120_000);
afterAll(() => pg?.destroy());

const waitFor = async (cond: () => Promise<boolean> | boolean, what: string, tries = 1200) => {
  for (let i = 0; i < tries; i++) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
};

function tracer(): { env: NodeJS.ProcessEnv; loads: () => string[] } {
  const dir = tempDir();
  const log = join(dir, 'loads.txt');
  const script = join(dir, 'trace.cjs');
  // Records every process that loads the pg client, with its command line.
  writeFileSync(
    script,
    `const M = require('module'); const fs = require('fs'); const orig = M._load;
M._load = function (req, ...rest) { if (req === 'pg') fs.appendFileSync(${JSON.stringify(log)}, process.argv.slice(1).join(' ') + '\\n'); return orig.call(this, req, ...rest); };`,
  );
  return { env: { NODE_OPTIONS: `--require ${script}` }, loads: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean) : []) };
}

describe('the opportunistic shipper at SessionEnd / Stop', { timeout: 180_000 }, () => {
  it('ships from a detached child; the hook process itself never loads pg', async () => {
    const p = projectWith(20);
    const t = tracer();
    const env = { ...t.env, LOOM_TEAM_URL: pg.url };
    const r = await runHook(['--event', 'SessionEnd', '--project-dir', p], { hook_event_name: 'SessionEnd', session_id: 's1', reason: 'exit', cwd: p }, env);
    expect(r.code).toBe(0);
    const count = async () => Number((await query<{ n: string }>(pg.url, 'SELECT count(*) AS n FROM loom.records r JOIN loom.ledgers l USING (ledger_id) WHERE l.project = $1', [p.split('/').pop()]))[0].n);
    await waitFor(async () => (await count()) === 21, 'the 20 records and the SessionEnd record');
    const loads = t.loads();
    expect(loads.length).toBeGreaterThan(0);
    for (const l of loads) expect(l).toMatch(/loom\.js ship --background/);
    expect(loads.join('\n')).not.toContain('run-hook');
    // A PreToolUse call ships nothing and loads nothing.
    const before = await count();
    const pre = await runHook(['--event', 'PreToolUse', '--project-dir', p], { hook_event_name: 'PreToolUse', session_id: 's1', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: p }, env);
    expect(pre.code).toBe(0);
    await new Promise((res) => setTimeout(res, 1500));
    expect(await count()).toBe(before);
    expect(t.loads().length).toBe(loads.length);
  });

  it('answers while a store that never replies holds the shipper up', async () => {
    // A "database" that accepts connections and says nothing.
    const sockets: Socket[] = [];
    const silent: Server = createServer((s) => sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as { port: number }).port;
    const p = projectWith(3);
    try {
      const r = await runHook(['--event', 'Stop', '--project-dir', p], { hook_event_name: 'Stop', session_id: 's2', cwd: p }, { LOOM_TEAM_URL: `postgres://x@127.0.0.1:${port}/loom` });
      expect(r.code).toBe(0);
      // The hook has exited; its shipper is still waiting on the silent server.
      const lock = join(p, '.loom', 'compliance', 'ship.lock');
      await waitFor(() => sockets.length > 0 && existsSync(lock), 'the shipper to connect');
      const pid = Number(readFileSync(lock, 'utf8'));
      expect(() => process.kill(pid, 0)).not.toThrow();
      process.kill(pid, 'SIGKILL');
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
    }
  });
});

describe('loom serve ships from its upkeep thread', { timeout: 180_000 }, () => {
  it('records answered by the server reach the team store, and the last ones on shutdown', async () => {
    const p = tempDir('loom-team-serve-');
    const { spawn } = await import('node:child_process');
    const { CLI } = await import('./helpers');
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--project-dir', p], { env: { ...process.env, LOOM_TEAM_URL: pg.url, LOOM_CONFIG: '' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    await waitFor(() => /listening on (\S+)/.test(err), 'the server');
    const url = /listening on (\S+)/.exec(err)![1];
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${url}/hooks/PreToolUse`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'srv', tool_name: 'Bash', tool_input: { command: `echo ${i}` }, cwd: p }) });
      expect(res.status).toBe(200);
    }
    const count = async () => Number((await query<{ n: string }>(pg.url, 'SELECT count(*) AS n FROM loom.records r JOIN loom.ledgers l USING (ledger_id) WHERE l.project = $1', [p.split('/').pop()]))[0].n);
    await waitFor(async () => (await count()) >= 5, 'the upkeep to ship');
    child.kill('SIGTERM');
    await new Promise((r) => child.on('close', r));
    const { localRows } = await import('./team-helpers');
    expect(await count()).toBe(localRows(p).length);
  });
});
