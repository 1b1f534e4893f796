// npm run bench: every number is a ratio against a baseline measured in the
// same run, interleaved, because machines here are shared and noisy.
// `npm run bench -- runner ledger` runs only the named sections.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './bench/measure';
import { sections } from './bench/sections';

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const out: string[] = [`# loom bench (${new Date().toISOString()}, node ${process.version})`];
  for (const s of sections) {
    if (only.length && !only.includes(s.name)) continue;
    const lines = await s.run();
    out.push('', ...lines);
    console.log(['', ...lines].join('\n'));
  }
  mkdirSync(join(ROOT, 'bench-results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench-results', 'latest.md'), out.join('\n') + '\n');
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
