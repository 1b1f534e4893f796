// loom report / loom evidence: one verified pass over the ledger, rendered
// as a self-contained HTML page or as Markdown for a pull request.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { foldQuietly } from '../../ledger/fold';
import { parseTimeBound } from '../../ledger/query';
import { readRecords, detail } from '../../ledger/reader';
import { collect, type ReportFilter } from '../../report/collect';
import { renderEvidence } from '../../report/evidence';
import { renderReport } from '../../report/html';
import { parseFlags, projectDirFrom } from '../flags';
import { progressBar } from '../output';
import { reportTeamCommand } from './team-views';

function filterFrom(v: Record<string, string>): ReportFilter {
  return { since: v.since ? parseTimeBound(v.since, '--since') : undefined, until: v.until ? parseTimeBound(v.until, '--until') : undefined, session: v.session };
}

export function reportCommand(argv: string[]): number | Promise<number> {
  if (argv.includes('--team')) return reportTeamCommand(argv);
  const f = parseFlags(argv, { values: ['project-dir', 'since', 'until', 'session', 'out'] });
  const project = resolve(projectDirFrom(f));
  foldQuietly(project);
  const c = collect(project, filterFrom(f.values), progressBar('reading the ledger'));
  const out = resolve(f.values.out ?? join(project, '.loom', 'reports', 'compliance.html'));
  mkdirSync(dirname(out), { recursive: true });
  const filter = [f.values.since && `since ${f.values.since}`, f.values.until && `until ${f.values.until}`, f.values.session && `session ${f.values.session}`].filter(Boolean).join(', ') || 'all records';
  writeFileSync(out, renderReport(c, { project, generatedAt: new Date().toISOString(), filter }));
  process.stdout.write(`report: ${out} (${c.matched} records; ledger ${c.verify.status})\n`);
  return c.verify.exitCode === 2 && c.total === 0 ? 2 : 0;
}

export function evidenceCommand(argv: string[]): number {
  const f = parseFlags(argv, { values: ['project-dir', 'spec', 'out', 'since', 'until'] });
  const project = resolve(projectDirFrom(f));
  foldQuietly(project);
  const filter = filterFrom(f.values);
  let spec = f.values.spec?.replace(/^specs[\\/]+/, '').replace(/[\\/]+$/, '');
  let c = collect(project, filter, progressBar('reading the ledger'));
  if (spec) {
    // Sessions that wrote handoffs for this spec.
    const handoffs = [...readRecords(project, { event: 'PreCompact' }), ...readRecords(project, { event: 'PostCompact' })];
    const sessions = new Set(handoffs.filter((r) => r.kind === 'compaction' && detail(r).spec === spec).map((r) => r.session_id));
    if (sessions.size) c = collect(project, { ...filter, sessions });
    else spec = `${spec} (no handoffs on record; showing every session)`;
  }
  const text = renderEvidence(c, project, spec);
  if (f.values.out) {
    mkdirSync(dirname(resolve(f.values.out)), { recursive: true });
    writeFileSync(resolve(f.values.out), text);
    process.stdout.write(`evidence: ${resolve(f.values.out)}\n`);
  } else process.stdout.write(text);
  return 0;
}
