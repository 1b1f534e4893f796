// Regenerates the README's contract table from src/contract/events.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { replaceTable } from '../src/contract/docs';

const file = join(__dirname, '..', 'README.md');
writeFileSync(file, replaceTable(readFileSync(file, 'utf8')));
console.log('README.md contract table regenerated');

// docs/redaction.md: the detector tables of src/ledger/redaction/.
import { replaceRedactionTables } from '../src/ledger/redaction/docs';
const redactionDoc = join(__dirname, '..', 'docs', 'redaction.md');
writeFileSync(redactionDoc, replaceRedactionTables(readFileSync(redactionDoc, 'utf8')));
console.log('docs/redaction.md tables regenerated');
