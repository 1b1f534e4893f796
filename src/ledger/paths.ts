// Where the ledger and its views live under a project.
import { lstatSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import { LedgerError } from './errors';

export interface CompliancePaths {
  dir: string;
  db: string;
  history: string;
  historyArchive: string;
  historyIndex: string;
  checkpoints: string;
}

export function compliancePaths(projectDir: string): CompliancePaths {
  const dir = join(projectDir, '.loom', 'compliance');
  return {
    dir,
    db: join(dir, 'ledger.db'),
    history: join(dir, 'history.json'),
    historyArchive: join(dir, 'history'),
    historyIndex: join(dir, 'history', 'index.json'),
    checkpoints: join(dir, 'checkpoints.jsonl'),
  };
}

/**
 * Creates the ledger's folder, refusing one that a link puts outside the project: a repository can commit
 * `.loom/compliance -> /etc` (or `.loom -> ~/elsewhere`), and the hooks would then write the ledger where the
 * project does not own it, and let the repository choose where its evidence goes. Checked before the folders are made.
 */
export function ensureLedgerDir(projectDir: string, dir: string, mkdir: (d: string) => void): void {
  const outside = ledgerLinkedOutside(projectDir, dir);
  if (outside) throw new LedgerError(outside, 'io');
  mkdir(dir);
}

/** Why the ledger's folder (`.loom` or `.loom/compliance`, linked) is outside the project, or undefined when it is not. */
export function ledgerLinkedOutside(projectDir: string, dir = join(projectDir, '.loom', 'compliance')): string | undefined {
  let root: string | undefined;
  for (const p of [join(projectDir, '.loom'), dir]) {
    let link = false;
    try {
      link = lstatSync(p).isSymbolicLink();
    } catch {
      link = false;
    }
    if (!link) continue;
    root ??= realOr(projectDir);
    const target = realOr(p);
    if (target !== root && !target.startsWith(root.endsWith(sep) ? root : root + sep)) return `${p}: a link to ${target}, outside the project: the ledger is kept only inside the project (remove the link)`;
  }
  return undefined;
}

function realOr(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
}
