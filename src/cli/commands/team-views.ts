// loom report --team [--repo R] [--user U] [--since T] [--until T] [--out F] [--json]
// loom history --team [--repo R] [--user U] [--since T] [--event E] [--decision D] [--limit N] [--json|--jsonl]
// Both read the team store; SQL does the counting.
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseTimeRange, QueryError } from '../../ledger/query';
import { redactUrl } from '../../team/config';
import { classifyPgError, closeQuietly, connect } from '../../team/pg';
import { teamHistory, teamSummary, type TeamFilter } from '../../team/report';
import { renderTeamReport } from '../../team/report-html';
import { parseFlags, projectDirFrom, type ParsedFlags } from '../flags';
import { table } from '../output';
import { teamConfigFrom } from './team';
import { mkdirBounded } from '../../util/bounded-mkdir';

function filterOf(f: ParsedFlags): TeamFilter {
  const v = f.values;
  return { repo: v.repo, user: v.user, ledger: v.ledger, ...parseTimeRange(v.since, v.until) };
}

const FILTER_FLAGS = ['project-dir', 'team-url', 'repo', 'user', 'ledger', 'since', 'until'];

export async function reportTeamCommand(argv: string[]): Promise<number> {
  const f = parseFlags(argv, { values: [...FILTER_FLAGS, 'out'], booleans: ['team', 'json'] });
  const cfg = teamConfigFrom(f);
  const client = await connect(cfg, 'loom report --team');
  try {
    const s = await teamSummary(client, filterOf(f)).catch((e) => {
      throw classifyPgError(e, cfg);
    });
    if (f.booleans.has('json')) {
      process.stdout.write(JSON.stringify(s, null, 2) + '\n');
      return 0;
    }
    const filter = [f.values.repo && `repo ${f.values.repo}`, f.values.user && `user ${f.values.user}`, f.values.since && `since ${f.values.since}`, f.values.until && `until ${f.values.until}`].filter(Boolean).join(', ') || 'all records';
    const out = resolve(f.values.out ?? join(resolve(projectDirFrom(f)), '.loom', 'reports', 'team.html'));
    mkdirBounded(dirname(out));
    writeFileSync(out, renderTeamReport(s, { store: redactUrl(cfg.url), filter, generatedAt: new Date().toISOString() }));
    process.stdout.write(`team report: ${out} (${s.total} records, ${s.ledgers} ledgers, ${s.alerts.reduce((a, b) => a + b.n, 0)} alerts; counted in ${s.seconds.toFixed(2)} s)\n`);
    return 0;
  } finally {
    await closeQuietly(client);
  }
}

export async function historyTeamCommand(argv: string[]): Promise<number> {
  const f = parseFlags(argv, { values: [...FILTER_FLAGS, 'event', 'decision', 'limit'], booleans: ['team', 'json', 'jsonl'] });
  const limit = f.values.limit === undefined ? 100 : Number(f.values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1_000_000) throw new QueryError(`--limit "${f.values.limit}": expected 1-1000000`);
  const cfg = teamConfigFrom(f);
  const client = await connect(cfg, 'loom history --team');
  try {
    const rows = await teamHistory(client, { ...filterOf(f), event: f.values.event, decision: f.values.decision, limit }).catch((e) => {
      throw classifyPgError(e, cfg);
    });
    if (f.booleans.has('json') || f.booleans.has('jsonl')) {
      // The record as stored (its body, verbatim) plus where it came from.
      const recs = rows.map((r) => ({ ledger_id: r.ledger_id, actor_user: r.actor_user, repo: r.repo, branch: r.branch, ...JSON.parse(r.body), hash: r.hash }));
      process.stdout.write(f.booleans.has('json') ? JSON.stringify(recs, null, 2) + '\n' : recs.map((r) => JSON.stringify(r) + '\n').join(''));
    } else {
      process.stdout.write(table(['ts', 'user', 'repo', 'branch', 'event', 'hook', 'decision', 'risk', 'ledger:seq'], rows.map((r) => [r.ts, r.actor_user ?? '', r.repo ?? '', r.branch ?? '', r.event, r.hook_id, r.decision, r.risk, `${r.ledger_id.slice(0, 8)}:${r.seq}`]), undefined, undefined, { toned: [6, 7], minWidths: { 0: 20 }, drop: [5, 8, 2] }));
    }
    return 0;
  } finally {
    await closeQuietly(client);
  }
}
