// Regenerates the contract table of docs/harnesses.md from src/contract/events.ts, the
// rule-family and wrapper tables of docs/guard.md from src/guards/shell/tables and
// src/guards/shell/wrappers.ts, and the detector tables of docs/redaction.md from
// src/ledger/redaction/.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { replaceTable } from '../src/contract/docs';
import { replaceGuardTables } from '../src/guards/shell/tables/docs';
import { replaceWrapperTable } from '../src/guards/shell/wrappers';
import { replaceRedactionTables } from '../src/ledger/redaction/docs';

const file = join(__dirname, '..', 'docs', 'harnesses.md');
writeFileSync(file, replaceTable(readFileSync(file, 'utf8')));
console.log('docs/harnesses.md contract table regenerated');
const guard = join(__dirname, '..', 'docs', 'guard.md');
writeFileSync(guard, replaceWrapperTable(replaceGuardTables(readFileSync(guard, 'utf8'))));
console.log('docs/guard.md family and wrapper tables regenerated');
const redactionDoc = join(__dirname, '..', 'docs', 'redaction.md');
writeFileSync(redactionDoc, replaceRedactionTables(readFileSync(redactionDoc, 'utf8')));
console.log('docs/redaction.md tables regenerated');
