// The ledger's SQL schema, versioned with PRAGMA user_version. Migrations
// only ever move forward and never drop a table that holds records.
import type Database from 'better-sqlite3';

export const SCHEMA_VERSION = 1;

const MIGRATIONS: Record<number, string> = {
  1: `
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE records (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      ts TEXT NOT NULL,
      event TEXT NOT NULL,
      hook_id TEXT NOT NULL,
      harness TEXT NOT NULL,
      session_id TEXT NOT NULL,
      risk TEXT NOT NULL,
      decision TEXT NOT NULL,
      status TEXT NOT NULL,
      kind TEXT NOT NULL,
      body TEXT NOT NULL,
      prev_hash TEXT NOT NULL,
      hash TEXT NOT NULL
    );
    CREATE INDEX records_ts ON records(ts);
    CREATE INDEX records_session ON records(session_id, seq);
    CREATE TRIGGER records_no_update BEFORE UPDATE ON records BEGIN SELECT RAISE(ABORT, 'the loom ledger is append-only'); END;
    CREATE TRIGGER records_no_delete BEFORE DELETE ON records BEGIN SELECT RAISE(ABORT, 'the loom ledger is append-only'); END;
  `,
};

export class SchemaError extends Error {}

/** Brings the schema to SCHEMA_VERSION inside the caller's write transaction. */
export function migrate(db: Database.Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) throw new SchemaError(`ledger schema version ${current} is newer than this loom (${SCHEMA_VERSION}); upgrade loom`);
  for (let v = current + 1; v <= SCHEMA_VERSION; v++) {
    db.exec(MIGRATIONS[v]);
    db.pragma(`user_version = ${v}`);
  }
}

export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}
