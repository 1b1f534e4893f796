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
  // Honest baselines (issue 17 §1): NODE_EXTRA_CA_CERTS adds ~40 ms to every Node start on
  // machines that set it (the baseline's too, which flatters every ratio), and a user's
  // laptop does not set it; NODE_OPTIONS may preload anything. Every ratio is measured
  // with both removed from both sides; the start-up sections are measured again with the
  // environment as it is, when it had either, and printed beside them.
  const asIs = { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS, NODE_OPTIONS: process.env.NODE_OPTIONS };
  const hadEnv = Object.values(asIs).some((v) => v !== undefined && v !== '');
  delete process.env.NODE_EXTRA_CA_CERTS;
  delete process.env.NODE_OPTIONS;
  const header = `environment: NODE_EXTRA_CA_CERTS and NODE_OPTIONS removed from both sides${hadEnv ? ` (this machine sets ${Object.entries(asIs).filter(([, v]) => v).map(([k]) => k).join(', ')})` : ''}`;
  out.push('', header);
  console.log(header);
  for (const s of sections) {
    if (only.length && !only.includes(s.name)) continue;
    const lines = await s.run();
    out.push('', ...lines);
    console.log(['', ...lines].join('\n'));
    if (hadEnv && (s.name === 'runner' || s.name === 'ledger')) {
      for (const [k, v] of Object.entries(asIs)) if (v !== undefined) process.env[k] = v;
      const again = (await s.run()).map((l, i) => (i === 0 ? `${l} (environment as it is: NODE_EXTRA_CA_CERTS/NODE_OPTIONS kept on both sides)` : l));
      delete process.env.NODE_EXTRA_CA_CERTS;
      delete process.env.NODE_OPTIONS;
      out.push('', ...again);
      console.log(['', ...again].join('\n'));
    }
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
