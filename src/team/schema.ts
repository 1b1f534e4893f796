// The team store's schema (PostgreSQL), created by `loom team init` with an
// owner's URL. docs/team.md describes every table and role; this file is the
// one place that says it in SQL.
//
// loom.chain    (ledger_id, seq) -> hash: one row per shipped record, the
//               primary key is what refuses a second record at a seq (a fork).
// loom.records  the records as shipped (body and hash verbatim) plus columns
//               extracted for SQL (event, decision, actor, repository...),
//               partitioned by month of the record's ts.
// loom.ledgers  one row per local ledger: chain mode, first seen, where from.
// loom.alerts   forks, gaps and rollbacks found while shipping or verifying.
//
// Roles: loom_writer (shippers, loom serve) may INSERT and SELECT, nothing
// else: the store is append-only for loom. loom_reader may SELECT.
export const SCHEMA = 'loom';
export const WRITER_ROLE = 'loom_writer';
export const READER_ROLE = 'loom_reader';
export const STORE_VERSION = 1;

export const TABLES_SQL = `
CREATE SCHEMA IF NOT EXISTS loom;
CREATE TABLE IF NOT EXISTS loom.meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE IF NOT EXISTS loom.ledgers (
  ledger_id text PRIMARY KEY CHECK (length(ledger_id) BETWEEN 8 AND 64),
  chain text NOT NULL,
  key_id text,
  project text,
  repo text,
  actor_user text,
  actor_host text,
  first_seen timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS loom.chain (
  ledger_id text NOT NULL,
  seq bigint NOT NULL CHECK (seq > 0),
  hash text NOT NULL,
  PRIMARY KEY (ledger_id, seq)
);
CREATE TABLE IF NOT EXISTS loom.records (
  ledger_id text NOT NULL,
  seq bigint NOT NULL,
  ts timestamptz NOT NULL,
  hash text NOT NULL,
  body text NOT NULL,
  event text,
  hook_id text,
  harness text,
  session_id text,
  risk text,
  decision text,
  status text,
  kind text,
  actor_user text,
  actor_host text,
  actor_email text,
  actor_from text,
  repo text,
  branch text,
  shipped_at timestamptz NOT NULL DEFAULT now()
) PARTITION BY RANGE (ts);
CREATE INDEX IF NOT EXISTS records_ledger_seq ON loom.records (ledger_id, seq);
CREATE TABLE IF NOT EXISTS loom.records_default PARTITION OF loom.records DEFAULT;
CREATE TABLE IF NOT EXISTS loom.alerts (
  id bigserial PRIMARY KEY,
  detected_at timestamptz NOT NULL DEFAULT now(),
  ledger_id text NOT NULL,
  seq bigint NOT NULL,
  kind text NOT NULL CHECK (kind IN ('fork', 'gap', 'rollback')),
  detail text NOT NULL,
  stored_hash text,
  offered_hash text
);
CREATE UNIQUE INDEX IF NOT EXISTS alerts_once ON loom.alerts (ledger_id, kind, seq, offered_hash) NULLS NOT DISTINCT;
INSERT INTO loom.meta(key, value) VALUES ('store_version', '${STORE_VERSION}') ON CONFLICT (key) DO NOTHING;
`;

function monthStart(d: Date): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
}

/** Monthly partitions from `monthsBack` before now to `monthsAhead` after. */
export function partitionSql(now: Date, monthsBack: number, monthsAhead: number): string[] {
  const out: string[] = [];
  const first = monthStart(now);
  for (let i = -monthsBack; i <= monthsAhead; i++) {
    const from = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + i, 1));
    const to = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, 1));
    const name = `records_${from.getUTCFullYear()}_${String(from.getUTCMonth() + 1).padStart(2, '0')}`;
    out.push(`CREATE TABLE IF NOT EXISTS loom.${name} PARTITION OF loom.records FOR VALUES FROM ('${from.toISOString()}') TO ('${to.toISOString()}')`);
  }
  return out;
}

export function rolesSql(): string[] {
  const tables = 'loom.meta, loom.ledgers, loom.chain, loom.records, loom.alerts';
  return [
    `DO $$ BEGIN CREATE ROLE ${WRITER_ROLE} NOLOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$`,
    `DO $$ BEGIN CREATE ROLE ${READER_ROLE} NOLOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$`,
    `REVOKE ALL ON SCHEMA loom FROM PUBLIC`,
    `REVOKE ALL ON ${tables} FROM PUBLIC`,
    `GRANT USAGE ON SCHEMA loom TO ${WRITER_ROLE}, ${READER_ROLE}`,
    // Append-only for loom: no UPDATE, DELETE or TRUNCATE for either role.
    `REVOKE UPDATE, DELETE, TRUNCATE ON ${tables} FROM ${WRITER_ROLE}, ${READER_ROLE}`,
    `GRANT SELECT, INSERT ON loom.ledgers, loom.chain, loom.records, loom.alerts TO ${WRITER_ROLE}`,
    `GRANT SELECT ON loom.meta TO ${WRITER_ROLE}`,
    `GRANT USAGE ON SEQUENCE loom.alerts_id_seq TO ${WRITER_ROLE}`,
    `GRANT SELECT ON ${tables} TO ${READER_ROLE}`,
  ];
}

/** A login role in one of loom's roles; the name is checked, the password passed as a literal. */
export function loginRoleSql(name: string, member: string, password: string): string[] {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`role name "${name}": expected lowercase letters, digits and _`);
  const lit = `'${password.replace(/'/g, "''")}'`;
  return [
    `DO $$ BEGIN CREATE ROLE ${name} LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$`,
    `ALTER ROLE ${name} LOGIN PASSWORD ${lit}`,
    `GRANT ${member} TO ${name}`,
  ];
}
