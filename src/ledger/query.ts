// Reads records back from the database with the filters of `loom history`.
import { isValid, parseISO, sub, type Duration } from 'date-fns';
import { RISKS, type Risk } from '../contract/types';
import type { Ledger } from './store';

export interface HistoryFilter {
  event?: string;
  session?: string;
  risk?: Risk;
  decision?: string;
  hook?: string;
  /** Matches the record's actor: OS user, git email or the harness's user id. */
  user?: string;
  /** Matches the actor's host name. */
  host?: string;
  since?: string;
  until?: string;
  limit?: number;
}

export class QueryError extends Error {}

const UNITS: Record<string, keyof Duration> = { s: 'seconds', m: 'minutes', h: 'hours', d: 'days', w: 'weeks' };

/**
 * A date, a date and time, or an age (30m, 2h, 7d, 1w); returns an ISO timestamp (UTC).
 * A date or time without a zone is local time, date alone and date with a time alike
 * (`2026-11-30` is local midnight, as `2026-11-30 00:00` is); `Z` or an offset names the zone.
 * Ages count back in calendar units: 1d is the same wall-clock time yesterday, across a DST change too.
 */
/** --since and --until read together: a range that ends before it starts is a mistake to name, not 0 records. */
export function parseTimeRange(since: string | undefined, until: string | undefined, now = Date.now()): { since?: string; until?: string } {
  const s = since ? parseTimeBound(since, '--since', now) : undefined;
  const u = until ? parseTimeBound(until, '--until', now) : undefined;
  if (s && u && s > u) throw new QueryError(`--since ${since} (${s}) is after --until ${until} (${u}): the range is empty; swap them`);
  return { since: s, until: u };
}

export function parseTimeBound(text: string, flag: string, now = Date.now()): string {
  const t = text.trim();
  const rel = /^(\d{1,6})([smhdw])$/.exec(t);
  if (rel) return sub(now, { [UNITS[rel[2]]]: Number(rel[1]) }).toISOString();
  if (/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.test(t)) {
    const d = parseISO(t);
    if (isValid(d)) return d.toISOString();
  }
  throw new QueryError(`${flag} "${text}": expected a date (2026-11-30), a date and time (2026-11-30 18:35, local time unless it ends in Z or an offset) or an age such as 30m, 2h, 7d`);
}

export interface StoredRow {
  body: string;
  hash: string;
}

export function recordFromRow(r: StoredRow): Record<string, unknown> {
  const rec = JSON.parse(r.body) as Record<string, unknown>;
  rec.hash = r.hash;
  return rec;
}

export function queryHistory(ledger: Ledger, f: HistoryFilter): Record<string, unknown>[] {
  const where: string[] = [];
  const params: unknown[] = [];
  const eq = (col: string, v?: string) => {
    if (v !== undefined) {
      where.push(`${col} = ?`);
      params.push(v);
    }
  };
  eq('event', f.event);
  eq('session_id', f.session);
  eq('decision', f.decision);
  eq('hook_id', f.hook);
  if (f.user !== undefined) {
    // The actor lives in the kind object: $."<kind>".actor.
    const at = (field: string) => `json_extract(body, '$.' || json_quote(kind) || '.actor.${field}')`;
    where.push(`(${at('user')} = ? OR ${at('email')} = ? OR ${at('client_user')} = ?)`);
    params.push(f.user, f.user, f.user);
  }
  if (f.host !== undefined) {
    where.push(`json_extract(body, '$.' || json_quote(kind) || '.actor.host') = ?`);
    params.push(f.host);
  }
  if (f.risk) {
    const levels = RISKS.slice(RISKS.indexOf(f.risk));
    where.push(`risk IN (${levels.map(() => '?').join(',')})`);
    params.push(...levels);
  }
  if (f.since) {
    where.push('ts >= ?');
    params.push(f.since);
  }
  if (f.until) {
    where.push('ts <= ?');
    params.push(f.until);
  }
  const cond = where.length ? `WHERE ${where.join(' AND ')}` : '';
  // With a limit, the most recent N; always printed oldest first.
  const sql = f.limit
    ? `SELECT body, hash FROM (SELECT seq, body, hash FROM records ${cond} ORDER BY seq DESC LIMIT ?) ORDER BY seq`
    : `SELECT body, hash FROM records ${cond} ORDER BY seq`;
  if (f.limit) params.push(f.limit);
  return (ledger.handle.prepare(sql).all(...params) as StoredRow[]).map(recordFromRow);
}
