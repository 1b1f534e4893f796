// Writes hooks/<id> and hooks/<id>.cmd for every hook of config/hooks.json
// and removes wrappers of hooks that no longer exist.
import { chmodSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadRegistry } from '../src/registry/load';
import { WRAPPER_MARK, wrapperFiles } from '../src/registry/wrappers';

const root = join(__dirname, '..');
const hooksDir = join(root, 'hooks');
const files = wrapperFiles(loadRegistry(join(root, 'config/hooks.json')));
for (const name of readdirSync(hooksDir)) {
  if (files.has(name) || name === 'run-hook.js') continue;
  const text = readFileSync(join(hooksDir, name), 'utf8');
  if (text.includes(WRAPPER_MARK)) unlinkSync(join(hooksDir, name));
}
for (const [name, text] of files) {
  writeFileSync(join(hooksDir, name), text);
  if (!name.endsWith('.cmd')) chmodSync(join(hooksDir, name), 0o755);
}
console.log(`wrote ${files.size} wrappers to hooks/`);
