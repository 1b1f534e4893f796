// Where the ledger and its views live under a project.
import { join } from 'node:path';

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
