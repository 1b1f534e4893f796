// loom erase (issue 12 §3): a value the redactor missed is erased later from
// every copy under .loom/ (journal lines not yet folded, database and WAL,
// history.json), the erasure is a chained record, and verify reports the
// erased record as erased while any other change, to an erased record or
// not, is still tampering. Real hook runner, real CLI, real SQLite files.
import Database from 'better-sqlite3';
import { execaSync } from 'execa';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyLedger } from '../src/ledger/verify';
import { CLI, run, runHook, tempDir } from './helpers';

// Values with no secret shape or secret name: the redactor keeps them, as it would a password it cannot recognise.
const LEAK = 'velvet-rosebud-4471-quartz';
const OTHER = 'amber-lantern-9083-gravel';

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}

function holding(dirs: string[], value: string): string[] {
  return dirs.flatMap(filesUnder).filter((f) => readFileSync(f).includes(Buffer.from(value)));
}

function isolated(): { project: string; env: NodeJS.ProcessEnv } {
  const project = tempDir('loom-erase-');
  const home = join(project, '..', `${project.split('/').pop()}-home`);
  mkdirSync(home, { recursive: true });
  const env = { LOOM_PROJECT_DIR: project, HOME: home, XDG_STATE_HOME: join(home, 'state'), XDG_CONFIG_HOME: join(home, 'config'), LOOM_CHECKPOINT_DIR: join(home, 'checkpoints'), LOOM_CHECKPOINT_EVERY: '3', LOOM_FOLD_EVERY: '100000' };
  return { project, env };
}

async function post(project: string, env: NodeJS.ProcessEnv, stdout: string, session = 's1') {
  const r = await runHook(['--event', 'PostToolUse'], { session_id: session, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'cat notes.txt' }, tool_response: { stdout, stderr: '', exit_code: 0 }, cwd: project }, env);
  expect(r.code, r.stderr).toBe(0);
}

const loom = (args: string[], env: NodeJS.ProcessEnv, stdin: string | null = null) => run(process.execPath, [CLI, ...args], stdin, env);
const dbFile = (project: string) => join(project, '.loom', 'compliance', 'ledger.db');

describe('loom erase', () => {
  it('--match - erases a leaked value from the journal (unfolded), database, WAL and history; verify says intact and names the erasure', async () => {
    const { project, env } = isolated();
    await post(project, env, `first line\nthe key is ${LEAK} ok`);
    // Folded once: the first copy is in the database and history.json; the later ones only in the journal.
    expect((await loom(['fold', '--project-dir', project], env)).code).toBe(0);
    await post(project, env, `again: ${LEAK}`);
    await post(project, env, `nothing secret here, ${OTHER}`);
    await post(project, env, `and ${LEAK}${LEAK}`);
    const dirs = [join(project, '.loom'), env.LOOM_CHECKPOINT_DIR!];
    expect(holding(dirs, LEAK).length).toBeGreaterThan(0);

    // Never from the command line.
    const argv = await loom(['erase', '--project-dir', project, '--match', LEAK, '--reason', 'leaked'], env);
    expect(argv.code).toBe(2);
    expect(argv.stderr).toMatch(/stdin/);
    const noReason = await loom(['erase', '--project-dir', project, '--match', '-'], env, LEAK + '\n');
    expect(noReason.code).toBe(2);

    const r = await loom(['erase', '--project-dir', project, '--match', '-', '--reason', 'pasted by mistake', '--json'], env, LEAK + '\n');
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { erased: { seq: number; paths: string[] }[]; erasureSeqs: number[] };
    expect(out.erased.map((e) => e.seq)).toHaveLength(3);
    expect(out.erasureSeqs).toHaveLength(3);
    expect(r.stdout + r.stderr).not.toContain(LEAK);

    expect(holding(dirs, LEAK)).toEqual([]);
    // What was not erased is still there, word for word.
    expect(holding([join(project, '.loom')], OTHER).length).toBeGreaterThan(0);
    const history = readFileSync(join(project, '.loom', 'compliance', 'history.json'), 'utf8');
    expect(history).toContain('[ERASED]');
    expect(history).toContain('pasted by mistake');

    const v = await loom(['verify', '--project-dir', project, '--json'], env);
    expect(v.code, v.stdout + v.stderr).toBe(0);
    const vj = JSON.parse(v.stdout) as { status: string; erased: { seq: number; by: number }[] };
    expect(vj.status).toBe('intact');
    expect(vj.erased.map((e) => e.seq).sort()).toEqual(out.erased.map((e) => e.seq).sort());
    // Without --json too: a reviewer reading verify's one line learns that values were erased, and where.
    const plain = await loom(['verify', '--project-dir', project], env);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^erased: 3 records had values erased, each vouched for by a later erasure record: seq \d+/m);

    // Nothing left to erase the second time.
    const again = await loom(['erase', '--project-dir', project, '--match', '-', '--reason', 'again'], env, LEAK);
    expect(again.code).toBe(1);
  }, 60_000);

  it('--seq --path erases one value; a wrong path is a located error; hooks keep appending and verify stays intact', async () => {
    const { project, env } = isolated();
    await post(project, env, `x ${OTHER} y`);
    await post(project, env, 'plain');
    expect((await loom(['fold', '--project-dir', project], env)).code).toBe(0);
    const db = new Database(dbFile(project), { readonly: true });
    const row = db.prepare("SELECT seq, body FROM records WHERE instr(body, ?) > 0 ORDER BY seq LIMIT 1").get(OTHER) as { seq: number; body: string };
    db.close();
    const body = JSON.parse(row.body) as Record<string, unknown>;
    const kind = String(body.kind);
    const path = Object.entries(body[kind] as Record<string, unknown>).find(([, v]) => typeof v === 'string' && v.includes(OTHER));
    expect(path, row.body).toBeDefined();
    const p = `$.${kind}.${path![0]}`;

    const bad = await loom(['erase', '--project-dir', project, '--seq', String(row.seq), '--path', '$.nowhere', '--reason', 'x'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`seq ${row.seq}: $.nowhere`);

    const r = await loom(['erase', '--project-dir', project, '--seq', String(row.seq), '--path', p, '--reason', 'customer data'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(holding([join(project, '.loom')], OTHER)).toEqual([]);
    await post(project, env, 'after the erasure');
    const v = verifyLedger(project, { env });
    expect(v.status, JSON.stringify(v.problem)).toBe('intact');
    expect(v.erased).toEqual([{ seq: row.seq, paths: [p], by: expect.any(Number) }]);
    // The auditor's recipe (docs/ledger.md): the erased body hashes to what its erasure record names,
    // and the stored hash, to which the next record links, is the target hash.
    if (existsSync('/usr/bin/sqlite3') && existsSync('/usr/bin/sha256sum')) {
      const db = dbFile(project);
      const sh = (cmd: string) => execaSync('/bin/sh', ['-c', cmd], { reject: false, stripFinalNewline: false }).stdout.trim();
      const bodyHash = sh(`printf '%s' "$(sqlite3 '${db}' 'SELECT body FROM records WHERE seq=${row.seq}')" | sha256sum | cut -d' ' -f1`);
      const named = sh(`sqlite3 '${db}' "SELECT json_extract(body, '\$.erasure.erased_body_hash') || ' ' || json_extract(body, '\$.erasure.target_hash') FROM records WHERE json_extract(body, '\$.erasure.target_seq') = ${row.seq}"`);
      const stored = sh(`sqlite3 '${db}' 'SELECT hash FROM records WHERE seq=${row.seq}'`);
      expect(named).toBe(`${bodyHash} ${stored}`);
      expect(bodyHash).toMatch(/^[0-9a-f]{64}$/);
    }
  }, 60_000);

  it('a keyed ledger (HMAC): the erasure needs the key, and verify with the key says intact', async () => {
    const { project, env: base } = isolated();
    const env = { ...base, LOOM_LEDGER_KEY: 'k'.repeat(32) };
    await post(project, env, `keyed ${LEAK}`);
    await post(project, env, 'keyed plain');
    const noKey = await loom(['erase', '--project-dir', project, '--match', '-', '--reason', 'r'], { ...env, LOOM_LEDGER_KEY: '' }, LEAK);
    expect(noKey.code).not.toBe(0);
    expect(noKey.stderr).toMatch(/key/i);
    const r = await loom(['erase', '--project-dir', project, '--match', '-', '--reason', 'r'], env, LEAK);
    expect(r.code, r.stderr).toBe(0);
    expect(holding([join(project, '.loom')], LEAK)).toEqual([]);
    const v = verifyLedger(project, { env });
    expect(v.status, JSON.stringify(v.problem ?? v.error)).toBe('intact');
    expect(v.chain).toBe('hmac-sha256');
    expect(v.erased).toHaveLength(1);
  }, 60_000);

  it('the database refuses a body change that no erasure record names, and any change of seq or hash', async () => {
    const { project, env } = isolated();
    await post(project, env, `one ${LEAK}`);
    await post(project, env, 'two');
    expect((await loom(['fold', '--project-dir', project], env)).code).toBe(0);
    const db = new Database(dbFile(project));
    expect(() => db.prepare("UPDATE records SET body = replace(body, 'two', 'TWO') WHERE seq = 2").run()).toThrow(/append-only/);
    db.close();
    const r = await loom(['erase', '--project-dir', project, '--match', '-', '--reason', 'r'], env, LEAK);
    expect(r.code, r.stderr).toBe(0);
    const db2 = new Database(dbFile(project));
    // The erasure record names seq 1 with its hash: changing that hash, or the body of another record, stays refused.
    expect(() => db2.prepare("UPDATE records SET hash = 'x' WHERE seq = 1").run()).toThrow(/append-only/);
    expect(() => db2.prepare("UPDATE records SET body = replace(body, 'two', 'TWO') WHERE seq = 2").run()).toThrow(/append-only/);
    expect(() => db2.prepare('DELETE FROM records WHERE seq = 1').run()).toThrow(/append-only/);
    db2.close();
  }, 60_000);

  it('mutation: one byte flipped anywhere in an erased record, its erasure record or a plain record, in the database file, is tampering', async () => {
    const { project, env } = isolated();
    await post(project, env, `a ${LEAK}`);
    await post(project, env, 'b plain');
    const r = await loom(['erase', '--project-dir', project, '--match', '-', '--reason', 'mutation test'], env, LEAK);
    expect(r.code, r.stderr).toBe(0);
    expect((await loom(['fold', '--project-dir', project], env)).code).toBe(0);
    const file = dbFile(project);
    const db0 = new Database(file);
    db0.pragma('wal_checkpoint(TRUNCATE)');
    const rows = db0.prepare('SELECT seq, body, hash FROM records ORDER BY seq').all() as { seq: number; body: string; hash: string }[];
    db0.close();
    expect(verifyLedger(project, { env }).status).toBe('intact');
    const pristine = readFileSync(file);
    const erased = rows.find((x) => x.body.includes('[ERASED]'))!;
    const erasure = rows.find((x) => x.body.includes('"kind":"erasure"'))!;
    const plain = rows.find((x) => x.body.includes('b plain'))!;
    expect([erased, erasure, plain].every(Boolean)).toBe(true);
    let cases = 0;
    for (const target of [erased, erasure, plain]) {
      // The row as SQLite stores it: the body, then the hash (both text, one after the other in the cell).
      const bodyAt = pristine.indexOf(Buffer.from(target.body));
      expect(bodyAt, `seq ${target.seq} body in the file`).toBeGreaterThan(0);
      const hashAt = pristine.indexOf(Buffer.from(target.hash), bodyAt + target.body.length);
      expect(hashAt - (bodyAt + target.body.length)).toBeLessThan(4);
      const places = [...Array(target.body.length).keys()].filter((i) => i % Math.max(1, Math.floor(target.body.length / 40)) === 0 || i === target.body.length - 1).map((i) => bodyAt + i);
      places.push(...[0, 1, 31, 32, 63].map((i) => hashAt + i));
      for (const at of places) {
        const bytes = Buffer.from(pristine);
        bytes[at] ^= 0x01;
        writeFileSync(file, bytes);
        const v = verifyLedger(project, { env });
        expect(v.status, `seq ${target.seq} byte ${at - bodyAt} (${JSON.stringify(String.fromCharCode(pristine[at]))}): ${JSON.stringify(v.problem ?? v.error)}`).toBe('tampered');
        cases++;
      }
    }
    writeFileSync(file, pristine);
    expect(verifyLedger(project, { env }).status).toBe('intact');
    expect(cases).toBeGreaterThan(120);
  }, 120_000);
});
