// loom team init: schema, roles and partitions, idempotent (run it again each
// year, or from cron, to add the coming months' partitions).
import type { PgClient } from './pg';
import { loginRoleSql, partitionSql, READER_ROLE, rolesSql, TABLES_SQL, WRITER_ROLE } from './schema';

export interface InitOptions {
  monthsBack?: number;
  monthsAhead?: number;
  logins?: { name: string; role: 'writer' | 'reader'; password: string }[];
  now?: Date;
}

export interface InitResult {
  partitions: number;
  roles: string[];
}

export async function initStore(client: PgClient, opts: InitOptions = {}): Promise<InitResult> {
  const parts = partitionSql(opts.now ?? new Date(), opts.monthsBack ?? 12, opts.monthsAhead ?? 24);
  await client.query('BEGIN');
  try {
    // One init at a time (CREATE ... IF NOT EXISTS races with itself).
    await client.query("SELECT pg_advisory_xact_lock(hashtext('loom team init'))");
    await client.query(TABLES_SQL);
    for (const p of parts) await client.query(p);
    for (const r of rolesSql()) await client.query(r);
    const roles = [WRITER_ROLE, READER_ROLE];
    for (const l of opts.logins ?? []) {
      for (const q of loginRoleSql(l.name, l.role === 'writer' ? WRITER_ROLE : READER_ROLE, l.password)) await client.query(q);
      roles.push(l.name);
    }
    await client.query('COMMIT');
    return { partitions: parts.length, roles };
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}
