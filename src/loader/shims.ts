// The small committed files that start each bundle: hooks/run-hook.js for the
// runner and handlers/<name>.cjs per handler. They are generated (by
// scripts/build.ts) and committed, so the repository shows the runner and
// handlers it is made of; a test holds the committed copies to this text.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export function shimSource(bundle: string, name: string, distFromShim = '../dist'): string {
  return `'use strict';
// Built by scripts/build.ts: runs ${bundle} through V8's code cache (see docs/runner.md).
require('${distFromShim}/loader.js').loadBundle(require('node:path').join(__dirname, '${distFromShim}', '${bundle}'), module, '${name}');
`;
}

/** Every shim, by path relative to the package root: the runner's and one per src/handlers/*.ts. */
export function shimFiles(root: string): Map<string, string> {
  const out = new Map<string, string>([['hooks/run-hook.js', shimSource('runner.js', 'runner')]]);
  let entries: string[] = [];
  try {
    entries = readdirSync(join(root, 'src/handlers')).filter((f) => f.endsWith('.ts')).sort();
  } catch {
    entries = [];
  }
  for (const f of entries) {
    const name = f.replace(/\.ts$/, '');
    out.set(`handlers/${name}.cjs`, shimSource(`handlers/${name}.js`, `handler-${name}`));
  }
  return out;
}
