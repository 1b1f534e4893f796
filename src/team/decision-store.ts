// The ledger of `loom serve --team-url`: every decision is written to the
// team store (PostgreSQL) before it is answered, with no state on the
// server. Requests that arrive while a commit runs wait for the next one,
// which writes all of them (up to 256 records, after a window of at most
// 2 ms) in one transaction: group commit, one WAL flush for many answers.
//
// One ledger per client id (`serve:<client>`), shared by every instance:
// a batch takes a transaction-scoped advisory lock per ledger (in a fixed
// order, so instances never deadlock), reads the ledger's head from
// loom.chain, builds the records on it (seq, prev_hash, hash) and inserts
// them. Two instances serving one client therefore extend one total,
// gap-free chain; the primary key of loom.chain would refuse a second
// record at a seq if the lock were ever bypassed. No UPDATE right is needed:
// the store stays append-only for loom_writer (docs/team.md says why this
// over a heads table or a ledger per instance).
//
// Fail closed: a store that is down, refuses, or does not confirm within the
// budget makes record() resolve with a one-line problem (the server blocks
// where the event can block), and the answer given is then written to a
// local spool (fsync'd before the answer) that is written to the store, in
// order, once it takes writes again. Nothing answered goes unrecorded.
import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { contractFor } from '../contract/events';
import type { HookDef, RecordDraft } from '../contract/types';
import { bulkHasher, GENESIS_HASH, type ChainKey } from '../ledger/chain';
import { buildRecord } from '../ledger/record-build';
import { buildDrafts } from '../runner/record';
import type { RecordJob } from '../serve/ledger-worker';
import type { ShutdownResult } from '../serve/ledger-client';
import { newId } from '../util/ids';
import type { TeamConfig } from './config';
import { classifyPgError, clientConfig, closeQuietly, type PgClient } from './pg';
import { mkdirBounded } from '../util/bounded-mkdir';

export const COMMIT_WINDOW_MS = 2;
export const MAX_BATCH_RECORDS = 256;
export const DEFAULT_BUDGET_MS = 2000;
/** After a failed connect, requests fail at once (no connect per request) for this long. */
const RETRY_AFTER_MS = 500;
/** advisory lock class id: "loom" in ASCII, so loom's locks never meet another application's. */
const LOCK_CLASS = 0x6c6f6f6d;

/** A record job of the team server: the client whose ledger it extends. */
export type TeamRecordJob = RecordJob & { clientId: string };

export function ledgerIdOf(clientId: string): string {
  return `serve:${clientId}`;
}

interface Entry {
  ledgerId: string;
  clientId: string;
  drafts: RecordDraft[];
  /** Spooled entries keep the time and ids they were answered with. */
  ts?: string;
  ids?: string[];
  done: (problem: string | undefined) => void;
}

interface SpoolLine {
  ledgerId: string;
  clientId: string;
  ts: string;
  ids: string[];
  drafts: RecordDraft[];
}

const COLUMNS = ['ledger_id', 'seq', 'hash', 'body', 'ts', 'event', 'hook_id', 'harness', 'session_id', 'risk', 'decision', 'status', 'kind', 'actor_user', 'actor_from'] as const;
const TYPES: Partial<Record<(typeof COLUMNS)[number], string>> = { seq: 'bigint', ts: 'timestamptz' };
const lockKey = (ledgerId: string): number => createHash('sha256').update(ledgerId).digest().readInt32BE(0);

export interface DecisionStoreOptions {
  budgetMs?: number;
  /** Where answers the store did not take wait (one folder per instance). */
  spoolDir: string;
  key?: ChainKey;
  /** Told once per change of the store's state (down with the reason, back up). */
  log?: (line: string) => void;
}

export class TeamDecisionStore {
  private queue: Entry[] = [];
  private queuedRecords = 0;
  private timer?: NodeJS.Timeout;
  private inFlight?: Promise<void>;
  private client?: PgClient;
  private connecting?: Promise<PgClient>;
  private failedAt = -Infinity;
  private lastProblem?: string;
  private knownLedgers = new Set<string>();
  private head = 0;
  /** Each ledger's head as this instance last committed it. */
  private lastWritten = new Map<string, { seq: number; hash: string }>();
  /**
   * Ledgers this instance alone has been extending: the head it read under the lock was the one it had
   * committed itself. Their batches go in one round trip, built on lastWritten (see commit()).
   */
  private sole = new Set<string>();
  private readonly hasher: (body: string) => string;
  private readonly budgetMs: number;
  private readonly spoolFile: string;
  private readonly drainingFile: string;
  private spoolPending: boolean;
  private draining?: SpoolLine[];
  private retryTimer: NodeJS.Timeout;
  private closed = false;
  readonly host = hostname();

  constructor(
    private readonly cfg: TeamConfig,
    private readonly o: DecisionStoreOptions,
  ) {
    this.budgetMs = o.budgetMs ?? DEFAULT_BUDGET_MS;
    this.hasher = bulkHasher(o.key);
    mkdirBounded(o.spoolDir, 0o700);
    this.spoolFile = join(o.spoolDir, 'spool.jsonl');
    this.drainingFile = join(o.spoolDir, 'spool.draining.jsonl');
    this.spoolPending = existsSync(this.spoolFile) || existsSync(this.drainingFile);
    // Spooled answers reach the store without waiting for traffic.
    this.retryTimer = setInterval(() => {
      if (this.spoolPending && !this.inFlight && !this.closed) this.schedule(true);
    }, 1000);
    this.retryTimer.unref();
  }

  /** Connects before the first request (a cold connect and login can take longer than the budget); a down store is reported, not fatal. */
  async warm(): Promise<string | undefined> {
    try {
      const c = await this.connection();
      await c.query('SELECT 1 FROM loom.chain LIMIT 0');
      return undefined;
    } catch (e) {
      const problem = classifyPgError(e, this.cfg).message;
      this.lastProblem = problem;
      this.failedAt = performance.now();
      return problem;
    }
  }

  /** The store's current problem (for /healthz), or undefined while it takes writes. */
  problem(): string | undefined {
    return this.lastProblem;
  }

  headSeq(): number {
    return this.head;
  }

  catchUp(): void {
    // Nothing local to fold: the store is the ledger.
  }

  /** Builds the job's records and resolves once they are committed in the store, or with the reason they are not (within the budget). */
  record(job: RecordJob): Promise<string | undefined> {
    const t = job as TeamRecordJob;
    let drafts: RecordDraft[];
    try {
      drafts = draftsOf(t);
    } catch (e) {
      return Promise.resolve(`cannot build the record: ${(e as Error).message}`);
    }
    if (drafts.length === 0) return Promise.resolve(undefined);
    if (this.closed) return Promise.resolve('loom serve is shutting down');
    return new Promise((resolve) => {
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        // Not sent yet: it never will be (the answer given is spooled instead). Sent: it may still commit late (docs/team.md).
        const at = this.queue.indexOf(entry);
        if (at >= 0) {
          this.queue.splice(at, 1);
          this.queuedRecords -= entry.drafts.length;
        }
        resolve(`the team store did not confirm within ${this.budgetMs} ms`);
      }, this.budgetMs);
      const entry: Entry = {
        ledgerId: ledgerIdOf(t.clientId),
        clientId: t.clientId,
        drafts,
        done: (problem) => {
          clearTimeout(timer);
          if (!settled) resolve(problem);
          settled = true;
        },
      };
      this.queue.push(entry);
      this.queuedRecords += drafts.length;
      this.schedule(this.queuedRecords >= MAX_BATCH_RECORDS);
    });
  }

  /**
   * The answer given after the store failed (a block where the event can block): written to the
   * local spool, durably, before the answer leaves. Resolves with a problem when even that fails.
   */
  spool(job: RecordJob): Promise<string | undefined> {
    const t = job as TeamRecordJob;
    try {
      const drafts = draftsOf(t);
      if (drafts.length === 0) return Promise.resolve(undefined);
      for (const d of drafts) d.data = { ...d.data, spooled: { reason: this.lastProblem ?? 'the team store failed', by: this.host } };
      const line: SpoolLine = { ledgerId: ledgerIdOf(t.clientId), clientId: t.clientId, ts: new Date().toISOString(), ids: drafts.map(() => newId()), drafts };
      const fd = openSync(this.spoolFile, 'a', 0o600);
      try {
        writeSync(fd, JSON.stringify(line) + '\n');
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      this.spoolPending = true;
      return Promise.resolve(undefined);
    } catch (e) {
      return Promise.resolve(`the local spool failed too: ${(e as Error).message.split('\n')[0]}`);
    }
  }

  private schedule(now: boolean): void {
    if (this.inFlight) return; // the running commit schedules the next one when it ends
    if (now) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      this.inFlight = this.flush();
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.inFlight = this.flush();
    }, COMMIT_WINDOW_MS);
  }

  private async connection(): Promise<PgClient> {
    if (this.client) return this.client;
    if (performance.now() - this.failedAt < RETRY_AFTER_MS) throw new Error(this.lastProblem ?? 'team store unreachable');
    this.connecting ??= (async () => {
      const pg = require('pg') as typeof import('pg');
      const conf = clientConfig(this.cfg, 'loom serve');
      const c = new pg.Client({ ...conf, connectionTimeoutMillis: this.budgetMs, statement_timeout: this.budgetMs, query_timeout: this.budgetMs + 250 });
      c.on('error', () => {
        if (this.client === c) this.client = undefined;
      });
      try {
        await c.connect();
      } catch (e) {
        void c.end().catch(() => undefined);
        throw e;
      }
      this.client = c;
      return c;
    })().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  /** One batch: spooled answers first (oldest first), then the queue, up to MAX_BATCH_RECORDS records. */
  private take(): Entry[] {
    const batch: Entry[] = [];
    let n = 0;
    const spooled = this.spooledEntries();
    batch.push(...spooled);
    for (const s of spooled) n += s.drafts.length;
    while (this.queue.length && (n === 0 || n + this.queue[0].drafts.length <= MAX_BATCH_RECORDS)) {
      const e = this.queue.shift()!;
      n += e.drafts.length;
      this.queuedRecords -= e.drafts.length;
      batch.push(e);
    }
    return batch;
  }

  private spooledEntries(): Entry[] {
    if (!this.spoolPending) return [];
    if (!this.draining) {
      try {
        if (!existsSync(this.drainingFile)) {
          if (!existsSync(this.spoolFile)) {
            this.spoolPending = false;
            return [];
          }
          renameSync(this.spoolFile, this.drainingFile);
        }
        this.draining = [];
        for (const line of readFileSync(this.drainingFile, 'utf8').split('\n')) {
          if (!line) continue;
          try {
            this.draining.push(JSON.parse(line) as SpoolLine);
          } catch {
            this.o.log?.(`loom serve: spool: an unreadable line skipped (${line.slice(0, 80)}…)`);
          }
        }
      } catch (e) {
        this.o.log?.(`loom serve: spool: ${(e as Error).message.split('\n')[0]}`);
        return [];
      }
    }
    // Only the whole file at once: it is removed when its records are in.
    return this.draining.map((s) => ({ ledgerId: s.ledgerId, clientId: s.clientId, drafts: s.drafts, ts: s.ts, ids: s.ids, done: () => undefined }));
  }

  private async flush(): Promise<void> {
    // Never settle synchronously: the caller stores this promise as inFlight, and the finally below must clear it after that.
    await null;
    const batch = this.take();
    const spooled = batch.filter((e) => e.ids).length;
    try {
      if (batch.length) {
        const problem = await this.commit(batch);
        if (!problem && spooled) {
          try {
            unlinkSync(this.drainingFile);
          } catch {
            // already gone
          }
          this.draining = undefined;
          this.spoolPending = existsSync(this.spoolFile);
          this.o.log?.(`loom serve: ${spooled} spooled answer(s) written to the team store`);
        }
        for (const e of batch) e.done(problem);
      }
    } finally {
      this.inFlight = undefined;
      if (this.queue.length) this.schedule(true);
    }
  }

  private async commit(batch: Entry[]): Promise<string | undefined> {
    let c: PgClient | undefined;
    try {
      c = await this.connection();
      const ledgers = [...new Set(batch.map((e) => e.ledgerId))];
      const fresh = ledgers.filter((l) => !this.knownLedgers.has(l));
      // Two round trips, each one simple-protocol query of several statements: a busy request thread costs two
      // wake-ups per batch, not six. Ledger ids are `serve:` + a checked client id; every value goes through escapeLiteral.
      const lit = (v: string | null | undefined): string => (v === null || v === undefined ? 'NULL' : c!.escapeLiteral(v));
      const keys = [...new Set(ledgers.map(lockKey))].sort((a, b) => a - b);
      // Locks in one fixed order across instances: no deadlock. Everything a ledger's batch writes happens under its lock.
      const lock = `BEGIN; SELECT pg_advisory_xact_lock(${LOCK_CLASS}, k) FROM unnest(ARRAY[${keys.join(',')}]::int[]) AS k;`;
      const now = new Date().toISOString();
      if (fresh.length === 0 && ledgers.every((l) => this.sole.has(l))) {
        // One round trip: the records built on the heads this instance committed last, inserted under the same
        // locks only if those are still the heads in loom.chain (checked by the INSERT itself, after the locks).
        // Had another instance extended one of these ledgers since, nothing is inserted, and the batch goes the
        // two-trip way, heads read under the lock. Nothing is ever written on a stale head.
        const expected = new Map([...this.lastWritten].filter(([l]) => ledgers.includes(l)).map(([l, h]) => [l, { ...h }]));
        const heads = new Map([...expected].map(([l, h]) => [l, { ...h }]));
        const r = (await c.query(`${lock} ${this.insertSql(batch, heads, now, lit, expected)}; COMMIT`)) as unknown as { rowCount: number | null }[];
        if ((r[2]?.rowCount ?? 0) > 0) {
          this.committed(heads);
          return undefined;
        }
        for (const l of ledgers) this.sole.delete(l);
      }
      let first = lock;
      for (const l of fresh) first += ` INSERT INTO loom.ledgers (ledger_id, chain, key_id, project, actor_user) VALUES (${lit(l)}, ${lit(this.o.key ? 'hmac-sha256' : 'sha256')}, ${lit(this.o.key?.id)}, 'loom serve --team-url', ${lit(batch.find((e) => e.ledgerId === l)!.clientId)}) ON CONFLICT DO NOTHING;`;
      first += ` SELECT l.id, c.seq, c.hash FROM unnest(ARRAY[${ledgers.map(lit).join(',')}]::text[]) AS l(id) LEFT JOIN LATERAL (SELECT seq, hash FROM loom.chain WHERE ledger_id = l.id ORDER BY seq DESC LIMIT 1) c ON true`;
      const results = (await c.query(first)) as unknown as { rows: { id: string; seq: string | null; hash: string | null }[] }[];
      const heads = new Map<string, { seq: number; hash: string }>();
      for (const r of results[results.length - 1].rows) {
        const h = { seq: r.seq === null ? 0 : Number(r.seq), hash: r.hash ?? GENESIS_HASH };
        heads.set(r.id, h);
        const mine = this.lastWritten.get(r.id);
        if (mine && mine.seq === h.seq && mine.hash === h.hash) this.sole.add(r.id);
        else this.sole.delete(r.id);
      }
      // An insert that fails aborts the query (COMMIT never runs); the connection is then dropped, rolling back.
      await c.query(`${this.insertSql(batch, heads, now, lit)}; COMMIT`);
      for (const l of fresh) this.knownLedgers.add(l);
      this.committed(heads);
      return undefined;
    } catch (e) {
      // Any failure ends the connection: the server rolls the transaction back, and the next batch starts clean.
      this.lastWritten.clear();
      this.sole.clear();
      if (c) {
        if (this.client === c) this.client = undefined;
        void closeQuietly(c);
      }
      const problem = classifyPgError(e, this.cfg).message;
      if (problem !== this.lastProblem) this.o.log?.(`loom serve: team store: ${problem}`);
      this.lastProblem = problem;
      this.failedAt = performance.now();
      return `team store: ${problem}`;
    }
  }

  /**
   * The batch's records built on `heads` (advanced in place), as one INSERT into loom.chain and loom.records;
   * with `expected`, an INSERT of nothing unless each ledger's head in loom.chain is the one expected.
   */
  private insertSql(batch: Entry[], heads: Map<string, { seq: number; hash: string }>, now: string, lit: (v: string | null | undefined) => string, expected?: Map<string, { seq: number; hash: string }>): string {
    const cols: unknown[][] = COLUMNS.map(() => []);
    for (const e of batch) {
      const h = heads.get(e.ledgerId)!;
      e.drafts.forEach((d, i) => {
        const built = buildRecord(d, h.seq + 1, h.hash, e.ts ?? now, this.o.key, e.ids?.[i] ?? newId(), this.hasher);
        h.seq = built.seq;
        h.hash = built.hash;
        const vals = [e.ledgerId, built.seq, built.hash, built.body, built.record.ts, d.event, d.hook_id, d.harness, d.session_id, d.risk, d.decision, d.status, d.kind, e.clientId, 'client-token'];
        for (let k = 0; k < vals.length; k++) cols[k].push(vals[k]);
      });
    }
    const arrays = COLUMNS.map((col, k) => `ARRAY[${(cols[k] as (string | number)[]).map((v) => (typeof v === 'number' ? String(v) : lit(v))).join(',')}]::${TYPES[col] ?? 'text'}[]`);
    let guard = '';
    let where = '';
    if (expected) {
      const e = [...expected];
      guard = `ok AS (SELECT coalesce(bool_and(c.seq IS NOT DISTINCT FROM e.seq AND c.hash IS NOT DISTINCT FROM e.hash), false) AS ok FROM unnest(ARRAY[${e.map(([l]) => lit(l)).join(',')}]::text[], ARRAY[${e.map(([, h]) => h.seq).join(',')}]::bigint[], ARRAY[${e.map(([, h]) => lit(h.hash)).join(',')}]::text[]) AS e(id, seq, hash) LEFT JOIN LATERAL (SELECT seq, hash FROM loom.chain WHERE ledger_id = e.id ORDER BY seq DESC LIMIT 1) c ON true), `;
      where = ' WHERE (SELECT ok FROM ok)';
    }
    return `WITH ${guard}input AS (SELECT * FROM unnest(${arrays.join(', ')}) AS u(${COLUMNS.join(', ')})${where}), chained AS (INSERT INTO loom.chain (ledger_id, seq, hash) SELECT ledger_id, seq, hash FROM input RETURNING seq) INSERT INTO loom.records (${COLUMNS.join(', ')}) SELECT ${COLUMNS.join(', ')} FROM input`;
  }

  private committed(heads: Map<string, { seq: number; hash: string }>): void {
    for (const [l, h] of heads) {
      this.lastWritten.set(l, h);
      this.head = Math.max(this.head, h.seq);
    }
    if (this.lastProblem) this.o.log?.('loom serve: the team store takes writes again');
    this.lastProblem = undefined;
  }

  /** Commits what is queued (bounded), then closes the connection. */
  async shutdown(): Promise<ShutdownResult> {
    const deadline = performance.now() + 5000;
    while ((this.queue.length || this.inFlight) && performance.now() < deadline) {
      if (!this.inFlight) this.schedule(true);
      await this.inFlight;
    }
    this.closed = true;
    clearInterval(this.retryTimer);
    if (this.timer) clearTimeout(this.timer);
    for (const e of this.queue.splice(0)) e.done('loom serve is shutting down');
    await closeQuietly(this.client);
    this.client = undefined;
    return { problems: this.lastProblem ? [`team store: ${this.lastProblem}`] : [], written: [] };
  }
}

function draftsOf(job: TeamRecordJob): RecordDraft[] {
  return buildDrafts({ projectDir: job.projectDir, payload: { session_id: job.sessionId }, agg: job.agg, harness: job.harness, eventName: job.eventName, contract: contractFor(job.eventName), hooks: job.hooks as HookDef[], extra: job.extra });
}
