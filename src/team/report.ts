// Team views over the store: SQL does the counting (one scan, grouping sets),
// Node only renders. Filters: repository, user, ledger, time bounds.
import type { PgClient } from './pg';

export interface TeamFilter {
  repo?: string;
  branch?: string;
  user?: string;
  ledger?: string;
  since?: string;
  until?: string;
}

export function whereOf(f: TeamFilter): { sql: string; params: unknown[] } {
  const conds: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, v: unknown) => {
    params.push(v);
    conds.push(sql.replace('?', `$${params.length}`));
  };
  if (f.repo) add('repo = ?', f.repo);
  if (f.branch) add('branch = ?', f.branch);
  if (f.user) add('actor_user = ?', f.user);
  if (f.ledger) add('ledger_id = ?', f.ledger);
  if (f.since) add('ts >= ?', f.since);
  if (f.until) add('ts <= ?', f.until);
  return { sql: conds.length ? `WHERE ${conds.join(' AND ')}` : '', params };
}

export interface Count {
  key: string;
  n: number;
  denied: number;
}

export interface TeamSummary {
  total: number;
  denied: number;
  first?: string;
  last?: string;
  byDecision: Count[];
  byRisk: Count[];
  byEvent: Count[];
  byUser: Count[];
  byRepo: Count[];
  byDay: Count[];
  ledgers: number;
  alerts: { kind: string; n: number }[];
  seconds: number;
}

const DIMENSIONS = { decision: 'decision', risk: 'risk', event: 'event', user: 'actor_user', repo: 'repo', day: "to_char(date_trunc('day', ts AT TIME ZONE 'UTC'), 'YYYY-MM-DD')" } as const;

export async function teamSummary(client: PgClient, f: TeamFilter): Promise<TeamSummary> {
  const t0 = performance.now();
  const w = whereOf(f);
  const dims = Object.entries(DIMENSIONS);
  const sql = `SELECT ${dims.map(([k, e]) => `${e} AS ${k}`).join(', ')}, ${dims.map(([k, e]) => `GROUPING(${e}) AS g_${k}`).join(', ')},
    count(*) AS n, count(*) FILTER (WHERE decision = 'deny') AS denied, min(ts) AS first, max(ts) AS last
    FROM loom.records ${w.sql}
    GROUP BY GROUPING SETS (${dims.map(([, e]) => `(${e})`).join(', ')}, ())`;
  const rows = (await client.query(sql, w.params)).rows as Record<string, unknown>[];
  const out: TeamSummary = { total: 0, denied: 0, byDecision: [], byRisk: [], byEvent: [], byUser: [], byRepo: [], byDay: [], ledgers: 0, alerts: [], seconds: 0 };
  const lists: Record<string, Count[]> = { decision: out.byDecision, risk: out.byRisk, event: out.byEvent, user: out.byUser, repo: out.byRepo, day: out.byDay };
  for (const r of rows) {
    const n = Number(r.n);
    const denied = Number(r.denied);
    const dim = dims.find(([k]) => Number(r[`g_${k}`]) === 0)?.[0];
    if (!dim) {
      out.total = n;
      out.denied = denied;
      out.first = r.first ? (r.first as Date).toISOString() : undefined;
      out.last = r.last ? (r.last as Date).toISOString() : undefined;
      continue;
    }
    // In each grouping set exactly one dimension is grouped (GROUPING = 0); the grand total has none.
    lists[dim].push({ key: String(r[dim] ?? '(none)'), n, denied });
  }
  for (const l of Object.values(lists)) l.sort((a, b) => b.n - a.n || a.key.localeCompare(b.key));
  out.byDay.sort((a, b) => a.key.localeCompare(b.key));
  const lw = whereOf({ ledger: f.ledger });
  out.ledgers = Number((await client.query(`SELECT count(DISTINCT ledger_id) AS n FROM loom.records ${w.sql}`, w.params)).rows[0].n);
  out.alerts = (await client.query(`SELECT kind, count(*) AS n FROM loom.alerts ${lw.sql} GROUP BY kind ORDER BY kind`, lw.params)).rows.map((r) => ({ kind: String(r.kind), n: Number(r.n) }));
  out.seconds = (performance.now() - t0) / 1000;
  return out;
}

export interface TeamRow {
  ledger_id: string;
  seq: number;
  ts: string;
  event: string;
  hook_id: string;
  decision: string;
  risk: string;
  actor_user: string | null;
  repo: string | null;
  branch: string | null;
  harness: string | null;
  hash: string;
  body: string;
}

/** The most recent records matching the filter, oldest first. */
export async function teamHistory(client: PgClient, f: TeamFilter & { limit?: number; event?: string; decision?: string }): Promise<TeamRow[]> {
  const w = whereOf(f);
  let sql = w.sql;
  const params = [...w.params];
  for (const [col, v] of [['event', f.event], ['decision', f.decision]] as const) {
    if (v === undefined) continue;
    params.push(v);
    sql += `${sql ? ' AND' : 'WHERE'} ${col} = $${params.length}`;
  }
  params.push(f.limit ?? 100);
  const rows = (await client.query(`SELECT * FROM (SELECT ledger_id, seq, ts, event, hook_id, decision, risk, actor_user, repo, branch, harness, hash, body FROM loom.records ${sql} ORDER BY ts DESC, ledger_id, seq DESC LIMIT $${params.length}) t ORDER BY ts, ledger_id, seq`, params)).rows;
  return rows.map((r) => ({ ...r, seq: Number(r.seq), ts: (r.ts as Date).toISOString() }) as TeamRow);
}
