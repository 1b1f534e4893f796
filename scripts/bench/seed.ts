// Fills a ledger with realistic records quickly (one transaction, node:crypto hashing).
import { bulkHasher } from '../../src/ledger/chain';
import { syncHistory } from '../../src/ledger/history-view';
import { buildRecord, Ledger } from '../../src/ledger/store';

export function seedLedger(project: string, n: number, varied = false): void {
  const ledger = Ledger.openForAppend(project);
  const db = ledger.handle;
  const insert = db.prepare('INSERT INTO records (seq, body, hash) VALUES (?,?,?)');
  let prev = '0'.repeat(64);
  const hasher = bulkHasher();
  const t0 = Date.now();
  db.exec('BEGIN');
  for (let seq = 1; seq <= n; seq++) {
    const deny = varied && seq % 97 === 0;
    const r = buildRecord(
      deny
        ? { event: 'PreToolUse', hook_id: 'pre-tool-guard', harness: 'claude', session_id: `s${seq % 50}`, risk: 'critical', decision: 'deny', status: 'ok', kind: 'tool_call', data: { tool: 'Bash', input_summary: `rm -rf /tmp/../${seq % 7}`, rules: [{ rule: 'rm-recursive-root', action: 'deny', segment: 'rm -rf /' }], hook: { reason: 'rm-recursive-root: recursively deletes the root filesystem' } } }
        : { event: 'PreToolUse', hook_id: 'pre-tool-guard', harness: 'claude', session_id: `s${seq % 50}`, risk: 'low', decision: 'allow', status: 'ok', kind: 'tool_call', data: { tool: 'Bash', input_summary: `npm test -- --grep case-${seq}`, rules: [] } },
      seq,
      prev,
      new Date(t0 + seq).toISOString(),
      undefined,
      undefined,
      hasher,
    );
    insert.run(r.seq, r.body, r.hash);
    prev = r.hash;
  }
  db.exec('COMMIT');
  ledger.withWriteLock(() => syncHistory(ledger));
  ledger.close();
}

