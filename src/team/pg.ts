// The only module that loads the PostgreSQL client, and only when called:
// `pg` is external to every bundle and required here lazily, so the command
// hooks never load it (test/team-hook-path.test.ts checks).
import type { Client, ClientConfig } from 'pg';
import { redactUrl, type TeamConfig } from './config';

export type PgClient = Client;

export class TeamStoreError extends Error {
  constructor(
    message: string,
    /** unreachable: the server is down or refuses connections (a shipper retries later). */
    readonly code: 'unreachable' | 'auth' | 'schema' | 'refused' | 'other',
  ) {
    super(message);
  }
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EPIPE', 'EAI_AGAIN', '57P01', '57P02', '57P03', '08000', '08001', '08003', '08006']);

export function classifyPgError(e: unknown, cfg?: TeamConfig): TeamStoreError {
  if (e instanceof TeamStoreError) return e;
  const err = e as { code?: string; message?: string };
  const where = cfg ? `${redactUrl(cfg.url)}: ` : '';
  const msg = (err.message ?? String(e)).split('\n')[0];
  if (err.code && UNREACHABLE.has(err.code)) return new TeamStoreError(`${where}team store unreachable (${err.code}: ${msg})`, 'unreachable');
  if (/Connection terminated|not queryable|connection timeout|timeout expired|terminating connection|the database system is (starting|shutting) up/i.test(msg)) return new TeamStoreError(`${where}team store unreachable (${msg})`, 'unreachable');
  if (err.code === '28P01' || err.code === '28000' || /password/i.test(msg)) return new TeamStoreError(`${where}cannot log in to the team store (${err.code ?? ''} ${msg}); set the password in PGPASSWORD, LOOM_TEAM_PASSWORD_FILE or ~/.pgpass`, 'auth');
  if (err.code === '42P01' || err.code === '3F000') return new TeamStoreError(`${where}the team store has no loom schema (${msg}); run loom team init with an owner's URL`, 'schema');
  if (err.code === '42501') return new TeamStoreError(`${where}permission denied (${msg})`, 'refused');
  return new TeamStoreError(`${where}${err.code ? err.code + ': ' : ''}${msg}`, 'other');
}

export function clientConfig(cfg: TeamConfig, appName = 'loom'): ClientConfig {
  let url = cfg.url;
  if (cfg.password !== undefined) {
    // pg lets the connection string's (absent) password override a separate one: put it in the URL.
    const u = new URL(url);
    u.password = encodeURIComponent(cfg.password);
    url = u.toString();
  }
  return { connectionString: url, application_name: appName, connectionTimeoutMillis: 10_000, statement_timeout: 600_000 };
}

export async function connect(cfg: TeamConfig, appName?: string): Promise<PgClient> {
  const pg = require('pg') as typeof import('pg');
  const client = new pg.Client(clientConfig(cfg, appName));
  // An idle client whose server goes away emits 'error'; the next query reports it.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (e) {
    void client.end().catch(() => undefined);
    throw classifyPgError(e, cfg);
  }
  return client;
}

/**
 * `COPY ... FROM STDIN` with `data` (COPY text format, every value escaped by copyText): one message, no
 * parameter arrays for the server to parse. Resolves with the rows copied; a refused row (a key already
 * there, a value the column does not take) rejects with PostgreSQL's error and nothing is copied.
 */
export function copyFrom(client: PgClient, sql: string, data: string): Promise<number> {
  const pg = require('pg') as { Query: new (text: string, values: undefined, cb: (e: Error | null, r?: { rowCount: number | null }) => void) => object };
  return new Promise((resolve, reject) => {
    const q = new pg.Query(sql, undefined, (e, r) => (e ? reject(e) : resolve(r?.rowCount ?? 0))) as { handleCopyInResponse?: (con: { sendCopyFromChunk(b: Buffer): void; endCopyFrom(): void }) => void };
    q.handleCopyInResponse = (con) => {
      con.sendCopyFromChunk(Buffer.from(data, 'utf8'));
      con.endCopyFrom();
    };
    void (client.query as unknown as (q: object) => unknown)(q);
  });
}

const COPY_SPECIAL = /[\\\n\r\t]/;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One value in COPY text format: \N for null, backslash, newline, CR and tab escaped. */
export function copyText(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'number') return String(v);
  return COPY_SPECIAL.test(v) ? v.replace(/[\\\n\r\t]/g, (c) => COPY_ESCAPES[c]) : v;
}

export async function closeQuietly(client: PgClient | undefined): Promise<void> {
  if (!client) return;
  try {
    await client.end();
  } catch {
    // already gone
  }
}
