// Writes the wrapper table of docs/guard.md from src/guards/shell/wrappers.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { wrapperTableMarkdown } from '../src/guards/shell/wrappers';

const file = join(__dirname, '..', 'docs', 'guard.md');
const text = readFileSync(file, 'utf8');
const start = '<!-- wrappers:begin -->';
const end = '<!-- wrappers:end -->';
writeFileSync(file, text.slice(0, text.indexOf(start) + start.length) + '\n' + wrapperTableMarkdown() + '\n' + text.slice(text.indexOf(end)));
