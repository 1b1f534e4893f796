// Shared by the team-store tests: local ledgers written by the real ledger
// writer, and a client for the real PostgreSQL started by pg-server.ts.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { Client } from 'pg';
import { Ledger } from '../src/ledger/store';
import type { RecordDraft } from '../src/contract/types';
import { CLI, run, tempDir, type RunResult } from './helpers';

export function draft(i: number, extra: Partial<RecordDraft> = {}): RecordDraft {
  return {
    event: 'PreToolUse',
    hook_id: 'pre-tool-guard',
    harness: 'claude',
    session_id: `s-${Math.floor(i / 10)}`,
    risk: i % 7 === 0 ? 'high' : 'low',
    decision: i % 7 === 0 ? 'deny' : 'allow',
    status: 'ok',
    kind: 'tool_call',
    data: { tool: 'Bash', input_summary: `echo "${i}" \\ 'quoted' ü` },
    ...extra,
  };
}

/** A project whose ledger holds n records appended by the real writer. */
export function projectWith(n: number): string {
  const dir = tempDir('loom-team-proj-');
  appendRecords(dir, n);
  return dir;
}

export function appendRecords(dir: string, n: number, from = 0): void {
  const l = Ledger.openForAppend(dir);
  try {
    for (let i = 0; i < n; i += 500) l.append(Array.from({ length: Math.min(500, n - i) }, (_, k) => draft(from + i + k)));
  } finally {
    l.close();
  }
}

export function localRows(dir: string): { seq: number; hash: string; body: string }[] {
  const db = new Database(join(dir, '.loom', 'compliance', 'ledger.db'), { readonly: true });
  try {
    return db.prepare('SELECT seq, hash, body FROM records ORDER BY seq').all() as { seq: number; hash: string; body: string }[];
  } finally {
    db.close();
  }
}

export { deleteLocal, rewriteChain } from './ledger-forgers';

export async function query<T = Record<string, unknown>>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql, params)).rows as T[];
  } finally {
    await c.end();
  }
}

export function loom(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
  return run(process.execPath, [CLI, ...args], null, { LOOM_TEAM_URL: '', PGPASSWORD: '', LOOM_TEAM_PASSWORD_FILE: '', ...env });
}

/** The URL of a login role on the test server, without a password. */
export function roleUrl(port: number, role: string): string {
  return `postgres://${role}@127.0.0.1:${port}/loom`;
}
