// loom serve's start and stop as a real process sees them: a SIGTERM at any
// moment after the "listening" line is a clean stop (exit 0, the shutdown
// line), never the process killed by the signal's default action.
import { execa } from 'execa';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, tempDir } from './helpers';

function isolatedEnv(home: string): NodeJS.ProcessEnv {
  return { ...process.env, HOME: home, XDG_STATE_HOME: join(home, 'state'), XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data'), LOOM_CHECKPOINT_DIR: '', LOOM_SERVE_TOKEN: '', LOOM_CONFIG: '', LOOM_PROJECT_DIR: '', LOOM_TEAM_URL: '' };
}

/** Starts a server and sends SIGTERM the moment its "listening" line arrives (plus `delayMs`). */
function termRightAfterListening(delayMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  const home = tempDir('loom-lifecycle-');
  const project = join(home, 'project');
  mkdirSync(project);
  return new Promise((resolve, reject) => {
    const child = execa(process.execPath, [CLI, 'serve', '--port', '0', '--project-dir', project], { env: isolatedEnv(home), stdio: ['ignore', 'ignore', 'pipe'], reject: false, stripFinalNewline: false, extendEnv: false });
    let stderr = '';
    let sent = false;
    child.stderr!.on('data', (d) => {
      stderr += d;
      if (!sent && stderr.includes('listening on')) {
        sent = true;
        if (delayMs === 0) child.kill('SIGTERM');
        else setTimeout(() => child.kill('SIGTERM'), delayMs);
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal, stderr }));
  });
}

describe('loom serve lifecycle', () => {
  it('a SIGTERM right after "listening" stops cleanly, every time (12 real processes)', async () => {
    // Before the fix the handlers were installed after the line was printed:
    // about one start in five died of the signal itself (exit null, SIGTERM).
    const outcomes: string[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await termRightAfterListening(i % 4 === 3 ? 5 : 0);
      outcomes.push(r.signal ? `killed by ${r.signal}` : `exit ${r.code}`);
      if (r.signal || r.code !== 0) expect.fail(`start ${i}: ${outcomes.at(-1)}; stderr: ${r.stderr.slice(-400)}`);
      expect(r.stderr).toMatch(/SIGTERM: finishing requests in flight/);
      expect(r.stderr).toMatch(/loom serve: stopped \(/);
    }
    expect(outcomes).toEqual(Array(12).fill('exit 0'));
  }, 120_000);
});

describe('loom serve and a corrupt ledger database', () => {
  it('finds it on schedule, keeps answering and recording to the journal, says so in /healthz and /metrics, and recovers', async () => {
    const Database = (await import('better-sqlite3')).default;
    const { closeSync, openSync, readFileSync, statSync, writeSync } = await import('node:fs');
    const { request } = await import('node:http');
    const { run } = await import('./helpers');
    const home = tempDir('loom-lifecycle-');
    const project = join(home, 'project');
    mkdirSync(project);
    const env = { ...isolatedEnv(home), LOOM_INTEGRITY_CHECK_MS: '100' };
    const child = execa(process.execPath, [CLI, 'serve', '--port', '0', '--project-dir', project], { env, stdio: ['ignore', 'ignore', 'pipe'], reject: false, stripFinalNewline: false, extendEnv: false });
    let stderr = '';
    const exited = new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr!.on('data', (d) => {
          stderr += d;
          const m = /listening on (http:\/\/\S+)/.exec(stderr);
          if (m) resolve(m[1]);
        });
        child.on('exit', () => reject(new Error(stderr)));
      });
      const call = (method: string, path: string, body?: string) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = request(url + path, { method, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
            let b = '';
            res.on('data', (c) => (b += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: b }));
          });
          req.on('error', reject);
          req.end(body);
        });
      const pre = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: project });
      const until = async (what: () => Promise<boolean> | boolean) => {
        for (let i = 0; i < 300 && !(await what()); i++) await new Promise((r) => setTimeout(r, 50));
        expect(await what()).toBe(true);
      };
      const dir = join(project, '.loom', 'compliance');
      const db = join(dir, 'ledger.db');
      const journalLines = () => readFileSync(join(dir, 'journal.log'), 'utf8').trim().split('\n').length;
      for (let i = 0; i < 5; i++) expect((await call('POST', '/hooks/PreToolUse', pre)).status).toBe(200);
      // Folded by the upkeep: history.json reaches seq 5.
      await until(() => {
        try {
          return readFileSync(join(dir, 'history.json'), 'utf8').includes('"seq":5');
        } catch {
          return false;
        }
      });
      // A damaged index page in the main file.
      const d = new Database(db);
      d.pragma('wal_checkpoint(TRUNCATE)');
      const root = (d.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'records_ts'").get() as { rootpage: number }).rootpage;
      d.close();
      const fd = openSync(db, 'r+');
      writeSync(fd, Buffer.alloc(4096, 0x41), 0, 4096, (root - 1) * 4096);
      closeSync(fd);
      const damaged = readFileSync(db);
      // Found by the scheduled quick_check, with no request needed.
      await until(async () => (await call('GET', '/healthz')).status === 503);
      const h = JSON.parse((await call('GET', '/healthz')).body);
      expect(h).toMatchObject({ status: 'ledger-corrupt' });
      expect(h.error).toMatch(/ledger\.db is corrupt .*run loom recover/);
      expect((await call('GET', '/metrics')).body).toMatch(/^loom_ledger_corrupt 1$/m);
      expect(stderr).toMatch(/ledger upkeep: .*is corrupt/);
      // Still answering, and every answer recorded in the journal; the damaged file is not written.
      const before = journalLines();
      for (let i = 0; i < 3; i++) {
        const r = await call('POST', '/hooks/PreToolUse', pre);
        expect(r.status).toBe(200);
        expect(r.body).not.toMatch(/"deny"|"block"/);
      }
      expect(journalLines()).toBe(before + 3);
      await new Promise((r) => setTimeout(r, 500));
      expect(statSync(db).size).toBe(damaged.length);
      expect(readFileSync(db).equals(damaged)).toBe(true);
      // Recovered while the server runs: the next fold goes into the new file, /healthz is ok again.
      const rec = await run(process.execPath, [CLI, 'recover', '--project-dir', project], null, env);
      expect(rec.code, rec.stderr).toBe(0);
      expect((await call('POST', '/hooks/PreToolUse', pre)).status).toBe(200);
      await until(async () => (await call('GET', '/healthz')).status === 200);
      expect((await call('GET', '/metrics')).body).toMatch(/^loom_ledger_corrupt 0$/m);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const v = await run(process.execPath, [CLI, 'verify', '--project-dir', project, '--json'], null, env);
      const r = JSON.parse(v.stdout);
      // 5 + 3 + the recovery record + 1.
      expect(r).toMatchObject({ status: 'intact', records: 10 });
      expect(r.recovered).toHaveLength(1);
    } finally {
      child.kill('SIGKILL');
    }
  }, 120_000);
});
