// loom verify --team: re-verifies every ledger in the store from its bodies:
// each hash recomputed, each record linked to the one before, seqs without
// holes or repeats; plus the alerts the shippers recorded (forks refused,
// gaps, rollbacks). Exit 0 intact, 1 a problem named, 2 cannot verify.
import { bulkHasher, GENESIS_HASH, loadChainKey, type ChainKey } from '../ledger/chain';
import type { PgClient } from './pg';

export const PAGE = 20_000;
const MAX_PROBLEMS = 20;

export interface TeamProblem {
  kind: 'gap' | 'fork' | 'edited' | 'duplicate' | 'alert';
  seq: number;
  detail: string;
}

export interface LedgerVerdict {
  ledgerId: string;
  project: string | null;
  repo: string | null;
  chain: string;
  records: number;
  headSeq: number;
  hashesChecked: boolean;
  problems: TeamProblem[];
}

export interface TeamVerifyResult {
  status: 'intact' | 'problems' | 'cannot-verify';
  exitCode: 0 | 1 | 2;
  records: number;
  ledgers: LedgerVerdict[];
  seconds: number;
  warnings: string[];
}

export interface TeamVerifyOptions {
  ledger?: string;
  env?: NodeJS.ProcessEnv;
  onProgress?: (done: number, total: number) => void;
}

interface LedgerRow {
  ledger_id: string;
  chain: string;
  key_id: string | null;
  project: string | null;
  repo: string | null;
}

export async function verifyTeam(client: PgClient, opts: TeamVerifyOptions = {}): Promise<TeamVerifyResult> {
  const t0 = performance.now();
  const env = opts.env ?? process.env;
  const result: TeamVerifyResult = { status: 'intact', exitCode: 0, records: 0, ledgers: [], seconds: 0, warnings: [] };
  let key: ChainKey | undefined;
  try {
    key = loadChainKey(process.cwd(), env);
  } catch (e) {
    result.warnings.push((e as Error).message);
  }
  const where = opts.ledger ? 'WHERE l.ledger_id = $1' : '';
  const params = opts.ledger ? [opts.ledger] : [];
  // One snapshot for everything below: the count, the alerts and the records agree with each other.
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    const ledgers = (await client.query<LedgerRow>(`SELECT l.ledger_id, l.chain, l.key_id, l.project, l.repo FROM loom.ledgers l ${where} ORDER BY l.first_seen, l.ledger_id`, params)).rows;
    const total = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM loom.chain l ${where}`, params)).rows[0].n);
    const alerts = (await client.query<{ ledger_id: string; kind: string; seq: string; detail: string; detected_at: Date }>(`SELECT l.ledger_id, l.kind, l.seq, l.detail, l.detected_at FROM loom.alerts l ${where} ORDER BY l.id`, params)).rows;
    let done = 0;
    let lastTick = 0;
    const tick = () => {
      if (opts.onProgress && (done - lastTick >= total / 100 || done === total)) {
        lastTick = done;
        opts.onProgress(done, total);
      }
    };
    const plain = bulkHasher();
    interface Walk {
      v: LedgerVerdict;
      hasher: ((body: string) => string) | undefined;
      expected: number;
      prevHash: string;
    }
    const walks = new Map<string, Walk>();
    for (const l of ledgers) {
      const v: LedgerVerdict = { ledgerId: l.ledger_id, project: l.project, repo: l.repo, chain: l.chain, records: 0, headSeq: 0, hashesChecked: true, problems: [] };
      result.ledgers.push(v);
      for (const a of alerts) if (a.ledger_id === l.ledger_id && v.problems.length < MAX_PROBLEMS) v.problems.push({ kind: 'alert', seq: Number(a.seq), detail: `${a.kind} (recorded ${a.detected_at.toISOString()}): ${a.detail}` });
      let hasher: ((body: string) => string) | undefined = plain;
      if (l.chain === 'hmac-sha256') {
        if (key && (!l.key_id || l.key_id === key.id)) hasher = bulkHasher(key);
        else {
          hasher = undefined;
          v.hashesChecked = false;
          result.warnings.push(`ledger ${l.ledger_id} is keyed (HMAC key ${l.key_id ?? '?'}): links, seqs and forks checked, hashes not recomputed (set LOOM_LEDGER_KEY to that key)`);
        }
      }
      walks.set(l.ledger_id, { v, hasher, expected: 1, prevHash: GENESIS_HASH });
    }
    // Every record of every ledger in one ordered pass: a cursor over (ledger_id, seq), the index's order, read in
    // large batches, the next batch asked for before this one is checked (the server reads while we hash).
    await client.query({ text: `DECLARE loom_verify NO SCROLL CURSOR FOR SELECT l.ledger_id, l.seq, l.hash, l.body FROM loom.records l ${where} ORDER BY l.ledger_id, l.seq`, values: params });
    const fetch = () => client.query<unknown[]>({ text: `FETCH ${PAGE} FROM loom_verify`, rowMode: 'array' });
    let next = fetch();
    let id: string | undefined;
    let w: Walk | undefined;
    for (;;) {
      const rows = (await next).rows as [string, string, string, string][];
      if (rows.length === PAGE) next = fetch();
      for (const [ledgerId, seqText, hash, body] of rows) {
        if (ledgerId !== id) {
          id = ledgerId;
          w = walks.get(ledgerId);
        }
        // Records of a ledger the store has no row for are not loom's (a shipper writes the ledger row first).
        if (!w) continue;
        const v = w.v;
        const problem = (p: TeamProblem) => void (v.problems.length < MAX_PROBLEMS && v.problems.push(p));
        const seq = Number(seqText);
        if (seq < w.expected) {
          problem({ kind: 'duplicate', seq, detail: `two records stored at seq ${seq}` });
          continue;
        }
        if (seq > w.expected) {
          problem({ kind: 'gap', seq: w.expected, detail: `seq ${w.expected}${seq - 1 > w.expected ? `..${seq - 1}` : ''} missing from the store (next stored record is seq ${seq}): deleted locally before shipping` });
          w.prevHash = '';
        }
        let rec: { seq?: unknown; prev_hash?: unknown } | undefined;
        try {
          rec = JSON.parse(body);
        } catch {
          rec = undefined;
        }
        if (!rec || typeof rec !== 'object') problem({ kind: 'edited', seq, detail: 'the stored body is not a JSON object' });
        else if (w.hasher && w.hasher(body) !== hash) problem({ kind: 'edited', seq, detail: 'the body does not match its hash' });
        else if (rec.seq !== seq) problem({ kind: 'edited', seq, detail: `the body says seq ${String(rec.seq)}` });
        else if (w.prevHash && rec.prev_hash !== w.prevHash) problem({ kind: 'fork', seq, detail: `seq ${seq} does not link to seq ${seq - 1} as stored (prev_hash ${String(rec.prev_hash).slice(0, 12)}…, stored ${w.prevHash.slice(0, 12)}…): the chain was rebuilt after shipping` });
        w.prevHash = hash;
        w.expected = seq + 1;
        v.records++;
        v.headSeq = seq;
      }
      done += rows.length;
      tick();
      if (rows.length < PAGE) break;
    }
    await client.query('COMMIT');
    for (const v of result.ledgers) result.records += v.records;
    done = total;
    tick();
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
  if (result.ledgers.some((l) => l.problems.length)) {
    result.status = 'problems';
    result.exitCode = 1;
  }
  result.seconds = (performance.now() - t0) / 1000;
  return result;
}
