// loom fold [--project-dir D] [--quiet]: copies the journal into the SQLite
// ledger and brings history.json up to date. Hooks start it detached every
// LOOM_FOLD_EVERY records; readers fold on their own before reading.
import { foldJournal } from '../../ledger/fold';
import { parseFlags, projectDirFrom } from '../flags';

export function foldCommand(argv: string[]): number {
  const flags = parseFlags(argv, { values: ['project-dir'], booleans: ['quiet'] });
  const r = foldJournal(projectDirFrom(flags));
  const quiet = flags.booleans.has('quiet');
  for (const p of [...r.problems, ...r.warnings]) if (!quiet) process.stderr.write(`loom fold: warning: ${p}\n`);
  if (!quiet) process.stdout.write(`folded ${r.folded} records; ledger head seq ${r.head?.seq ?? 0}\n`);
  return r.problems.length ? 1 : 0;
}
