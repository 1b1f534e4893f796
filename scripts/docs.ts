// Regenerates the README's contract table from src/contract/events.ts and
// the rule-family tables of docs/guard.md from src/guards/shell/tables.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { replaceTable } from '../src/contract/docs';
import { replaceGuardTables } from '../src/guards/shell/tables/docs';

const file = join(__dirname, '..', 'README.md');
writeFileSync(file, replaceTable(readFileSync(file, 'utf8')));
console.log('README.md contract table regenerated');
const guard = join(__dirname, '..', 'docs', 'guard.md');
writeFileSync(guard, replaceGuardTables(readFileSync(guard, 'utf8')));
console.log('docs/guard.md family tables regenerated');
