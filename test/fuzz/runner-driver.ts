// In-process fuzz of the runner: many cases through runInvocation in one
// process (the handlers and the ledger are the real ones). Prints one JSON
// line of counts. Usage: tsx test/fuzz/runner-driver.ts <seed> <count> <folder>
// Records spread over 50 projects under <folder> (each ledger stays small, so
// the run measures the runner rather than history.json rewrites).
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runInvocation } from '../../src/runner/main';
import { answerProblems, fuzzCase } from './payloads';

async function main(): Promise<void> {
  const [seed, count, project] = [Number(process.argv[2]), Number(process.argv[3]), process.argv[4]];
  const hooksDir = join(resolve(__dirname, '..', '..'), 'hooks');
  const counts = { cases: 0, dangerous: 0, blocked: 0, problems: 0, byExit: {} as Record<string, number> };
  const failures: string[] = [];
  for (let i = 0; i < count; i++) {
    const c = fuzzCase(seed, i);
    // Half the cases name the project; the others leave it to the payload's (hostile) cwd and the process cwd.
    const dir = join(project, `p${i % 50}`);
    if (i < 50) mkdirSync(dir, { recursive: true });
    const argv = ['--event', c.event, '--harness', i % 3 === 0 ? c.harness : 'auto', ...(i % 2 === 0 ? ['--project-dir', dir] : [])];
    const a = await runInvocation(argv, { hooksDir }, Buffer.from(c.body));
    counts.cases++;
    counts.byExit[a.exitCode] = (counts.byExit[a.exitCode] ?? 0) + 1;
    if (c.dangerous) counts.dangerous++;
    const p = answerProblems(c, a);
    if (c.dangerous && !p.includes('dangerous call not blocked')) counts.blocked++;
    if (p.length) {
      counts.problems++;
      if (failures.length < 20) failures.push(`seed ${seed} case ${i} (${c.family}, ${c.harness}, ${c.event}): ${p.join(', ')}; exit ${a.exitCode}; stderr ${JSON.stringify(a.stderr.slice(0, 300))}; body ${JSON.stringify(c.body.slice(0, 200))}`);
    }
  }
  process.stderr.write(JSON.stringify({ counts, failures }) + '\n');
}

main().then(
  () => process.exitCode = 0,
  (e) => {
    process.stderr.write(`driver crashed: ${(e as Error).stack}\n`);
    process.exitCode = 3;
  },
);
