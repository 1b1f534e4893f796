// What the append witness adds to one append, measured in-process (a loaded
// machine's process start-up noise is ±100 ms; this is what the hook does on
// top of the journal append): finding the witness file (real path of the
// project, SHA-256 of it), then open(O_APPEND), write, close. Interleaved with
// the journal append itself so a reader sees the two side by side.
// usage: npx tsx scripts/bench/witness.ts
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { externalCheckpointFile, witnessAppend } from '../../src/ledger/checkpoints';
import { appendJournal } from '../../src/ledger/journal';
import { benchProject, median, percentile } from './measure';

const rounds = Number(process.env.LOOM_BENCH_ROUNDS ?? 2000);
const env = { ...process.env, LOOM_CHECKPOINT_DIR: mkdtempSync(join(tmpdir(), 'loom-witness-bench-')) };
const project = benchProject();
const draft = { event: 'PostToolUse', hook_id: 'bench', harness: 'claude', session_id: 's', risk: 'none' as const, decision: 'allow', status: 'ok', kind: 'tool_use', data: { command: 'npm test' }, redactions: 0 };
const find: number[] = [];
const write: number[] = [];
const journal: number[] = [];
const hash = 'a'.repeat(64);
for (let i = 0; i < rounds; i++) {
  let t = process.hrtime.bigint();
  // Uncached, as in a hook process (which finds it once).
  externalCheckpointFile(project, env);
  find.push(Number(process.hrtime.bigint() - t) / 1000);
  t = process.hrtime.bigint();
  witnessAppend(project, i + 1, hash, env);
  write.push(Number(process.hrtime.bigint() - t) / 1000);
  if (i % 10 === 0) {
    t = process.hrtime.bigint();
    appendJournal(project, [draft], undefined);
    journal.push(Number(process.hrtime.bigint() - t) / 1000);
  }
}
const line = (name: string, xs: number[]) => `${name}: median ${median(xs).toFixed(1)} µs, p90 ${percentile(xs, 90).toFixed(1)} µs (n=${xs.length})`;
console.log(line('finding the witness file (realpath + SHA-256 of the path)', find));
console.log(line('open(O_APPEND) + write + close of one witness line', write));
console.log(line('the whole journal append (lock, write, fdatasync; witness included)', journal));
console.log(`witness cost per hook: about ${(median(find) + median(write)).toFixed(1)} µs`);
