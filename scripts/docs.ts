// Regenerates the contract table of docs/harnesses.md from src/contract/events.ts, the
// rule-family tables of docs/guard.md from src/guards/shell/tables, and the
// detector tables of docs/redaction.md from src/ledger/redaction/.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { replaceTable } from '../src/contract/docs';
import { replaceGuardTables } from '../src/guards/shell/tables/docs';
import { replaceRedactionTables } from '../src/ledger/redaction/docs';

const file = join(__dirname, '..', 'docs', 'harnesses.md');
writeFileSync(file, replaceTable(readFileSync(file, 'utf8')));
console.log('docs/harnesses.md contract table regenerated');
const guard = join(__dirname, '..', 'docs', 'guard.md');
writeFileSync(guard, replaceGuardTables(readFileSync(guard, 'utf8')));
console.log('docs/guard.md family tables regenerated');
const redactionDoc = join(__dirname, '..', 'docs', 'redaction.md');
writeFileSync(redactionDoc, replaceRedactionTables(readFileSync(redactionDoc, 'utf8')));
console.log('docs/redaction.md tables regenerated');
