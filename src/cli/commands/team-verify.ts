// loom verify --team [--ledger ID] [--json] [--team-url URL]: every ledger in
// the team store re-verified (chain, forks, gaps, alerts); progress on a TTY.
import { closeQuietly, connect, classifyPgError, TeamStoreError } from '../../team/pg';
import { verifyTeam } from '../../team/verify';
import { parseFlags } from '../flags';
import { progressBar, tone } from '../output';
import { teamConfigFrom } from './team';

export async function verifyTeamCommand(argv: string[]): Promise<number> {
  const f = parseFlags(argv, { values: ['project-dir', 'team-url', 'ledger'], booleans: ['json', 'team'] });
  const json = f.booleans.has('json');
  let client;
  try {
    const cfg = teamConfigFrom(f);
    client = await connect(cfg, 'loom verify --team');
    const r = await verifyTeam(client, { ledger: f.values.ledger, onProgress: json ? undefined : progressBar('verifying the team store') }).catch((e) => {
      throw classifyPgError(e, cfg);
    });
    if (json) {
      process.stdout.write(JSON.stringify(r, null, 2) + '\n');
      return r.exitCode;
    }
    for (const w of r.warnings) process.stderr.write(`loom verify --team: warning: ${w}\n`);
    for (const l of r.ledgers) {
      const where = [l.project, l.repo].filter(Boolean).join(', ');
      if (!l.problems.length) {
        process.stdout.write(`${tone('ok')}       ledger ${l.ledgerId}${where ? ` (${where})` : ''}: ${l.records} records, head seq ${l.headSeq}\n`);
        continue;
      }
      process.stdout.write(`${tone('PROBLEM')}  ledger ${l.ledgerId}${where ? ` (${where})` : ''}: ${l.records} records, head seq ${l.headSeq}\n`);
      for (const p of l.problems) process.stdout.write(`  ${p.kind.toUpperCase()} at seq ${p.seq}: ${p.detail}\n`);
    }
    const rate = r.seconds > 0 ? Math.round(r.records / r.seconds) : r.records;
    process.stdout.write(`${tone(r.status === 'intact' ? 'intact' : 'PROBLEMS')}: ${r.ledgers.length} ledgers, ${r.records} records in ${r.seconds.toFixed(2)} s (${rate.toLocaleString('en-US')} records/s)\n`);
    return r.exitCode;
  } catch (e) {
    if (e instanceof TeamStoreError) {
      process.stderr.write(`loom verify --team: cannot verify: ${e.message}\n`);
      return 2;
    }
    throw e;
  } finally {
    await closeQuietly(client);
  }
}
