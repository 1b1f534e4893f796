// loom verify [--project-dir D] [--json]: exit 0 intact, 1 tampered, 2 cannot verify.
import { verifyLedger, type VerifyResult } from '../../ledger/verify';
import { BundleError, verifyBundle, type BundleVerdict } from '../../report/bundle';
import { foldQuietly } from '../../ledger/fold';
import { parseFlags, projectDirFrom } from '../flags';
import { progressBar, tone } from '../output';
import { verifyTeamCommand } from './team-verify';

export function verifyCommand(argv: string[]): number | Promise<number> {
  if (argv.includes('--team')) return verifyTeamCommand(argv);
  const flags = parseFlags(argv, { values: ['project-dir', 'bundle'], booleans: ['json'] });
  let r: VerifyResult | BundleVerdict;
  if (flags.values.bundle !== undefined) {
    try {
      r = verifyBundle(flags.values.bundle);
    } catch (e) {
      if (!(e instanceof BundleError)) throw e;
      process.stderr.write(`loom verify: cannot verify: ${e.message}\n`);
      return 2;
    }
    const claim = (r as BundleVerdict).claimMismatch;
    if (claim) r = { ...r, status: 'tampered', exitCode: 1, problem: { seq: r.head?.seq ?? 0, kind: 'edited', detail: claim } };
  } else {
    const projectDir = projectDirFrom(flags);
    foldQuietly(projectDir);
    r = verifyLedger(projectDir, { onProgress: flags.booleans.has('json') ? undefined : progressBar('verifying') });
  }
  if (flags.booleans.has('json')) {
    process.stdout.write(JSON.stringify(r, null, 2) + '\n');
    return r.exitCode;
  }
  for (const w of r.warnings) process.stderr.write(`loom verify: warning: ${w}\n`);
  const recoveredLines = (x: NonNullable<VerifyResult['recovered']>[number]): string =>
    `recovered at seq ${x.seq}: ${x.gaps?.length ? `${x.salvaged} records of the old chain were copied from the corrupt file and its history view, set aside as ${x.setAside}; unreadable: ${x.gaps.map((g) => `seq ${g[0]}..${g[1]}`).join(', ')}` : x.salvaged ? `records 1..${x.salvaged} were copied from the corrupt file, set aside as ${x.setAside}` : `continues the old chain from seq ${x.anchor.seq} (${x.anchor.hash.slice(0, 12)}…); records before seq ${x.firstSeq} are in the corrupt file set aside as ${x.setAside}`}\n`;
  if ('problem' in r && r.problem?.kind === 'recovered-with-gaps') {
    // Exit 1: the chain that is here holds, but records of it are only in the file set aside.
    process.stdout.write(`recovered-with-gaps: ${r.problem.detail}\n`);
    for (const x of (r as VerifyResult).recovered ?? []) process.stdout.write(recoveredLines(x));
  } else if (r.status === 'intact' && 'acknowledged' in r && r.acknowledged) {
    // Exit 0: the owner accepted the gaps in a record on the chain; they are still listed.
    const a = r.acknowledged;
    process.stdout.write(`recovered-with-gaps (acknowledged seq ${a.seq} by ${a.by}: ${a.reason}): ${a.detail}\n`);
    for (const x of r.recovered ?? []) process.stdout.write(recoveredLines(x));
  } else if (r.status === 'intact') {
    const head = r.head ? `head seq ${r.head.seq} ${r.head.hash}` : 'empty ledger';
    process.stdout.write(`${tone('intact')}: ${r.records} records, chain ${r.chain}, ${head}, ${r.checkpoints.count} checkpoints (latest seq ${r.checkpoints.latestSeq ?? 'none'})\n`);
    // A recovery is said, never silent: where the new database continues the old chain, and where the old file is.
    for (const x of r.recovered ?? []) process.stdout.write(recoveredLines(x));
    // So is an erasure: which records had values blanked, by which erasure record (its reason is in that record).
    if (r.erased.length) {
      const shown = r.erased.slice(0, 20).map((e) => `seq ${e.seq} (${e.paths.join(', ') || 'values'}; by seq ${e.by})`).join(', ');
      process.stdout.write(`erased: ${r.erased.length} record${r.erased.length === 1 ? '' : 's'} had values erased, each vouched for by a later erasure record: ${shown}${r.erased.length > 20 ? `, and ${r.erased.length - 20} more (loom verify --json lists them)` : ''}
`);
    }
  } else if (r.status === 'tampered') {
    process.stdout.write(`${tone('TAMPERED')} at seq ${r.problem!.seq}: ${r.problem!.kind}: ${r.problem!.detail}\n`);
  } else {
    process.stderr.write(`loom verify: cannot verify: ${r.error}\n`);
  }
  return r.exitCode;
}
