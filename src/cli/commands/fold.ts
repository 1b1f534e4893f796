// loom fold [--project-dir D] [--quiet]: copies the journal into the SQLite
// ledger and brings history.json up to date. Hooks start it detached every
// LOOM_FOLD_EVERY records; readers fold on their own before reading.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { LedgerError } from '../../ledger/errors';
import { foldJournal } from '../../ledger/fold';
import { compliancePaths } from '../../ledger/paths';
import { parseFlags, projectDirFrom } from '../flags';

export function foldCommand(argv: string[]): number {
  const flags = parseFlags(argv, { values: ['project-dir'], booleans: ['quiet'] });
  // A folder with no ledger has nothing to fold: said (exit 2, as history and export do), not "folded 0 records".
  const dir = compliancePaths(resolve(projectDirFrom(flags))).dir;
  if (!existsSync(dir)) throw new LedgerError(`${dir}: no ledger here (nothing to fold)`, 'missing');
  const r = foldJournal(projectDirFrom(flags));
  const quiet = flags.booleans.has('quiet');
  for (const p of [...r.problems, ...r.warnings]) if (!quiet) process.stderr.write(`loom fold: warning: ${p}\n`);
  if (!quiet) process.stdout.write(`folded ${r.folded} records; ledger head seq ${r.head?.seq ?? 0}\n`);
  return r.problems.length ? 1 : 0;
}
