// loom history [filters] [--json|--jsonl]; loom history rebuild.
import { RECORD_DECISIONS, RISKS, type Risk } from '../../contract/types';
import { rebuildHistory } from '../../ledger/history-view';
import { foldQuietly } from '../../ledger/fold';
import { queryLive } from '../../ledger/live';
import { parseTimeRange, QueryError, type HistoryFilter } from '../../ledger/query';
import { Ledger } from '../../ledger/store';
import { FlagError, parseFlags, projectDirFrom } from '../flags';
import { table } from '../output';
import { historyTeamCommand } from './team-views';

function summary(rec: Record<string, unknown>): string {
  const obj = rec[rec.kind as string] as Record<string, unknown> | undefined;
  if (!obj) return '';
  for (const k of ['input_summary', 'command', 'summary', 'reason', 'message', 'path', 'text', 'prompt', 'tool']) {
    const v = obj[k];
    if (typeof v === 'string' && v) return v;
  }
  const hook = obj.hook as Record<string, unknown> | undefined;
  return typeof hook?.message === 'string' ? hook.message : '';
}

/** Who acted, in one cell: the harness's user id, else the git email, else the OS user. */
export function actorLabel(rec: Record<string, unknown>): string {
  const a = (rec[rec.kind as string] as Record<string, unknown> | undefined)?.actor as Record<string, unknown> | undefined;
  const v = a?.client_user ?? a?.email ?? a?.user;
  return typeof v === 'string' ? v : '';
}

function actorField(rec: Record<string, unknown>, field: string): string {
  const v = ((rec[rec.kind as string] as Record<string, unknown> | undefined)?.actor as Record<string, unknown> | undefined)?.[field];
  return typeof v === 'string' ? v : '';
}

export function historyCommand(argv: string[]): number | Promise<number> {
  if (argv.includes('--team')) return historyTeamCommand(argv);
  if (argv[0] === 'rebuild') {
    const flags = parseFlags(argv.slice(1), { values: ['project-dir'] });
    foldQuietly(projectDirFrom(flags));
    const ledger = Ledger.openForAppend(projectDirFrom(flags));
    try {
      const r = ledger.withWriteLock(() => rebuildHistory(ledger));
      process.stdout.write(`history rebuilt: ${r.records} records (${r.segments} archived segments) in ${ledger.paths.history}\n`);
      return 0;
    } finally {
      ledger.close();
    }
  }
  const flags = parseFlags(argv, { values: ['project-dir', 'event', 'session', 'risk', 'decision', 'hook', 'user', 'host', 'since', 'until', 'limit'], booleans: ['json', 'jsonl'], positionals: 'own' });
  const v = flags.values;
  if (flags.positional.length) throw new FlagError(`unexpected argument "${flags.positional[0]}" (did you mean: loom history rebuild?)`);
  const filter: HistoryFilter = { event: v.event, session: v.session, decision: v.decision, hook: v.hook, user: v.user, host: v.host };
  if (v.decision !== undefined && !RECORD_DECISIONS.includes(v.decision)) throw new QueryError(`--decision "${v.decision}": expected one of ${RECORD_DECISIONS.join(', ')}`);
  if (v.risk !== undefined) {
    if (!RISKS.includes(v.risk as Risk)) throw new QueryError(`--risk "${v.risk}": expected one of ${RISKS.join(', ')}`);
    filter.risk = v.risk as Risk;
  }
  const range = parseTimeRange(v.since, v.until);
  if (range.since) filter.since = range.since;
  if (range.until) filter.until = range.until;
  if (v.limit !== undefined) {
    if (!/^\d{1,9}$/.test(v.limit) || Number(v.limit) < 1) throw new QueryError(`--limit "${v.limit}": expected a positive integer`);
    filter.limit = Number(v.limit);
  }
  const projectDir = projectDirFrom(flags);
  // Folding first brings history.json up to date too; the live view below covers a journal that could not be folded.
  foldQuietly(projectDir);
  {
    const records = queryLive(projectDir, filter);
    if (flags.booleans.has('json')) process.stdout.write(JSON.stringify(records, null, 2) + '\n');
    else if (flags.booleans.has('jsonl')) process.stdout.write(records.map((r) => JSON.stringify(r)).join('\n') + (records.length ? '\n' : ''));
    else {
      const rows = records.map((r) => [String(r.seq), String(r.ts), String(r.event), String(r.hook_id), String(r.decision), String(r.risk), actorLabel(r), actorField(r, 'host'), String(r.session_id).slice(0, 12), summary(r)]);
      // On a narrow terminal the host, the hook, then the session, then the risk column give way (--json has every field).
      process.stdout.write(table(['seq', 'ts', 'event', 'hook', 'decision', 'risk', 'user', 'host', 'session', 'summary'], rows, undefined, undefined, { toned: [4, 5], minWidths: { 1: 20, 5: 8 }, drop: [7, 3, 8, 5] }));
    }
    return 0;
  }
}
