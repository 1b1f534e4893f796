// Issue 8: loom report and loom evidence over 1,000,000 records: wall time
// (target < 6 s since issue 17) and peak RSS (target < 300 MiB), process start included.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { benchProject, ROOT, sample } from './measure';
import { seedLedger } from './seed';

export async function benchReport(): Promise<string[]> {
  const project = benchProject();
  const t0 = Date.now();
  seedLedger(project, 1_000_000, true);
  const lines = ['## report and evidence over 1,000,000 records (issue 8)', `seeded 1,000,000 records in ${((Date.now() - t0) / 1000).toFixed(1)} s`];
  const cli = join(ROOT, 'bin', 'loom.js');
  for (const [name, args] of [
    ['loom report', ['report', '--project-dir', project]],
    ['loom evidence', ['evidence', '--project-dir', project, '--out', join(project, 'evidence.md')]],
  ] as const) {
    const s = sample(process.execPath, [cli, ...args], '');
    lines.push(`${name}: ${(s.wallMs / 1000).toFixed(2)} s (target < 6 s, issue 17: ${s.wallMs < 6_000 ? 'met' : 'NOT met'}), peak RSS ${(s.rssKb / 1024).toFixed(0)} MiB (target < 300 MiB: ${s.rssKb < 300 * 1024 ? 'met' : 'NOT met'})`);
  }
  execFileSync('rm', ['-rf', project]);
  return lines;
}
