// loom report / loom evidence: one verified pass over the ledger, rendered
// as a self-contained HTML page or as Markdown for a pull request.
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { foldQuietly } from '../../ledger/fold';
import { LedgerError } from '../../ledger/errors';
import { classifySqliteError, probeSqlite } from '../../ledger/store';
import { compliancePaths } from '../../ledger/paths';
import { parseTimeRange } from '../../ledger/query';
import { readRecords, detail } from '../../ledger/reader';
import { collect, type Collected, type RawRow, type ReportFilter } from '../../report/collect';
import { buildBundle } from '../../report/bundle';
import { renderEvidence, type EvidenceScope } from '../../report/evidence';
import { branchSince } from '../git-base';
import { renderReport } from '../../report/html';
import { FlagError, parseFlags, projectDirFrom } from '../flags';
import { progressBar, tone } from '../output';
import { reportTeamCommand } from './team-views';
import { MkdirError, mkdirBounded } from '../../util/bounded-mkdir';
import { fileReason } from '../../util/file-reason';

const FAIL_ON = ['tampered', 'deny', 'high'] as const;

/**
 * --fail-on for CI: exit 1 when the ledger is tampered (always), or when a
 * denied action (deny) or a high or critical risk event (high) is in range.
 */
/** Writes an output file; a folder in the way, a missing permission or a full disk is one line naming the file. */
function writeOut(file: string, text: string, flag = '--out'): void {
  const dir = dirname(file);
  try {
    // An existing folder is used as it is (`--out /dev/full` is a full disk, not a folder loom may not create);
    // a folder that is not there is created, and the user is told where (finding A19).
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
      mkdirBounded(dir);
      process.stderr.write(`loom: created the folder ${dir} for ${flag}\n`);
    }
  } catch (e) {
    throw new FlagError(`${flag} ${file}: ${e instanceof MkdirError ? e.message : fileReason(e)}`);
  }
  try {
    writeFileSync(file, text);
  } catch (e) {
    throw new FlagError(`${flag} ${file}: ${fileReason(e)}`);
  }
}

function failOnList(v: Record<string, string>): string[] {
  const wanted = (v['fail-on'] ?? '').split(',').map((x) => x.trim()).filter(Boolean);
  for (const w of wanted) if (!(FAIL_ON as readonly string[]).includes(w)) throw new FlagError(`--fail-on "${w}": expected ${FAIL_ON.join(', ')} (comma-separated)`);
  return wanted;
}

function failOnExit(c: Collected, v: Record<string, string>): number {
  const wanted = failOnList(v);
  const reasons: string[] = [];
  if (c.verify.status === 'tampered') reasons.push('the ledger is tampered');
  if (wanted.includes('deny') && (c.byDecision.deny ?? 0) > 0) reasons.push(`${c.byDecision.deny} denied action(s)`);
  const high = (c.byRisk.high ?? 0) + (c.byRisk.critical ?? 0);
  if (wanted.includes('high') && high > 0) reasons.push(`${high} high or critical risk event(s)`);
  if (!reasons.length) return 0;
  process.stderr.write(`loom: failing: ${reasons.join('; ')}\n`);
  return 1;
}

/** A report of a folder with no ledger would be an empty page in a folder loom made up: say so instead (exit 2, as history does). */
function requireLedger(project: string): void {
  // Only when nothing of a ledger is there: a journal not yet folded, or a deleted database next to its checkpoints, still gets a report (and its verdict).
  const p = compliancePaths(project);
  if (!existsSync(p.dir)) throw new LedgerError(`${p.db}: no ledger database`, 'missing');
  // Without the SQLite addon every record is unreadable: a page of 0 records would read as a quiet week.
  try {
    probeSqlite();
  } catch (e) {
    throw classifySqliteError(e, p.db);
  }
}

function filterFrom(v: Record<string, string>): ReportFilter {
  return { ...parseTimeRange(v.since, v.until), session: v.session, user: v.user };
}

export function reportCommand(argv: string[]): number | Promise<number> {
  if (argv.includes('--team')) return reportTeamCommand(argv);
  const f = parseFlags(argv, { values: ['project-dir', 'since', 'until', 'session', 'user', 'out', 'fail-on'] });
  failOnList(f.values);
  const project = resolve(projectDirFrom(f));
  foldQuietly(project);
  requireLedger(project);
  const c = collect(project, filterFrom(f.values), progressBar('reading the ledger'));
  const out = resolve(f.values.out ?? join(project, '.loom', 'reports', 'compliance.html'));
  const filter = [f.values.since && `since ${f.values.since}`, f.values.until && `until ${f.values.until}`, f.values.session && `session ${f.values.session}`, f.values.user && `user ${f.values.user}`].filter(Boolean).join(', ') || 'all records';
  writeOut(out, renderReport(c, { project, generatedAt: new Date().toISOString(), filter }));
  process.stdout.write(`report: ${out} (${c.matched} record${c.matched === 1 ? '' : 's'}; ledger ${tone(c.verify.status)})\n`);
  return c.verify.exitCode === 2 && c.total === 0 ? 2 : failOnExit(c, f.values);
}

export function evidenceCommand(argv: string[]): number | Promise<number> {
  if (argv.includes('--team')) return evidenceTeamCommand(argv);
  const f = parseFlags(argv, { values: ['project-dir', 'spec', 'out', 'since', 'until', 'fail-on', 'base', 'bundle'] });
  failOnList(f.values);
  const project = resolve(projectDirFrom(f));
  foldQuietly(project);
  requireLedger(project);
  const filter = filterFrom(f.values);
  const scope: EvidenceScope = {};
  let spec = f.values.spec?.replace(/^specs[\\/]+/, '').replace(/[\\/]+$/, '');
  if (spec !== undefined && !existsSync(join(project, 'specs', spec))) throw new FlagError(`--spec ${f.values.spec}: no such folder under ${join(project, 'specs')}`);
  if (f.values.base !== undefined) {
    // The pull request's sessions: records made on this branch since it left its base.
    const b = branchSince(project, f.values.base);
    if (b.shallow) process.stderr.write(b.shallow + '\n');
    if (!filter.since || b.since > filter.since) filter.since = b.since;
    if (b.branch !== 'HEAD') {
      filter.branch = b.branch;
      // Records from before loom recorded each record's branch: their session's start says.
      const other = new Set<string>();
      for (const r of readRecords(project, { event: 'SessionStart' })) {
        const branch = detail(r).git_branch;
        if (typeof branch === 'string' && branch && branch !== b.branch && String(r.ts) >= b.since) other.add(String(r.session_id));
      }
      filter.excludeSessions = other;
    }
    scope.base = { branch: b.branch, base: b.baseRef, since: b.since, otherBranches: 0 };
  }
  const raw: RawRow[] | undefined = f.values.bundle !== undefined ? [] : undefined;
  let c = collect(project, filter, { onProgress: progressBar('reading the ledger'), raw });
  if (spec) {
    // Sessions that wrote handoffs for this spec.
    const handoffs = [...readRecords(project, { event: 'PreCompact' }), ...readRecords(project, { event: 'PostCompact' })];
    const sessions = new Set(handoffs.filter((r) => r.kind === 'compaction' && detail(r).spec === spec).map((r) => r.session_id));
    if (sessions.size) {
      raw?.splice(0);
      c = collect(project, { ...filter, sessions }, { raw });
    } else spec = `${spec} (no handoffs on record; showing every session)`;
  }
  scope.spec = spec;
  if (scope.base) scope.base.otherBranches = c.otherBranchSessions.size;
  const text = renderEvidence(c, project, scope);
  if (f.values.out) {
    writeOut(resolve(f.values.out), text);
    process.stdout.write(`evidence: ${resolve(f.values.out)}\n`);
  } else process.stdout.write(text);
  // A bundle says "re-verify me anywhere": from a ledger that does not verify, its records would stop before the
  // break and its checkpoints with them, and the copy would verify intact. None is written; the evidence says why.
  if (raw && f.values.bundle !== undefined && c.verify.exitCode !== 0) {
    const where = c.verify.problem ? `${c.verify.problem.kind} at seq ${c.verify.problem.seq}` : c.verify.status;
    process.stderr.write(`loom evidence: --bundle ${resolve(f.values.bundle)}: not written: the ledger does not verify (${where}); a bundle would leave out what follows the break\n`);
    return c.verify.exitCode === 1 ? 1 : 2;
  }
  if (raw && f.values.bundle !== undefined) {
    const file = resolve(f.values.bundle);
    writeOut(file, JSON.stringify(buildBundle(project, c.verify, raw, text)) + '\n', '--bundle');
    process.stderr.write(`evidence bundle: ${file} (${raw.length} records; re-verify anywhere with: loom verify --bundle ${JSON.stringify(file)})\n`);
  }
  return failOnExit(c, f.values);
}

// loom evidence --team --repo R [--branch B] [--since T] [--until T] [--out F]
async function evidenceTeamCommand(argv: string[]): Promise<number> {
  const f = parseFlags(argv, { values: ['project-dir', 'team-url', 'repo', 'branch', 'since', 'until', 'out'], booleans: ['team'] });
  if (!f.values.repo) throw new FlagError('--team needs --repo R (the normalized remote, as `loom report --team` lists it)');
  const { teamConfigFrom } = await import('./team');
  const { connect, closeQuietly, classifyPgError } = await import('../../team/pg');
  const { redactUrl } = await import('../../team/config');
  const { teamEvidence } = await import('../../team/evidence');
  const cfg = teamConfigFrom(f);
  const filter = filterFrom(f.values);
  const client = await connect(cfg, 'loom evidence --team');
  try {
    const e = await teamEvidence(client, { repo: f.values.repo, branch: f.values.branch, since: filter.since, until: filter.until }, redactUrl(cfg.url)).catch((err) => {
      throw classifyPgError(err, cfg);
    });
    if (f.values.out) {
      writeOut(resolve(f.values.out), e.text);
      process.stdout.write(`evidence: ${resolve(f.values.out)}\n`);
    } else process.stdout.write(e.text);
    return e.intact ? 0 : 1;
  } finally {
    await closeQuietly(client);
  }
}
