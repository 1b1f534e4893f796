// Issue 17 §2: the journal append against the SQLite append it replaced (per
// call, same run, in-process, each with its own fsyncs), folding 100,000
// journal lines into SQLite, and verify throughput over the folded ledger.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { bulkHasher, GENESIS_HASH } from '../../src/ledger/chain';
import { foldJournal } from '../../src/ledger/fold';
import { syncHistory } from '../../src/ledger/history-view';
import { appendJournal, formatLine } from '../../src/ledger/journal';
import { buildRecord, Ledger } from '../../src/ledger/store';
import { verifyLedger } from '../../src/ledger/verify';
import { benchProject, median } from './measure';

const draft = (i: number) => ({ event: 'PreToolUse', hook_id: 'pre-tool-guard', harness: 'claude', session_id: 'bench', risk: 'low' as const, decision: 'allow', status: 'ok', kind: 'tool_call', data: { tool: 'Bash', input_summary: `npm test -- --grep case-${i}`, rules: [] } });

export async function benchJournal(): Promise<string[]> {
  const lines = ['## journal: the hook path without SQLite (issue 17 §2)'];
  // Per call, interleaved: what a hook did before (open SQLite, append, history.json, close) and does now.
  const sqliteProject = benchProject();
  const journalProject = benchProject();
  const before: number[] = [];
  const after: number[] = [];
  for (let i = 0; i < 200; i++) {
    let t = performance.now();
    const l = Ledger.openForAppend(sqliteProject);
    l.append([draft(i)]);
    l.withWriteLock(() => syncHistory(l));
    l.close();
    before.push(performance.now() - t);
    t = performance.now();
    appendJournal(journalProject, [draft(i)], undefined);
    after.push(performance.now() - t);
  }
  const b = median(before);
  const a = median(after);
  lines.push(`per call, median of 200 interleaved: SQLite append + history.json ${b.toFixed(2)} ms; journal append (lock, write, fdatasync) ${a.toFixed(2)} ms = ${(a / b).toFixed(3)} x`);

  // Folding 100,000 lines.
  const project = benchProject();
  const dir = join(project, '.loom', 'compliance');
  mkdirSync(dir, { recursive: true });
  const fd = openSync(join(dir, 'journal.log'), 'w');
  const hasher = bulkHasher();
  let prev = GENESIS_HASH;
  const t0 = Date.now();
  let chunk = '';
  for (let seq = 1; seq <= 100_000; seq++) {
    const r = buildRecord(draft(seq), seq, prev, new Date(t0 + seq).toISOString(), undefined, undefined, hasher);
    chunk += formatLine(r.seq, r.hash, r.body);
    prev = r.hash;
    if (chunk.length > 1 << 20) {
      writeSync(fd, chunk);
      chunk = '';
    }
  }
  writeSync(fd, chunk);
  closeSync(fd);
  let t = performance.now();
  const f = foldJournal(project, { skipHistory: true });
  const foldS = (performance.now() - t) / 1000;
  lines.push(`fold: ${f.folded.toLocaleString('en-US')} journal lines into SQLite in ${foldS.toFixed(2)} s (target < 2 s: ${foldS < 2 ? 'met' : 'NOT met'})`);
  t = performance.now();
  const l = Ledger.openForAppend(project);
  l.withWriteLock(() => syncHistory(l));
  l.close();
  lines.push(`history.json and 200 segments for those 100,000 records: ${((performance.now() - t) / 1000).toFixed(2)} s (once, at the first fold)`);
  t = performance.now();
  const v = verifyLedger(project);
  const vs = (performance.now() - t) / 1000;
  lines.push(`verify: ${v.records.toLocaleString('en-US')} records in ${vs.toFixed(2)} s = ${Math.round(v.records / vs).toLocaleString('en-US')} records/s (target >= 250,000: ${v.records / vs >= 250_000 ? 'met' : 'NOT met'}), status ${v.status}`);
  return lines;
}
