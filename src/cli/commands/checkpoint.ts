// loom checkpoint: append the current head to every checkpoint location.
// Exit 0 written everywhere; 1 a location could not be written; 2 the ledger
// cannot be read (no database, or a corrupt one: one line naming the file,
// `loom doctor` and `loom recover`, and the file marked so no fold writes it).
import { loadChainKey } from '../../ledger/chain';
import { writeCheckpoint } from '../../ledger/checkpoints';
import { corruptMessage, DatabaseCorruptError, isCorruptionCode, markCorrupt, refuseIfCorrupt } from '../../ledger/integrity';
import { ledgerIdentityOf, sourceOf } from '../../ledger/ledger-identity';
import { compliancePaths } from '../../ledger/paths';
import { classifySqliteError, Ledger } from '../../ledger/store';
import { foldQuietly } from '../../ledger/fold';
import { parseFlags, projectDirFrom } from '../flags';

export function checkpointCommand(argv: string[]): number {
  const flags = parseFlags(argv, { values: ['project-dir'], booleans: ['json'] });
  const projectDir = projectDirFrom(flags);
  const paths = compliancePaths(projectDir);
  foldQuietly(projectDir);
  // A database known to be corrupt: its head cannot be vouched for, so no checkpoint names it.
  refuseIfCorrupt(paths);
  const key = loadChainKey(projectDir);
  let ledger: Ledger | undefined;
  try {
    ledger = Ledger.openReadOnly(projectDir);
    const l = ledger;
    const head = l.head();
    const problems = writeCheckpoint(l.paths.checkpoints, projectDir, head, 'manual', l.meta().chain === 'hmac-sha256' ? key : undefined, process.env, ledgerIdentityOf(projectDir, undefined, () => sourceOf(l)));
    if (flags.booleans.has('json')) process.stdout.write(JSON.stringify({ head, problems }) + '\n');
    else process.stdout.write(`checkpoint: seq ${head.seq} ${head.hash} (${head.count} records)\n`);
    for (const p of problems) process.stderr.write(`loom checkpoint: ${p}\n`);
    return problems.length ? 1 : 0;
  } catch (e) {
    // SQLite found damage reading the head: marked (folds stop writing it) and said in one line.
    if (e instanceof DatabaseCorruptError) throw new DatabaseCorruptError(corruptMessage(paths, markCorrupt(paths, e.detail, 'checkpoint')), e.detail);
    if (isCorruptionCode(e)) throw new DatabaseCorruptError(corruptMessage(paths, markCorrupt(paths, (e as Error).message, 'checkpoint')), (e as Error).message);
    const code = (e as { code?: unknown })?.code;
    if (typeof code === 'string' && code.startsWith('SQLITE_')) throw classifySqliteError(e, paths.db);
    throw e;
  } finally {
    ledger?.close();
  }
}
