// Regenerates the contract table in docs/harnesses.md from src/contract/events.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { replaceTable } from '../src/contract/docs';

const file = join(__dirname, '..', 'docs', 'harnesses.md');
writeFileSync(file, replaceTable(readFileSync(file, 'utf8')));
console.log('docs/harnesses.md contract table regenerated');
