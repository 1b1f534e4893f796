// An evidence bundle: everything a reviewer needs to re-verify evidence on
// another machine, in one JSON file. The chain rows from seq 1 (a chain only
// verifies from its genesis), the checkpoint lines of this ledger, the chain
// mode and key id, and the evidence text with the head it claims.
// `loom verify --bundle` lays the rows out as a journal in a temporary
// project and runs the ordinary verify on it, so a bundle is judged by
// exactly the same checks (and names the same kinds of tampering) as a ledger.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { NotRegularError, readRegularFile } from '../util/read-regular';
import { fileReason } from '../util/file-reason';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCheckpoints, externalCheckpointFile, type Checkpoint } from '../ledger/checkpoints';
import { chainMetaFile, formatLine, journalFile, readChainMeta, type ChainMeta } from '../ledger/journal';
import { compliancePaths } from '../ledger/paths';
import { Ledger } from '../ledger/store';
import { verifyLedger, type VerifyResult } from '../ledger/verify';
import type { RawRow } from './collect';
import { mkdirBounded } from '../util/bounded-mkdir';

export const BUNDLE_FORMAT = 'loom-evidence-bundle/1';
/** A bundle is read whole: refuse what cannot be one before reading it. */
export const MAX_BUNDLE_BYTES = 512 * 1024 * 1024;

export interface Bundle {
  format: typeof BUNDLE_FORMAT;
  created: string;
  chain: ChainMeta;
  head: { seq: number; hash: string } | null;
  records: RawRow[];
  checkpoints: Checkpoint[];
  evidence: string;
}

export class BundleError extends Error {}

function chainMetaOf(projectDir: string, fallback: string | undefined): ChainMeta {
  const described = readChainMeta(compliancePaths(projectDir));
  if (described) return described;
  try {
    const l = Ledger.openReadOnly(projectDir);
    try {
      const m = l.meta();
      return { chain: m.chain as ChainMeta['chain'], ...(m.key_id ? { key_id: m.key_id } : {}) };
    } finally {
      l.close();
    }
  } catch {
    return { chain: (fallback as ChainMeta['chain']) ?? 'sha256' };
  }
}

export function buildBundle(projectDir: string, verify: VerifyResult, records: RawRow[], evidence: string, env: NodeJS.ProcessEnv = process.env): Bundle {
  const lines = new Map<string, Checkpoint>();
  const files = [compliancePaths(projectDir).checkpoints, externalCheckpointFile(projectDir, env)].filter((f): f is string => !!f);
  for (const f of files) for (const c of readCheckpoints(f).checkpoints) lines.set(JSON.stringify(c), c);
  // Only checkpoints this chain reached: a bundle is a snapshot, later lines would read as a cut tail.
  const head = verify.head ?? null;
  const checkpoints = [...lines.values()].filter((c) => c.seq <= (head?.seq ?? 0)).sort((a, b) => a.seq - b.seq);
  return { format: BUNDLE_FORMAT, created: new Date().toISOString(), chain: chainMetaOf(projectDir, verify.chain), head, records, checkpoints, evidence };
}

function parseBundle(file: string): Bundle {
  let size: number;
  try {
    size = statSync(file).size;
  } catch (e) {
    throw new BundleError(`${file}: ${fileReason(e)}`);
  }
  if (size > MAX_BUNDLE_BYTES) throw new BundleError(`${file}: ${size} bytes, more than a bundle may be (${MAX_BUNDLE_BYTES})`);
  let b: Partial<Bundle>;
  let text: string;
  try {
    // A regular file read to its bound: /dev/zero or a FIFO has no size to check beforehand.
    const read = readRegularFile(file, MAX_BUNDLE_BYTES);
    if (read === undefined) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
    text = read;
  } catch (e) {
    // A folder, a permission: said as such, not as "not JSON (EISDIR: illegal operation on a directory, read)".
    throw new BundleError(e instanceof NotRegularError ? e.message : `${file}: ${fileReason(e)}`);
  }
  try {
    b = JSON.parse(text) as Partial<Bundle>;
  } catch (e) {
    throw new BundleError(`${file}: not JSON (${(e as Error).message.split('\n')[0]})`);
  }
  if (!b || typeof b !== 'object' || b.format !== BUNDLE_FORMAT) throw new BundleError(`${file}: not a loom evidence bundle (format ${JSON.stringify(b?.format ?? null)}, expected ${BUNDLE_FORMAT})`);
  if (!Array.isArray(b.records) || !Array.isArray(b.checkpoints) || !b.chain || typeof b.chain !== 'object') throw new BundleError(`${file}: records, checkpoints or chain missing`);
  b.records.forEach((r, i) => {
    if (!Array.isArray(r) || r.length !== 3 || !Number.isSafeInteger(r[0]) || r[0] < 1 || typeof r[1] !== 'string' || !/^[0-9a-f]{64}$/.test(r[1]) || typeof r[2] !== 'string' || /[\r\n]/.test(r[2])) {
      throw new BundleError(`${file}: records[${i}] is not [seq, hash, body]`);
    }
  });
  return b as Bundle;
}

export interface BundleVerdict extends VerifyResult {
  /** What the bundle's evidence claims as head, when it differs from the chain's head. */
  claimMismatch?: string;
}

/** Re-verifies a bundle with the ordinary verify, in a temporary project that nothing else reads. */
export function verifyBundle(file: string, env: NodeJS.ProcessEnv = process.env): BundleVerdict {
  const b = parseBundle(file);
  const tmp = mkdtempSync(join(tmpdir(), 'loom-bundle-'));
  try {
    const project = join(tmp, 'project');
    const paths = compliancePaths(project);
    mkdirBounded(paths.dir);
    writeFileSync(journalFile(paths), b.records.map(([seq, hash, body]) => formatLine(seq, hash, body)).join(''));
    writeFileSync(chainMetaFile(paths), JSON.stringify({ chain: b.chain.chain, ...(b.chain.key_id ? { key_id: b.chain.key_id } : {}) }) + '\n');
    writeFileSync(paths.checkpoints, b.checkpoints.map((c) => JSON.stringify(c) + '\n').join(''));
    // The reviewer's own state folder holds nothing about this ledger: point the checkpoint copy at an empty folder.
    const r: BundleVerdict = verifyLedger(project, { env: { ...env, LOOM_CHECKPOINT_DIR: join(tmp, 'state'), XDG_STATE_HOME: join(tmp, 'state') } });
    if (r.status !== 'intact') return r;
    const head = r.head ?? null;
    if (JSON.stringify(head) !== JSON.stringify(b.head ?? null)) r.claimMismatch = `the bundle names head ${JSON.stringify(b.head)}, its records end at ${JSON.stringify(head)}`;
    else if (head && typeof b.evidence === 'string' && b.evidence && !b.evidence.includes(head.hash)) r.claimMismatch = `the evidence text does not name the head hash ${head.hash}`;
    return r;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
