// The ledger's SQL schema, versioned with PRAGMA user_version. Migrations
// only ever move forward and never drop a table that holds records.
// A record is stored once: its canonical body and its hash. The queryable
// columns are generated from the body, so they cannot drift from what is
// hashed, and verify reads only (seq, body, hash).
import type Database from 'better-sqlite3';

export const SCHEMA_VERSION = 2;

const MIGRATIONS: Record<number, string> = {
  1: `
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE records (
      seq INTEGER PRIMARY KEY,
      body TEXT NOT NULL,
      hash TEXT NOT NULL,
      id TEXT GENERATED ALWAYS AS (json_extract(body, '$.id')) VIRTUAL,
      ts TEXT GENERATED ALWAYS AS (json_extract(body, '$.ts')) VIRTUAL,
      event TEXT GENERATED ALWAYS AS (json_extract(body, '$.event')) VIRTUAL,
      hook_id TEXT GENERATED ALWAYS AS (json_extract(body, '$.hook_id')) VIRTUAL,
      harness TEXT GENERATED ALWAYS AS (json_extract(body, '$.harness')) VIRTUAL,
      session_id TEXT GENERATED ALWAYS AS (json_extract(body, '$.session_id')) VIRTUAL,
      risk TEXT GENERATED ALWAYS AS (json_extract(body, '$.risk')) VIRTUAL,
      decision TEXT GENERATED ALWAYS AS (json_extract(body, '$.decision')) VIRTUAL,
      status TEXT GENERATED ALWAYS AS (json_extract(body, '$.status')) VIRTUAL,
      kind TEXT GENERATED ALWAYS AS (json_extract(body, '$.kind')) VIRTUAL,
      prev_hash TEXT GENERATED ALWAYS AS (json_extract(body, '$.prev_hash')) VIRTUAL
    );
    CREATE INDEX records_ts ON records(ts);
    CREATE INDEX records_session ON records(session_id, seq);
    CREATE TRIGGER records_no_update BEFORE UPDATE ON records BEGIN SELECT RAISE(ABORT, 'the loom ledger is append-only'); END;
    CREATE TRIGGER records_no_delete BEFORE DELETE ON records BEGIN SELECT RAISE(ABORT, 'the loom ledger is append-only'); END;
  `,
  // Erasure (docs/ledger.md, src/ledger/erase.ts): a record's body may change only when a later
  // erasure record in the chain names its seq and its hash, and the hash and seq stay as they were.
  2: `
    DROP TRIGGER records_no_update;
    CREATE TRIGGER records_no_update BEFORE UPDATE ON records
      WHEN NOT (NEW.seq = OLD.seq AND NEW.hash = OLD.hash AND EXISTS (
        SELECT 1 FROM records e WHERE e.kind = 'erasure' AND e.seq > OLD.seq
          AND json_extract(e.body, '$.erasure.target_seq') = OLD.seq AND json_extract(e.body, '$.erasure.target_hash') = OLD.hash))
      BEGIN SELECT RAISE(ABORT, 'the loom ledger is append-only'); END;
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
