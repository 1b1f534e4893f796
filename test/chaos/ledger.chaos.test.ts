// The ledger under contention, crashes, a full disk and a held lock: real
// processes (command hooks, the record path of the runner in many writer
// processes, `loom serve`), real files, real kill -9. Every count is printed.
// 64 writers x 12 and 24 + 3 kills by default; the 64 x 100 and
// 100 + 10 with LOOM_CHAOS_FULL=1 (scale.ts).
import { execa, execaSync } from 'execa';
import { type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireJournalLock } from '../../src/ledger/journal-lock';
import { verifyLedger } from '../../src/ledger/verify';
import { BEHAVE, bundledFixture, CLI, ROOT, run, runHook, tempDir, writeRegistry } from '../helpers';
import { chaosCount, chaosTimeout } from './scale';

const DRIVER = join(ROOT, 'test', 'fixtures', 'ledger-driver.ts');
const CLEAN_ENV = { LOOM_CONFIG: '', LOOM_PROJECT_DIR: '', CLAUDE_PROJECT_DIR: '', LOOM_HARNESS: '', LOOM_LEDGER_KEY: '', LOOM_CHECKPOINT_DIR: '', LOOM_SERVE_TOKEN: '' };
const log = (line: string) => process.stdout.write(`chaos: ${line}\n`);

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

interface Server {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
}

function startServer(project: string, config: string): Promise<Server> {
  const child = execa(process.execPath, [CLI, 'serve', '--port', '0', '--project-dir', project, '--config', config], { env: { ...process.env, ...CLEAN_ENV }, stdio: ['ignore', 'ignore', 'pipe'], reject: false, stripFinalNewline: false });
  children.push(child);
  let err = '';
  const exited = new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d) => {
      err += d;
      const m = /listening on (http:\/\/[^\s]+)/.exec(err);
      if (m) resolve({ child, url: m[1], exited });
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
}

function post(url: string, event: string, payload: Record<string, unknown>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ hook_event_name: event, ...payload });
    const req = request(`${url}/hooks/${event}`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let b = '';
      res.on('data', (d) => (b += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: b }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Every record's session id with how often it occurs, read through loom history (which folds first). */
function sessionsOf(project: string): Map<string, number> {
  const out = execaSync(process.execPath, [CLI, 'history', '--project-dir', project, '--jsonl'], { env: { ...process.env, ...CLEAN_ENV }, maxBuffer: 1 << 30 }).stdout;
  const m = new Map<string, number>();
  for (const line of out.split('\n')) {
    if (!line) continue;
    const s = JSON.parse(line).session_id as string;
    m.set(s, (m.get(s) ?? 0) + 1);
  }
  return m;
}

/** Commands recorded by the driver (echo <tag>-<i>), from the live view. */
function driverCommands(project: string): Set<string> {
  const out = execaSync(process.execPath, [CLI, 'history', '--project-dir', project, '--jsonl'], { env: { ...process.env, ...CLEAN_ENV }, maxBuffer: 1 << 30 }).stdout;
  const set = new Set<string>();
  for (const line of out.split('\n')) {
    if (!line) continue;
    const r = JSON.parse(line);
    const c = r.tool_use?.command;
    if (typeof c === 'string') set.add(c.replace(/^echo /, ''));
  }
  return set;
}

function historyJsonCount(project: string): number {
  const dir = join(project, '.loom', 'compliance');
  let n = (JSON.parse(readFileSync(join(dir, 'history.json'), 'utf8')) as unknown[]).length;
  const archive = join(dir, 'history');
  if (existsSync(archive)) for (const f of readdirSync(archive)) if (/^segment-.*\.json$/.test(f)) n += (JSON.parse(readFileSync(join(archive, f), 'utf8')) as unknown[]).length;
  return n;
}

function leftovers(project: string): string[] {
  const dir = join(project, '.loom', 'compliance');
  const names = readdirSync(dir).concat(existsSync(join(dir, 'history')) ? readdirSync(join(dir, 'history')) : []);
  return names.filter((n) => n.endsWith('.tmp') || n.startsWith('journal.lock'));
}

describe('ledger chaos', () => {
  const PER = chaosCount(12, 100);
  it(`contention: 64 writers x ${PER} invocations (command hooks, runner record path, loom serve) on one project: 0 lost, chain intact, history complete`, { timeout: chaosTimeout(240) }, async () => {
    const project = tempDir('loom-chaos-');
    const config = writeRegistry({ PreToolUse: [{ id: 'h', entry: BEHAVE, policy: { mode: 'ok' } }], PostToolUse: [{ id: 'p', entry: BEHAVE, policy: { mode: 'ok' } }] });
    const driver = bundledFixture(DRIVER);
    const server = await startServer(project, config);
    const HOOK_WRITERS = 6;
    const SERVE_WRITERS = 18;
    const DRIVER_WRITERS = 40;
    const started = performance.now();
    const failures: string[] = [];
    // Command hooks: real runner processes, one after another per writer, PreToolUse and PostToolUse alternating.
    const hookWriter = async (w: number) => {
      for (let i = 0; i < PER; i++) {
        const event = i % 2 ? 'PostToolUse' : 'PreToolUse';
        const r = await runHook(['--event', event, '--config', config, '--project-dir', project], { hook_event_name: event, session_id: `hook-${w}`, tool_name: 'Bash', tool_input: { command: `echo hook-${w}-${i}` }, tool_response: {}, cwd: project });
        if (r.code !== 0 || r.stderr) failures.push(`hook-${w}-${i}: exit ${r.code} ${r.stderr.trim()}`);
      }
    };
    const serveWriter = async (w: number) => {
      for (let i = 0; i < PER; i++) {
        const event = i % 2 ? 'PostToolUse' : 'PreToolUse';
        const r = await post(server.url, event, { session_id: `serve-${w}`, tool_name: 'Bash', tool_input: { command: `echo serve-${w}-${i}` }, tool_response: {} });
        if (r.status !== 200 || r.body.includes('deny')) failures.push(`serve-${w}-${i}: ${r.status} ${r.body.slice(0, 200)}`);
      }
    };
    // The runner's record path (redaction, journal append, checkpoints, background folds) in writer processes of 100 invocations each.
    const driverWriter = async (w: number) => {
      const r = await run(process.execPath, [driver, project, String(PER), `drv-${w}`], null, { ...CLEAN_ENV, LOOM_LOCK_WAIT_MS: '120000' });
      if (r.code !== 0) failures.push(`drv-${w}: exit ${r.code} ${r.stderr.trim()}`);
    };
    await Promise.all([
      ...Array.from({ length: HOOK_WRITERS }, (_, w) => hookWriter(w)),
      ...Array.from({ length: SERVE_WRITERS }, (_, w) => serveWriter(w)),
      ...Array.from({ length: DRIVER_WRITERS }, (_, w) => driverWriter(w)),
    ]);
    const elapsed = (performance.now() - started) / 1000;
    server.child.kill('SIGTERM');
    await server.exited;
    const sessions = sessionsOf(project);
    const count = (prefix: string) => [...sessions].filter(([s]) => s.startsWith(prefix)).reduce((n, [, c]) => n + c, 0);
    const v = verifyLedger(project);
    const expected = (HOOK_WRITERS + SERVE_WRITERS + DRIVER_WRITERS) * PER;
    log(`contention: ${HOOK_WRITERS + SERVE_WRITERS + DRIVER_WRITERS} writers x ${PER}: ${expected} invocations in ${elapsed.toFixed(1)} s; recorded: hooks ${count('hook-')}, serve ${count('serve-')}, runner path ${count('session-drv-')}; failed answers ${failures.length}; verify ${v.status}, ${v.records} records; history.json ${historyJsonCount(project)}`);
    expect(failures.slice(0, 5)).toEqual([]);
    expect(count('hook-')).toBe(HOOK_WRITERS * PER);
    expect(count('serve-')).toBe(SERVE_WRITERS * PER);
    expect(count('session-drv-')).toBe(DRIVER_WRITERS * PER);
    expect(v.status, JSON.stringify(v.problem)).toBe('intact');
    expect(v.records).toBe(expected);
    expect(historyJsonCount(project)).toBe(expected);
    expect(leftovers(project)).toEqual([]);
  });

  const WRITER_KILLS = Math.ceil(chaosCount(24, 100) / 4) * 4;
  const SERVER_KILLS = chaosCount(3, 10);
  it(`kill -9 at ${WRITER_KILLS} random points of writers and ${SERVER_KILLS} of the server under load: 0 acknowledged records lost, 0 torn`, { timeout: chaosTimeout(240) }, async () => {
    const project = tempDir('loom-chaos-');
    const config = writeRegistry({ PreToolUse: [{ id: 'h', entry: BEHAVE, policy: { mode: 'ok' } }] });
    const driver = bundledFixture(DRIVER);
    const acked = new Set<string>();
    let hookKills = 0;
    // Writers: 4 at a time, each killed at a random moment after its first acknowledged append.
    const writerRound = async (round: number) => {
      const tag = `k${round}`;
      const child = execa(process.execPath, [driver, project, '400', tag], { env: { ...process.env, ...CLEAN_ENV }, stdio: ['ignore', 'pipe', 'ignore'], reject: false, stripFinalNewline: false });
      children.push(child);
      let out = '';
      child.stdout!.on('data', (d) => {
        out += d;
        // A line is printed only after its record is durable: that is the acknowledgement.
        const lines = out.split('\n');
        out = lines.pop()!;
        for (const l of lines) acked.add(`${tag}-${l}`);
      });
      const done = new Promise<void>((r) => child.on('close', () => r()));
      // Killed at a random moment after its first acknowledged append (start-up time varies under load).
      await new Promise<void>((r) => {
        const check = () => ([...acked].some((a) => a.startsWith(`${tag}-`)) || child.exitCode !== null ? r() : setTimeout(check, 5));
        check();
      });
      await new Promise((r) => setTimeout(r, Math.random() * 300));
      if (child.exitCode === null) {
        child.kill('SIGKILL');
        hookKills++;
      }
      await done;
    };
    // The server: killed 10 times while 8 clients post; each answered request names its own session.
    let serverKills = 0;
    let serverAcked = 0;
    const serverAcks = new Set<string>();
    const serverLoop = async () => {
      let n = 0;
      for (let k = 0; k < SERVER_KILLS; k++) {
        const s = await startServer(project, config);
        let stop = false;
        const clients = Array.from({ length: 8 }, async () => {
          while (!stop) {
            const id = `srv-${n++}`;
            try {
              const r = await post(s.url, 'PreToolUse', { session_id: id, tool_name: 'Bash', tool_input: { command: 'ls' } });
              if (r.status === 200) serverAcks.add(id);
            } catch {
              return; // the server is gone
            }
          }
        });
        // Killed at a random moment once it answers under load.
        const before = serverAcks.size;
        for (let w = 0; w < 400 && serverAcks.size === before; w++) await new Promise((r) => setTimeout(r, 10));
        await new Promise((r) => setTimeout(r, Math.random() * 500));
        s.child.kill('SIGKILL');
        serverKills++;
        stop = true;
        await Promise.all(clients);
        await s.exited;
      }
      serverAcked = serverAcks.size;
    };
    const writers = async () => {
      for (let round = 0; round < WRITER_KILLS; round += 4) await Promise.all([0, 1, 2, 3].map((j) => writerRound(round + j)));
    };
    await Promise.all([writers(), serverLoop()]);
    const journal = readFileSync(join(project, '.loom/compliance/journal.log'));
    const tornBefore = journal.length && journal[journal.length - 1] !== 10 ? 1 : 0;
    // What a user runs after the crash: loom verify (it folds first; a read-only open cannot recover the WAL a killed writer left).
    const v = JSON.parse(execaSync(process.execPath, [CLI, 'verify', '--project-dir', project, '--json'], { env: { ...process.env, ...CLEAN_ENV } }).stdout);
    const present = driverCommands(project);
    const lostWriter = [...acked].filter((a) => !present.has(a));
    const sessions = sessionsOf(project);
    const lostServer = [...serverAcks].filter((id) => !sessions.has(id));
    const after = verifyLedger(project);
    log(`kill -9: writers killed ${hookKills}, acknowledged ${acked.size}, lost ${lostWriter.length}; server killed ${serverKills}, acknowledged ${serverAcked}, lost ${lostServer.length}; torn tail before the next writer ${tornBefore}; verify ${after.status}, ${after.records} records`);
    expect(hookKills).toBeGreaterThanOrEqual(WRITER_KILLS * 0.9);
    expect(acked.size).toBeGreaterThan(WRITER_KILLS);
    expect(serverAcked).toBeGreaterThanOrEqual(SERVER_KILLS);
    expect(serverKills).toBe(SERVER_KILLS);
    expect(lostWriter).toEqual([]);
    expect(lostServer).toEqual([]);
    expect(v.status, JSON.stringify(v.problem)).toBe('intact');
    expect(after.status).toBe('intact');
    // Nothing torn stays: every line of the folded journal is a record, and the journal ends with a full line.
    const j = readFileSync(join(project, '.loom/compliance/journal.log'));
    expect(j[j.length - 1]).toBe(10);
  });

  const canMount = (() => {
    if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
    const probe = tempDir('loom-mnt-');
    const r = execaSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { reject: false, stripFinalNewline: false });
    if (r.exitCode !== 0) return false;
    execaSync('umount', [probe], { reject: false, stripFinalNewline: false });
    return true;
  })();

  it('disk full (a small tmpfs, else RLIMIT_FSIZE): blocking events block with "disk full", non-blocking ones warn, no torn line or temp file, the next writer goes on', async () => {
    const mnt = tempDir('loom-full-');
    const mounted = canMount && execaSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mnt], { reject: false, stripFinalNewline: false }).exitCode === 0;
    try {
      const project = join(mnt, 'project');
      mkdirSync(project);
      const config = writeRegistry({ PreToolUse: [{ id: 'h', entry: BEHAVE, policy: { mode: 'ok' } }], PostToolUse: [{ id: 'p', entry: BEHAVE, policy: { mode: 'ok' } }] });
      const payload = (event: string, i: number) => ({ hook_event_name: event, session_id: `full-${i}`, tool_name: 'Bash', tool_input: { command: `echo ${'x'.repeat(2000)} ${i}` }, tool_response: {}, cwd: project });
      // Fill the disk: hooks until the first refusal (tmpfs), or a size limit on the journal (RLIMIT_FSIZE, the signal ignored).
      const hook = (event: string, i: number) => {
        if (mounted) return runHook(['--event', event, '--config', config, '--project-dir', project], payload(event, i));
        return run('/bin/bash', ['-c', `trap '' XFSZ; ulimit -f 64; exec "${process.execPath}" "${join(ROOT, 'hooks/run-hook.js')}" --event ${event} --config "${config}" --project-dir "${project}"`], JSON.stringify(payload(event, i)), CLEAN_ENV);
      };
      let acked = 0;
      let blocked = 0;
      let warned = 0;
      // Leave a few KB free, so the journal (and a fold's database pages) soon hit ENOSPC.
      if (mounted) {
        const statfs = execaSync('df', ['--output=avail', '-B1', mnt], { reject: false, stripFinalNewline: false });
        const avail = Number(statfs.stdout.trim().split('\n').pop());
        writeFileSync(join(mnt, 'filler'), Buffer.alloc(Math.max(0, avail - 24 * 1024)));
      }
      for (let i = 0; i < 200 && blocked < 3; i++) {
        const r = await hook('PreToolUse', i);
        if (r.code === 0) acked++;
        else {
          expect(r.code).toBe(2);
          expect(r.stderr).toMatch(/disk full/);
          expect(r.stderr.trim().split('\n')).toHaveLength(1);
          blocked++;
          const p = await hook('PostToolUse', 1000 + i);
          expect(p.code).toBe(0);
          if (/disk full/.test(p.stderr)) warned++;
        }
      }
      const dir = join(project, '.loom/compliance');
      const journal = readFileSync(join(dir, 'journal.log'));
      const torn = journal.length && journal[journal.length - 1] !== 10 ? 1 : 0;
      const temps = leftovers(project);
      log(`disk full (${mounted ? 'tmpfs 256 KB, 24 KB left free' : 'RLIMIT_FSIZE 64 KB'}): acknowledged ${acked}, blocked ${blocked}, non-blocking warned ${warned}, torn lines ${torn}, temp files ${temps.length}`);
      expect(blocked).toBeGreaterThanOrEqual(1);
      expect(warned).toBeGreaterThanOrEqual(1);
      expect(torn).toBe(0);
      expect(temps).toEqual([]);
      // Space again: the next writer appends, every acknowledged record is there, the chain verifies.
      if (mounted) rmSync(join(mnt, 'filler'));
      const next = await runHook(['--event', 'PreToolUse', '--config', config, '--project-dir', project], payload('PreToolUse', 9999));
      expect(next.code, next.stderr).toBe(0);
      const sessions = sessionsOf(project);
      const ackedPresent = [...sessions.keys()].filter((s) => /^full-\d+$/.test(s) && Number(s.slice(5)) < 1000).length;
      expect(ackedPresent).toBe(acked);
      expect(sessions.get('full-9999')).toBe(1);
      const v = verifyLedger(project);
      expect(v.status, JSON.stringify(v.problem)).toBe('intact');
    } finally {
      if (mounted) execaSync('umount', ['-l', mnt], { reject: false, stripFinalNewline: false });
    }
  });

  it('a journal lock held 10 s by a live process: hooks on a blocking and a non-blocking event wait it out and answer, nothing lost', async () => {
    const project = tempDir('loom-chaos-');
    const config = writeRegistry({ PreToolUse: [{ id: 'h', entry: BEHAVE, policy: { mode: 'ok' } }], PostToolUse: [{ id: 'p', entry: BEHAVE, policy: { mode: 'ok' } }] });
    const first = await runHook(['--event', 'PreToolUse', '--config', config, '--project-dir', project], { hook_event_name: 'PreToolUse', session_id: 'before', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: project });
    expect(first.code, first.stderr).toBe(0);
    const lock = acquireJournalLock(join(project, '.loom', 'compliance'));
    const t0 = performance.now();
    const pending = [
      runHook(['--event', 'PreToolUse', '--config', config, '--project-dir', project], { hook_event_name: 'PreToolUse', session_id: 'held-pre', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: project }),
      runHook(['--event', 'PostToolUse', '--config', config, '--project-dir', project], { hook_event_name: 'PostToolUse', session_id: 'held-post', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: {}, cwd: project }),
    ];
    await new Promise((r) => setTimeout(r, 10_000));
    lock.release();
    const [pre, postR] = await Promise.all(pending);
    const waited = (performance.now() - t0) / 1000;
    log(`lock held 10 s: PreToolUse exit ${pre.code}, PostToolUse exit ${postR.code}, answered after ${waited.toFixed(1)} s`);
    expect(pre.code, pre.stderr).toBe(0);
    expect(postR.code, postR.stderr).toBe(0);
    const sessions = sessionsOf(project);
    expect([...sessions.keys()].sort()).toEqual(['before', 'held-post', 'held-pre']);
    expect(verifyLedger(project).status).toBe('intact');
  });

  it('a lock left by a writer killed inside it is broken (owner gone), not waited out', async () => {
    const project = tempDir('loom-chaos-');
    const dir = join(project, '.loom', 'compliance');
    mkdirSync(dir, { recursive: true });
    // A process that took the lock and died holding it.
    const ghost = execa(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { reject: false, stripFinalNewline: false });
    const pid = ghost.pid!;
    const start = readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1].split(' ')[19];
    const ns = /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))![1];
    ghost.kill('SIGKILL');
    await new Promise((r) => ghost.on('exit', r));
    writeFileSync(join(dir, 'journal.lock'), `owner-${pid}-${start}-${ns}-deadbeef`);
    const config = writeRegistry({ PreToolUse: [{ id: 'h', entry: BEHAVE, policy: { mode: 'ok' } }] });
    const r = await runHook(['--event', 'PreToolUse', '--config', config, '--project-dir', project], { hook_event_name: 'PreToolUse', session_id: 'after-crash', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: project }, { LOOM_LOCK_WAIT_MS: '5000' });
    expect(r.code, r.stderr).toBe(0);
    expect(sessionsOf(project).get('after-crash')).toBe(1);
  });
});
