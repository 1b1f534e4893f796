// loom checkpoint: append the current head to every checkpoint location.
import { loadChainKey } from '../../ledger/chain';
import { writeCheckpoint } from '../../ledger/checkpoints';
import { ledgerIdentityOf, sourceOf } from '../../ledger/ledger-identity';
import { Ledger } from '../../ledger/store';
import { foldQuietly } from '../../ledger/fold';
import { parseFlags, projectDirFrom } from '../flags';

export function checkpointCommand(argv: string[]): number {
  const flags = parseFlags(argv, { values: ['project-dir'], booleans: ['json'] });
  const projectDir = projectDirFrom(flags);
  foldQuietly(projectDir);
  const key = loadChainKey(projectDir);
  const ledger = Ledger.openReadOnly(projectDir);
  try {
    const head = ledger.head();
    const problems = writeCheckpoint(ledger.paths.checkpoints, projectDir, head, 'manual', ledger.meta().chain === 'hmac-sha256' ? key : undefined, process.env, ledgerIdentityOf(projectDir, undefined, () => sourceOf(ledger)));
    if (flags.booleans.has('json')) process.stdout.write(JSON.stringify({ head, problems }) + '\n');
    else process.stdout.write(`checkpoint: seq ${head.seq} ${head.hash} (${head.count} records)\n`);
    for (const p of problems) process.stderr.write(`loom checkpoint: ${p}\n`);
    return problems.length ? 1 : 0;
  } finally {
    ledger.close();
  }
}
