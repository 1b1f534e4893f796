// loom recover [--project-dir D] [--json] [--acknowledge REASON]: a corrupt ledger database is set
// aside (renamed, never deleted) and a new one continues the chain from the
// old chain's last good head; the journal is folded into it and a recovery
// record names what happened (src/ledger/recover.ts, docs/ledger.md).
import { acknowledgeGaps, recoverLedger } from '../../ledger/recover';
import { actorOf } from '../../runner/actor';
import { parseFlags, projectDirFrom } from '../flags';

export function recoverCommand(argv: string[]): number {
  const flags = parseFlags(argv, { values: ['project-dir', 'acknowledge'], booleans: ['json'] });
  if (flags.values.acknowledge !== undefined) {
    // The owner accepts the unreadable gaps: a record on the chain says so (verify then exits 0, gaps still listed).
    const projectDir = projectDirFrom(flags);
    const a = acknowledgeGaps(projectDir, flags.values.acknowledge, { ...actorOf(projectDir, {}), via: 'loom recover --acknowledge' });
    if (flags.booleans.has('json')) process.stdout.write(JSON.stringify(a, null, 2) + '\n');
    else process.stdout.write(`acknowledged: ${a.gaps.map((g) => (g[0] === g[1] ? `seq ${g[0]}` : `seq ${g[0]}..${g[1]}`)).join(', ')} (kept in ${a.setAside.join(', ')}); acknowledgment record: seq ${a.seq}\n`);
    return 0;
  }
  const r = recoverLedger(projectDirFrom(flags));
  if (flags.booleans.has('json')) {
    process.stdout.write(JSON.stringify(r, null, 2) + '\n');
    return 0;
  }
  for (const w of r.warnings) process.stderr.write(`loom recover: warning: ${w}\n`);
  const a = r.anchor;
  const start = r.salvaged ? `records 1..${r.salvaged} of the old file read back as an unbroken chain and were copied (nothing lost); the rest come from the journal` : a.seq ? `the new database continues from seq ${a.seq} (hash ${a.hash.slice(0, 12)}…, from the ${a.source}${a.checkedAgainst.length ? `, matching the ${a.checkedAgainst.join(' and the ')}` : ''}); records 1..${a.seq} stay in the file set aside` : 'the new database starts from genesis';
  process.stdout.write(
    [
      `recovered: ${r.reason}`,
      `set aside: ${r.setAside.join(', ')}`,
      start,
      `journal records folded: ${r.refolded}; recovery record: seq ${r.recoverySeq}`,
      'run loom verify: it reports the chain with this recovery named',
    ].join('\n') + '\n',
  );
  return 0;
}
